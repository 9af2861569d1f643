#!/usr/bin/env bash
# buildtime.sh measures the first run's cold builds, each from an EMPTY build
# cache (a new GOCACHE; the module cache, GOMODCACHE, is shared and must
# already hold the modules: run `go mod download` first), with -p 2:
#
#   (a) a program that only calls eth_call through go-ethereum's ethclient
#       (a tiny module requiring go-ethereum v1.17.10): the yardstick
#   (b) the quickstart, ./examples/quickstart
#   (c) go test -count=1 -run '^$' ./...   (every test binary of the module)
#   (d) a user's test that imports evm/evmtest (a module with a replace to
#       this repository), built and run
#
# (a) and (b) are each built two ways: "build" is go build -o /dev/null, and
# "run" is go run -exec true, which is exactly what the first
# `go run ./examples/quickstart` compiles and links (go run leaves out debug
# information) without running the program. Each round builds (a) and (b)
# back to back, both ways; there are ROUNDS rounds (default 5). (c) and (d)
# run once. It prints the load (uptime) before each build, the wall, user and
# system times, the package counts (go list -deps) and the binaries' sizes,
# then, per way, each round's ratio (b)/(a) in wall and in CPU (user + system)
# time and the median over the rounds. The machine's load moves single
# rounds by several percent either way: read the medians.
#
#   bench/tools/buildtime.sh [repo]     (default: this script's repository)
#   ROUNDS=3 SKIP_C=1 bench/tools/buildtime.sh
#   WAYS=build bench/tools/buildtime.sh      (only go build; or WAYS=run)
#   BASELINE=/tmp/main bench/tools/buildtime.sh   (also (b0): the quickstart
#       of another checkout, e.g. main before a change, in the same rounds)
#
# A build that fails stops the script: it is not a measurement.
# Run it on a quiet machine: the numbers are only as good as the load allows.
set -euo pipefail

repo="$(cd "${1:-$(dirname "$0")/../..}" && pwd)"
rounds="${ROUNDS:-5}"
ways="${WAYS:-build run}"
export PATH="/usr/local/go/bin:$PATH"
export GOFLAGS="-mod=mod -buildvcs=false"
export GOPROXY="${GOPROXY:-https://proxy.golang.org}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# (a): the ethclient-only program.
mkdir -p "$work/ethclientonly"
cat >"$work/ethclientonly/main.go" <<'EOF'
// Command ethclientonly calls eth_call through go-ethereum's ethclient.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

func main() {
	c, err := ethclient.Dial(os.Getenv("ETH_URL"))
	if err != nil {
		fmt.Println(err)
		return
	}
	to := common.HexToAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")
	out, err := c.CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: common.FromHex("0x18160ddd")}, nil)
	fmt.Println(out, err)
}
EOF
cat >"$work/ethclientonly/go.mod" <<'EOF'
module example.com/ethclientonly

go 1.25.0

require github.com/ethereum/go-ethereum v1.17.10
EOF
cp "$repo/go.sum" "$work/ethclientonly/go.sum"
(cd "$work/ethclientonly" && go mod tidy >/dev/null 2>&1)

# (d): a user's module whose test imports evmtest.
mkdir -p "$work/usertest"
cat >"$work/usertest/user_test.go" <<'EOF'
package usertest

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

func TestTokenCode(t *testing.T) {
	srv := evmtest.NewT(t)
	c, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	code, err := c.Code(t.Context(), evmtest.Token(), evm.Latest)
	if err != nil || len(code) == 0 {
		t.Fatalf("code %x, %v", code, err)
	}
}
EOF
cat >"$work/usertest/go.mod" <<EOF
module example.com/usertest

go 1.25.0

require github.com/nodeaccess/nodeaccess v0.0.0

replace github.com/nodeaccess/nodeaccess => $repo
EOF
cp "$repo/go.sum" "$work/usertest/go.sum"
(cd "$work/usertest" && go mod tidy >/dev/null 2>&1)

