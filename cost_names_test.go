package nodeaccess_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

// withCost makes a client of chain with opts.
func withCost(chain string, opts ...nodeaccess.Option) error {
	var err error
	switch chain {
	case "evm":
		_, err = evm.New("https://node.example", "k3y", testkit.Bundle(opts...))
	case "hyper":
		_, err = hyper.New("https://node.example", "k3y", testkit.Bundle(opts...))
	case "ton":
		_, err = ton.New("https://node.example", "k3y", testkit.Bundle(opts...))
	case "beacon":
		_, err = beacon.New("https://node.example", "k3y", testkit.Bundle(opts...))
	}
	return err
}

// TestWithCostNamesAnOperation: a cost for a name that cannot be an
// operation of the client is refused when the client is made (it would
// never apply, leaving a plan silently wrong); a typed operation's name, by
// its constant, and a name the generic call can send are taken.
func TestWithCostNamesAnOperation(t *testing.T) {
	t.Parallel()
	accepted := map[string][]string{
		"evm":    {evm.OpCall, evm.OpArchiveCall, evm.OpCode, evm.OpInternalOperations, evm.OpBlockNumber, evm.OpChainID, evm.OpSimulate, "eth_getBalance", "debug_traceTransaction"},
		"hyper":  {hyper.OpUserVaultEquities, hyper.OpAllMids, "clearinghouseState", "spotMeta"},
		"ton":    {ton.OpBlockTransactions, ton.OpAccountStates, ton.OpPendingTransactions, ton.OpMasterchainInfo, ton.OpShards, ton.OpBlockHeader, "getAddressBalance", "jetton/transfers"},
		"beacon": {beacon.OpState, "/eth/v1/beacon/genesis"},
	}
	for chain, names := range accepted {
		for _, name := range names {
			require.NoError(t, withCost(chain, nodeaccess.WithCost(name, 2)), "%s %s", chain, name)
		}
	}
	refused := map[string][]struct{ name, says string }{
		"evm": {
			{"eth_cal", `did you mean "eth_call"?`},
			{"eth_getcode", ``},
			{"eth_calll", `did you mean "eth_call"?`},
			{"getBlockTransactionsExt", "its operations are eth_call, eth_call/archive"},
			{"accountStates", "any JSON-RPC method (namespace_method"},
		},
		"ton": {
			{"eth_call", "its operations are getBlockTransactionsExt, accountStates"},
			{"acountStates", `did you mean "accountStates"?`},
			{"v3/accountStates", "any API v2 method or v3 path"},
		},
		"hyper": {
			{"eth_call", "its operations are userVaultEquities, allMids, and any /info request type"},
			{"allMid", `did you mean "allMids"?`},
		},
		"beacon": {
			{"eth_call", "its operations are getStateV2"},
			{"getStateV", `did you mean "getStateV2"?`},
		},
	}
	for chain, cases := range refused {
		for _, tc := range cases {
			err := withCost(chain, nodeaccess.WithCost(tc.name, 2))
			var ie *nodeaccess.InputError
			require.ErrorAs(t, err, &ie, "%s %s", chain, tc.name)
			assert.Equal(t, "option", ie.Arg)
			assert.Contains(t, err.Error(), chain+": invalid input: option: WithCost: ")
			assert.Contains(t, err.Error(), "is not an operation of this client")
			assert.Contains(t, err.Error(), tc.says, "%s %s", chain, tc.name)
		}
	}
}
