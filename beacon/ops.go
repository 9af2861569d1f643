package beacon

import (
	"strings"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// OpState is the name of the client's state download (State,
// DownloadState: the beacon API's getStateV2), as nodeaccess.Attempt.Op
// shows it and nodeaccess.WithCost takes it. A call made with Get is named
// by its path ("/eth/v1/beacon/genesis"). Every request costs 1 request
// unit unless WithCost names it.
const OpState = opState

// ops is what a beacon client can send, for the check of
// nodeaccess.WithCost.
var ops = &transport.Ops{
	Typed:       []string{OpState},
	Generic:     func(name string) bool { return len(name) > 1 && name[0] == '/' && !strings.ContainsAny(name, "?# ") },
	GenericRule: `any beacon API path (such as "/eth/v1/beacon/genesis") for Get`,
}
