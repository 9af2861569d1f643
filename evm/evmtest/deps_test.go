package evmtest_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goListDeps returns the packages pkg links (go list -deps).
func goListDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	require.NoError(t, err, "go list -deps %s", pkg)
	return strings.Fields(string(out))
}

// evmtest, and the quickstart that starts it, link go-ethereum's chain
// packages but not its node: what a program or test that imports them
// builds stays close to what ethclient alone builds (the first run's cold
// build was 2.95x ethclient's with the node stack; see bench/tools/buildtime.sh).
func TestNoNodeStack(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	t.Parallel()
	forbidden := []string{
		"github.com/ethereum/go-ethereum/node",
		"github.com/ethereum/go-ethereum/eth",
		"github.com/ethereum/go-ethereum/eth/catalyst",
		"github.com/ethereum/go-ethereum/eth/ethconfig",
		"github.com/ethereum/go-ethereum/eth/filters",
		"github.com/ethereum/go-ethereum/internal/ethapi",
		"github.com/ethereum/go-ethereum/p2p",
		"github.com/ethereum/go-ethereum/metrics/prometheus",
		"github.com/cockroachdb/pebble",
		"github.com/syndtr/goleveldb/leveldb",
		"github.com/prometheus/client_golang/prometheus",
		"github.com/urfave/cli/v2",
		// bind v1's code generator, with go/parser and text/template, and
		// bind v2's keystore and external signer: evmtest has no
		// TransactOpts.
		"github.com/ethereum/go-ethereum/accounts/abi/abigen",
		"github.com/ethereum/go-ethereum/accounts/abi/bind/v2",
		"github.com/ethereum/go-ethereum/accounts/keystore",
		// The testing package and its flags: NewT takes a
		// nodeaccesstest.TB.
		"testing",
	}
	ethclient := len(goListDeps(t, "github.com/ethereum/go-ethereum/ethclient"))
	for _, pkg := range []string{"github.com/nodeaccess/nodeaccess/evm/evmtest", "github.com/nodeaccess/nodeaccess/examples/quickstart"} {
		deps := goListDeps(t, pkg)
		for _, d := range deps {
			for _, f := range forbidden {
				assert.NotEqual(t, f, d, "%s links %s", pkg, d)
				if strings.HasPrefix(f, "github.com/cockroachdb/") || strings.HasPrefix(f, "github.com/syndtr/") {
					assert.False(t, strings.HasPrefix(d, f), "%s links %s", pkg, d)
				}
			}
		}
		// The node stack took evmtest to 744 packages against ethclient's
		// 284; without it evmtest is at 367, the quickstart at 377.
		assert.LessOrEqual(t, len(deps), ethclient*3/2, "%s links %d packages, ethclient %d", pkg, len(deps), ethclient)
	}
}
