package evmtest

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess/evm"
)

// multicall3CodeHash returns the Keccak-256 hash of Multicall3's runtime
// bytecode as deployed at its canonical address on Ethereum mainnet and the
// chains that share the address (the value the OP Stack's and others'
// checks of the preinstall compare against).
func multicall3CodeHash() common.Hash {
	return common.HexToHash("0xd5c15df687b16f2ff992fc8d767b4216323184a2bbc6ee2f9c398c318e770891")
}

// multicall3Code returns Multicall3's runtime bytecode (3,808 bytes: solc
// 0.8.12, optimizer on with 10,000,000 runs), a fresh copy on every call.
// It is the code the canonical deployment transaction in the
// mds1/multicall3 README creates; see testdata/SOURCES.md.
func multicall3Code() []byte { return mustHex("Multicall3.bin-runtime") }

// multicall3Account is the genesis account at evm.Multicall3Address().
func multicall3Account() types.Account {
	return types.Account{Code: multicall3Code(), Balance: new(big.Int), Nonce: 1}
}

// WithoutMulticall3 starts the chain without Multicall3: no code at
// evm.Multicall3Address(), as on a chain where it was never deployed, for
// testing code that must cope with that (evm.ErrMulticallNotDeployed,
// evm.MulticallOptions.Fallback). A later WithAlloc may put an account
// there again.
func WithoutMulticall3() Option {
	return WithAlloc(types.GenesisAlloc{evm.Multicall3Address(): {Balance: new(big.Int)}})
}
