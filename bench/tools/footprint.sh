#!/usr/bin/env bash
# footprint.sh measures what importing one library package brings: for each
# program in testdata/footprint (one per package: the root, evm, hyper,
# hyper/hypercore, ton, beacon, evm/verified, each calling one operation), the
# non-standard packages and modules it links (go list -deps), the size of
# its binary (go build -ldflags="-s -w") and its cold build, from an EMPTY
# build cache (a new GOCACHE; the module cache must already hold the
# modules: run `go mod download` first), with -p 2.
#
#   bench/tools/footprint.sh [repo]     (default: this script's repository)
#
# TestFootprint (footprint_test.go) holds the packages, modules and sizes to
# their limits in every test run; the cold build times are for
# docs/build-times.md and are only as good as the machine's load allows.
set -euo pipefail

repo="$(cd "${1:-$(dirname "$0")/../..}" && pwd)"
export PATH="/usr/local/go/bin:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$repo"

printf '%-11s %9s %8s %12s %10s %10s\n' program packages modules "binary (B)" "wall (s)" "cpu (s)"
for p in nodeaccess evm hyper hypercore ton beacon verified; do
  dir="./testdata/footprint/$p"
  pkgs=$(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' "$dir" | grep -vc "/testdata/footprint/$p\$" || true)
  mods=$(go list -deps -f '{{if not .Standard}}{{with .Module}}{{.Path}}{{end}}{{end}}' "$dir" | sort -u | grep -vc '^$' || true)
  rm -rf "$work/cache"
  start=$(date +%s.%N)
  times=$( { /usr/bin/time -f '%U %S' env GOCACHE="$work/cache" go build -p 2 -ldflags='-s -w' -o "$work/$p" "$dir"; } 2>&1 | tail -1)
  end=$(date +%s.%N)
  size=$(stat -c %s "$work/$p")
  cpu=$(echo "$times" | awk '{print $1 + $2}')
  printf '%-11s %9d %8d %12d %10.1f %10.1f\n' "$p" "$pkgs" "$mods" "$size" "$(echo "$end - $start" | bc)" "$cpu"
done
