package evmtest

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
)

// Account is a funded account of the local chain, with its private key, for
// signing transactions in tests. The keys are derived from fixed strings and
// are public: never use them on a real chain.
type Account struct {
	// Key signs the account's transactions.
	Key *ecdsa.PrivateKey
	// Address is the account's address.
	Address common.Address
}

// accountCount is the number of funded accounts of every Server's chain.
const accountCount = 4

// accountBalance returns the ether every funded account starts with:
// 10,000 ether, in wei (10^22). It is a new big.Int on every call.
func accountBalance() *big.Int {
	return new(big.Int).Mul(big.NewInt(10_000), big.NewInt(params.Ether))
}

// devAccounts are the funded accounts. Key i is keccak256("nodeaccess
// evmtest account <i>"), so the addresses are the same on every run.
var devAccounts = func() []Account {
	out := make([]Account, accountCount)
	for i := range out {
		k, err := crypto.ToECDSA(crypto.Keccak256([]byte(fmt.Sprintf("nodeaccess evmtest account %d", i))))
		if err != nil {
			panic("evmtest: account key: " + err.Error())
		}
		out[i] = Account{Key: k, Address: crypto.PubkeyToAddress(k.PublicKey)}
	}
	return out
}()

// Holder returns the token holder a program reads: Accounts()[0], holding
// HolderBalance() (1234.567891 LUSD) of Token() in genesis. It also signs
// the default scenario's transactions.
func Holder() common.Address { return devAccounts[0].Address }

// Accounts returns the funded accounts (four, each with 10,000 ether in
// genesis), in a new slice. Accounts()[0] is Holder.
// The keys are shared with every caller: do not modify them.
func Accounts() []Account {
	return append([]Account(nil), devAccounts...)
}