# cold NAME DIR CMD...: runs CMD in DIR with an empty build cache.
cold() {
  local name="$1" dir="$2"
  shift 2
  local cache
  cache="$(mktemp -d)"
  echo "-- $name: load $(uptime | sed 's/.*load average: //')"
  if ! (cd "$dir" && GOCACHE="$cache" /usr/bin/time -o "$work/time.out" -f "$name: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" >"$work/cmd.out" 2>&1); then
    # A build that fails is not a measurement: say so and stop.
    cat "$work/cmd.out" >&2
    echo "buildtime.sh: $name failed" >&2
    exit 1
  fi
  cat "$work/time.out"
  if [ -n "${tag:-}" ]; then
    # "way who wall cpu" for the summary.
    awk -v t="$tag" '{print t, $(NF-12), $(NF-9) + $(NF-6)}' "$work/time.out" >>"$work/times"
  fi
  rm -rf "$cache"
}

echo "== $(go version); $(nproc) cores; repo $repo at $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "== packages (go list -deps): ethclient-only $(cd "$work/ethclientonly" && go list -deps . | wc -l)," \
  "quickstart $(cd "$repo" && go list -deps ./examples/quickstart | wc -l)," \
  "evm/evmtest $(cd "$repo" && go list -deps ./evm/evmtest | wc -l)," \
  "user test $(cd "$work/usertest" && go list -test -deps . | wc -l)"
(cd "$work/ethclientonly" && go build -o "$work/a.bin" .)
(cd "$repo" && go build -o "$work/b.bin" ./examples/quickstart)
echo "== binaries: ethclient-only $(stat -c %s "$work/a.bin") bytes, quickstart $(stat -c %s "$work/b.bin") bytes"

# cmd WAY PKG: the command that builds PKG the way WAY.
cmd() {
  case "$1" in
  build) echo go build -p 2 -o /dev/null "$2" ;;
  run) echo go run -p 2 -exec true "$2" ;;
  *) echo "buildtime.sh: unknown way $1" >&2; exit 2 ;;
  esac
}
for r in $(seq 1 "$rounds"); do
  for w in $ways; do
    # shellcheck disable=SC2046 # cmd's words are the command.
    tag="$w a" cold "round $r $w (a) ethclient-only" "$work/ethclientonly" $(cmd "$w" .)
    # shellcheck disable=SC2046
    tag="$w b" cold "round $r $w (b) quickstart" "$repo" $(cmd "$w" ./examples/quickstart)
    if [ -n "${BASELINE:-}" ]; then
      # shellcheck disable=SC2046
      tag="$w b0" cold "round $r $w (b0) baseline quickstart" "$BASELINE" $(cmd "$w" ./examples/quickstart)
    fi
  done
done
if [ -z "${SKIP_C:-}" ]; then
  tag="" cold "(c) go test -run ^\$ ./..." "$repo" go test -p 2 -count=1 -run '^$' ./...
fi
tag="" cold "(d) user test importing evmtest" "$work/usertest" go test -p 2 -count=1 .

echo "== (b)/(a) per round, in wall and CPU time, and the medians (b0: BASELINE):"
awk '
  $2 == "a" { aw[$1] = $3; ac[$1] = $4; next }
  {
    k = $1 " (" $2 ")"; n[k]++
    rw[k, n[k]] = $3 / aw[$1]; rc[k, n[k]] = $4 / ac[$1]
    line[k] = line[k] sprintf(" %.2fx/%.2fx", $3 / aw[$1], $4 / ac[$1])
  }
  function median(arr, k, m,   i, j, t, v) {
    for (i = 1; i <= m; i++) v[i] = arr[k, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  END {
    for (k in n) printf "  %s wall/CPU per round:%s; median %.2fx wall, %.2fx CPU\n", k, line[k], median(rw, k, n[k]), median(rc, k, n[k])
  }' "$work/times"
