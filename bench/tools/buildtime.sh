#!/usr/bin/env bash
# buildtime.sh measures the first run's cold builds, each from an EMPTY build
# cache (a new GOCACHE; the module cache, GOMODCACHE, is shared and must
# already hold the modules: run `go mod download` first), with -p 2:
#
#   (a) a program that only calls eth_call through go-ethereum's ethclient
#       (a tiny module requiring go-ethereum v1.17.10): the yardstick
#   (b) go build ./examples/quickstart
#   (c) go test -count=1 -run '^$' ./...   (every test binary of the module)
#   (d) a user's test that imports evm/evmtest (a module with a replace to
#       this repository), built and run
#
# (a) and (b) run back to back, interleaved, ROUNDS times (default 2); (c)
# and (d) once. It prints the load (uptime) before each build, the wall,
# user and system times, the package counts (go list -deps) and the
# binaries' sizes, and the ratio (b)/(a) per round.
#
#   bench/tools/buildtime.sh [repo]     (default: this script's repository)
#   ROUNDS=3 SKIP_C=1 bench/tools/buildtime.sh
#   BASELINE=/tmp/main bench/tools/buildtime.sh   (also (b0): the quickstart
#       of another checkout, e.g. main before a change, in the same rounds)
#
# Run it on a quiet machine: the numbers are only as good as the load allows.
set -euo pipefail

repo="$(cd "${1:-$(dirname "$0")/../..}" && pwd)"
rounds="${ROUNDS:-2}"
export PATH="/usr/local/go/bin:$PATH"
export GOFLAGS="-mod=mod"
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
	code, err := c.Code(t.Context(), evmtest.Token, evm.Latest)
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
  (cd "$dir" && GOCACHE="$cache" /usr/bin/time -f "$name: %e s wall, %U s user, %S s sys, %M KB max RSS" "$@" >/dev/null) 2>&1 | tail -1 | tee -a "$work/times"
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

for r in $(seq 1 "$rounds"); do
  cold "round $r (a) ethclient-only" "$work/ethclientonly" go build -p 2 -o /dev/null .
  cold "round $r (b) quickstart" "$repo" go build -p 2 -o /dev/null ./examples/quickstart
  if [ -n "${BASELINE:-}" ]; then
    cold "round $r (b0) baseline quickstart" "$BASELINE" go build -p 2 -o /dev/null ./examples/quickstart
  fi
done
if [ -z "${SKIP_C:-}" ]; then
  cold "(c) go test -run ^\$ ./..." "$repo" go test -p 2 -count=1 -run '^$' ./...
fi
cold "(d) user test importing evmtest" "$work/usertest" go test -p 2 -count=1 .

echo "== (b)/(a) per round (and (b0)/(a) with BASELINE):"
sed -n 's/^round [0-9]* (\([ab]0*\)).*: \([0-9.]*\) s wall.*/\1 \2/p' "$work/times" |
  awk '$1 == "a" {a = $2} $1 != "a" {printf "  (%s) %.2fx (%s s / %s s)\n", $1, $2 / a, $2, a}'
