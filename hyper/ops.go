package hyper

import (
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The names of the client's typed operations, as nodeaccess.Attempt.Op
// shows them and nodeaccess.WithCost takes them. Any other /info request is
// named by its type ("clearinghouseState", "spotMeta", …), for Info and
// PublicInfo alike. A request to the node costs 1 request unit unless
// WithCost names it; one to the public API weighs what its type weighs
// there (see PublicInfo).
const (
	// OpUserVaultEquities is userVaultEquities (UserVaultEquities).
	OpUserVaultEquities = "userVaultEquities"
	// OpAllMids is allMids (AllMids), sent to the public API.
	OpAllMids = "allMids"
)

// ops is what a hyper client can send, for the check of nodeaccess.WithCost.
// The options New takes also go to the EVM client (see New): their costs
// may name its operations too, which it then does not check again.
var ops = &transport.Ops{
	Typed: []string{OpUserVaultEquities, OpAllMids,
		evm.OpCall, evm.OpArchiveCall, evm.OpCode, evm.OpInternalOperations, evm.OpBlockNumber, evm.OpChainID, evm.OpSimulate},
	Generic: func(name string) bool { return checkType(name) == nil || transport.RPCMethodName(name) },
	GenericRule: `any /info request type (ASCII letters and digits, such as "clearinghouseState") for Info and ` +
		`PublicInfo, and any JSON-RPC method of the EVM client (namespace_method)`,
}
