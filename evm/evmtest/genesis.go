package evmtest

import (
	"maps"

	"github.com/ethereum/go-ethereum/core/types"
)

// ChainID is the chain id of every Server's chain (go-ethereum's simulated
// backend's): sign transactions for the local chain with it.
const ChainID = 1337

// genesisAlloc is the genesis's accounts besides the forks' system
// contracts: the genesis contracts (Token, the scenario's contracts,
// Multicall3), then the funded accounts, then the user's (the user's win on
// conflict).
func genesisAlloc(user types.GenesisAlloc) types.GenesisAlloc {
	alloc := genesisContracts()
	for _, a := range devAccounts {
		alloc[a.Address] = types.Account{Balance: accountBalance()}
	}
	maps.Copy(alloc, user)
	return alloc
}
