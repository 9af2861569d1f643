package transport

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess"
)

// refusal is what a server's answer to a batch says of its size.
type refusal int

const (
	// notRefused: the answer is not a refusal of the batch's size.
	notRefused refusal = iota
	// tooMany: the request has more calls than the server takes, or is
	// larger than it reads (a limit in calls may come with it). Smaller
	// pieces pass whatever the calls are, so the size holds for the rest
	// of the batch.
	tooMany
	// tooBig: the answer would be larger than the server sends or the
	// client reads (a limit in bytes, never in calls). A smaller piece
	// has a smaller answer; one call whose answer alone is too big cannot
	// be split.
	tooBig
)

// batchLimit finds the limit a server's batch error names: Erigon's "batch
// limit 100 exceeded", jsonrpsee's "Exceeded max limit of 20".
var batchLimit = regexp.MustCompile(`(?i)(?:batch limit|max limit of|max batch size(?: of)?) (\d+)`)

// sizeRefusal reports whether err, the error of a whole request, refuses
// it for its size, and the limit in calls it names (0 for none):
//
//   - tooBig: an answer over the client's cap (WithMaxResponseBytes), or
//     over the server's, an *nodeaccess.RPCError that matches
//     nodeaccess.ErrResponseTooLarge (jsonrpsee's -32008 "Response is too
//     big", which HyperEVM sends; -32011 "The batch response was too
//     large", with whatever message);
//   - tooMany: an HTTP 413 (geth answers one to a body over 5 MB, proxies
//     to theirs), or a JSON-RPC error, bare or as an HTTP error's JSON body
//     (Nethermind sends its -32005 with a 503), that refuses the batch:
//     geth's -32600 "batch too large"; Erigon's -32600 (older: -32000)
//     "batch limit 100 exceeded (can increase by --rpc.batch.limit).
//     Requested batch of size: 101"; jsonrpsee's (reth's, HyperEVM's)
//     -32010 "The batch request was too large"; Nethermind's -32005 "Batch
//     size limit exceeded" and Besu's -32005 "Number of requests exceeds
//     max batch size". -32005 is also a rate limit's code, so it counts
//     only when the message names the batch.
func sizeRefusal(err error) (limit int, r refusal) {
	if errors.Is(err, nodeaccess.ErrResponseTooLarge) {
		return 0, tooBig
	}
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		return httpRefusal(he)
	}
	var re *nodeaccess.RPCError
	if !errors.As(err, &re) {
		return 0, notRefused
	}
	msg := strings.ToLower(re.Message)
	data, _ := re.Data.(string)
	switch {
	case re.Code == -32011:
		// jsonrpsee's answer too large: its limit is in bytes, not calls.
		return 0, tooBig
	case re.Code == -32010:
	case (re.Code == -32600 || re.Code == -32000 || re.Code == -32005) && strings.Contains(msg, "batch") &&
		(strings.Contains(msg, "too large") || strings.Contains(msg, "exceed")):
	default:
		return 0, notRefused
	}
	for _, s := range []string{re.Message, data} {
		if sm := batchLimit.FindStringSubmatch(s); sm != nil {
			if l, err := strconv.Atoi(sm[1]); err == nil && l > 0 {
				return l, tooMany
			}
		}
	}
	return 0, tooMany
}

// httpRefusal is sizeRefusal for an HTTP error: a 413, or an error object
// in its JSON body that refuses the size.
func httpRefusal(he *nodeaccess.HTTPError) (limit int, r refusal) {
	if he.StatusCode == http.StatusRequestEntityTooLarge {
		r = tooMany
	}
	env, perr := parseEnvelope(he.Body)
	if perr != nil || env.errObj == nil {
		return 0, r
	}
	var obj struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data"`
	}
	if json.Unmarshal(env.errObj, &obj) != nil {
		return 0, r
	}
	if l, br := sizeRefusal(&nodeaccess.RPCError{Code: obj.Code, Message: obj.Message, Data: obj.Data}); br != notRefused {
		return l, br
	}
	return 0, r
}

// requestError reports whether err, one error object that answers a batch
// with the first call's id, is about the request rather than that call: a
// refusal of its size (geth and Erigon give theirs the first call's id) or
// a rate limit. Any other such object is the first call's own answer.
func requestError(err error) bool {
	_, r := sizeRefusal(err)
	return r != notRefused || errors.Is(err, nodeaccess.ErrRateLimited)
}
