package evmtest

import (
	"embed"
	"encoding/hex"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess/evm"
)

// The contracts in the genesis of every Server's chain: Token, and the
// forwarder and factory the default scenario calls. Their Solidity sources
// are in contracts/ beside this file; see the package documentation for
// how the artifacts were made. The addresses are functions, as are all of
// this package's defaults, so that no code can change what another test
// (or the next New) sees.

// Token returns the address of the ERC-20 token "Local USD" (LUSD, 6
// decimals). Holder(), Accounts()[1] and Accounts()[2] hold it.
func Token() common.Address {
	return common.HexToAddress("0x000000000000000000000000000000000000E020")
}

// forwarder returns the address of a contract whose forward(address) passes
// the value it receives on to the address with a CALL.
func forwarder() common.Address {
	return common.HexToAddress("0x000000000000000000000000000000000000F044")
}

// factory returns the address of a contract whose create() and
// create2(bytes32) make a Child contract with CREATE and CREATE2, passing
// the value they receive to it. A Child's owner can destroy it with
// destroy(address), a SELFDESTRUCT to the address.
func factory() common.Address {
	return common.HexToAddress("0x000000000000000000000000000000000000FAC7")
}

// The token's constants, as its name(), symbol() and decimals() return them.
const (
	TokenName     = "Local USD"
	TokenSymbol   = "LUSD"
	TokenDecimals = 6
)

// HolderBalance returns Holder's token balance in genesis, in the token's
// smallest unit (10^-6 LUSD): 1234.567891 LUSD. It is a new big.Int on
// every call.
func HolderBalance() *big.Int { return big.NewInt(1_234_567_891) }

// tokenBalances returns the genesis token balances of Accounts()[0]
// (Holder), [1] (500 LUSD) and [2] (0.000001 LUSD).
func tokenBalances() []*big.Int {
	return []*big.Int{HolderBalance(), big.NewInt(500_000_000), big.NewInt(1)}
}

//go:embed contracts/*.abi contracts/*.bin contracts/*.bin-runtime
var artifacts embed.FS

// The ABIs of the genesis contracts. Each call parses the embedded ABI
// anew, so that a caller who changes the result (its maps) changes nothing
// another sees.

// TokenABI returns the ABI of the token at Token(): ERC-20 (name, symbol,
// decimals, totalSupply, balanceOf, allowance, transfer, approve,
// transferFrom and the Transfer and Approval events).
func TokenABI() abi.ABI { return mustABI("LocalToken") }

// forwarderABI returns the ABI of the contract at forwarder().
func forwarderABI() abi.ABI { return mustABI("Forwarder") }

// factoryABI returns the ABI of the contract at factory().
func factoryABI() abi.ABI { return mustABI("Factory") }

// childABI returns the ABI of the contracts factory() makes.
func childABI() abi.ABI { return mustABI("Child") }

func mustABI(name string) abi.ABI {
	b, err := artifacts.ReadFile("contracts/" + name + ".abi")
	if err != nil {
		panic("evmtest: " + err.Error())
	}
	a, err := abi.JSON(strings.NewReader(string(b)))
	if err != nil {
		panic("evmtest: contracts/" + name + ".abi: " + err.Error())
	}
	return a
}

// mustHex reads an embedded bytecode file (hex, no 0x).
func mustHex(file string) []byte {
	b, err := artifacts.ReadFile("contracts/" + file)
	if err != nil {
		panic("evmtest: " + err.Error())
	}
	code, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil {
		panic("evmtest: contracts/" + file + " is not hex: " + err.Error())
	}
	return code
}

// tokenCode returns the runtime bytecode of the token at Token, a fresh
// copy on every call.
func tokenCode() []byte { return mustHex("LocalToken.bin-runtime") }

// childInitCode returns the creation code factory deploys a Child with for
// owner: Child's creation bytecode followed by the ABI-encoded owner. Its
// Keccak-256 hash is what the address of a CREATE2 child depends on
// (crypto.CreateAddress2).
func childInitCode(owner common.Address) []byte {
	return append(mustHex("Child.bin"), common.LeftPadBytes(owner[:], 32)...)
}

// TokenAccount returns a genesis account holding the token's code with the
// given balances (in the token's smallest unit) and their sum as
// totalSupply. Put it in WithAlloc at an address of your choice to have a
// second token instance with balances of your own:
//
//	evmtest.New(evmtest.WithAlloc(types.GenesisAlloc{myToken: evmtest.TokenAccount(balances)}))
//
// Name, symbol and decimals are the constants of the code. Balances must
// not be negative; TokenAccount panics on a negative one.
func TokenAccount(balances map[common.Address]*big.Int) types.Account {
	storage := make(map[common.Hash]common.Hash, len(balances)+1)
	total := new(big.Int)
	for holder, amount := range balances {
		if amount.Sign() < 0 {
			panic("evmtest.TokenAccount: negative balance for " + holder.Hex())
		}
		total.Add(total, amount)
		storage[tokenBalanceSlot(holder)] = common.BigToHash(amount)
	}
	storage[common.Hash{}] = common.BigToHash(total) // slot 0: totalSupply
	return types.Account{Code: tokenCode(), Storage: storage, Balance: new(big.Int)}
}

// tokenBalanceSlot returns the storage slot of the token's balanceOf[holder]:
// keccak256(holder . 1), the mapping being the token's slot 1.
func tokenBalanceSlot(holder common.Address) common.Hash {
	return crypto.Keccak256Hash(common.LeftPadBytes(holder[:], 32), common.LeftPadBytes([]byte{1}, 32))
}

// genesisContracts is the alloc of the contracts every chain starts with.
func genesisContracts() types.GenesisAlloc {
	genesis := tokenBalances()
	balances := make(map[common.Address]*big.Int, len(genesis))
	for i, b := range genesis {
		balances[devAccounts[i].Address] = b
	}
	return types.GenesisAlloc{
		Token():     TokenAccount(balances),
		forwarder(): {Code: mustHex("Forwarder.bin-runtime"), Balance: new(big.Int)},
		factory():   {Code: mustHex("Factory.bin-runtime"), Balance: new(big.Int)},

		evm.Multicall3Address(): multicall3Account(), // multicall3.go
	}
}
