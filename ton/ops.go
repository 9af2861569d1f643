package ton

import (
	"strings"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The names of the client's typed operations, as nodeaccess.Attempt.Op
// shows them and nodeaccess.WithCost takes them. A call made with Call is
// named by its method (v2) or its path after "v3/" (v3); the typed
// operations' names price them alike. Every request costs 1 request unit
// unless WithCost names it.
const (
	// OpBlockTransactions is getBlockTransactionsExt (BlockTransactions,
	// AllBlockTransactions, and Follow's pages of a block).
	OpBlockTransactions = "getBlockTransactionsExt"
	// OpAccountStates is v3's accountStates (AccountStates,
	// AllAccountStates).
	OpAccountStates = "accountStates"
	// OpPendingTransactions is v3's pendingTransactions
	// (PendingTransactions, AllPendingTransactions).
	OpPendingTransactions = "pendingTransactions"
	// OpMasterchainInfo is getMasterchainInfo: Follow's poll of the
	// newest block.
	OpMasterchainInfo = "getMasterchainInfo"
	// OpShards is shards: Follow's list of a masterchain block's shard
	// blocks.
	OpShards = "shards"
	// OpBlockHeader is getBlockHeader: Follow's read of a block at a split
	// or a merge.
	OpBlockHeader = "getBlockHeader"
)

// ops is what a ton client can send, for the check of nodeaccess.WithCost.
var ops = &transport.Ops{
	Typed:   []string{OpBlockTransactions, OpAccountStates, OpPendingTransactions, OpMasterchainInfo, OpShards, OpBlockHeader},
	Generic: callName,
	GenericRule: `any API v2 method or v3 path after "v3/" (ASCII letters and digits, "/" between ` +
		`the parts of a v3 path, such as "getAddressBalance" or "jetton/transfers") for Call`,
}

// callName reports whether name can be the name of a call of Call: a v2
// method or a v3 path, made of ASCII letters and digits with "/" between
// non-empty parts (toncenter's methods and paths have no other character).
func callName(name string) bool {
	if name == "" || strings.HasPrefix(name, "v2/") || strings.HasPrefix(name, "v3/") {
		return false // the version is not part of the name
	}
	prev := byte('/')
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '/' && prev != '/' && i < len(name)-1:
		default:
			return false
		}
		prev = c
	}
	return true
}
