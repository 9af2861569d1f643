package hyper

import (
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
var ops = &transport.Ops{
	Typed:       []string{OpUserVaultEquities, OpAllMids},
	Generic:     func(name string) bool { return checkType(name) == nil },
	GenericRule: `any /info request type (ASCII letters and digits, such as "clearinghouseState") for Info and PublicInfo`,
}
