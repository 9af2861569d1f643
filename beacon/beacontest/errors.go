package beacontest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// errorBody is the beacon API's error body, as Lighthouse sends it.
type errorBody struct {
	Code        int      `json:"code"`
	Message     string   `json:"message"`
	Stacktraces []string `json:"stacktraces"`
}

// writeError writes a beacon error response: status, Content-Type
// application/json and {"code":status,"message":msg,"stacktraces":[]}.
func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(errorBody{Code: status, Message: msg, Stacktraces: []string{}})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Del("Eth-Consensus-Version")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// sharedError is the nodeaccesstest.ErrorWriter of the server: the wrong
// key (403), a path it does not serve (404), a wrong method (405) and the
// faults that answer instead of it (429, ServerError's status). The message
// starts with the status in Lighthouse's style ("FORBIDDEN: invalid access
// key"); a 404 says that the route is not found, which the beacon client
// reads as "this node does not serve the route" (beacon.ErrDebugDisabled),
// as it does for a real node's 404 on an unknown route.
func sharedError(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	if status == http.StatusNotFound {
		msg = "route not found"
	}
	writeError(w, status, statusName(status)+": "+msg)
}

// statusName is the status text in upper case with underscores
// ("NOT_FOUND"), as Lighthouse prefixes its messages.
func statusName(status int) string {
	t := http.StatusText(status)
	if t == "" {
		return "HTTP_" + strconv.Itoa(status)
	}
	return strings.ToUpper(strings.ReplaceAll(t, " ", "_"))
}

// quoteCut quotes a value from the request for a message, cut to 80 bytes
// at a character boundary.
func quoteCut(s string) string { return strconv.Quote(transport.Cut(s, 80)) }
