package evm

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess"
)

// The eth_getLogs windows Follow reads while it catches up.
const (
	// firstWindow is the first window's size in blocks: Erigon's default
	// range limit (1,000 blocks past the first) and below every provider's
	// paid-plan limit.
	firstWindow = 1000
	// maxWindow is the largest window: QuickNode's and Alchemy's range
	// limit on most chains.
	maxWindow = 10000
	// smallAnswer is the size under which an answer lets the next window
	// double: a tenth of the common 10,000-log cap.
	smallAnswer = 1000
)

// refusalKind says what an eth_getLogs refusal refuses.
type refusalKind int

const (
	notRefused refusalKind = iota
	rangeRefused
	sizeRefused
)

// logsRefusals are the texts by which nodes and providers refuse an
// eth_getLogs window, matched in lower case anywhere in the error
// object's message, with where each comes from. A range refusal caps the
// window's size for the rest of the walk; a size refusal (too many logs)
// only shrinks the next window.
var logsRefusals = []struct {
	text   string
	kind   refusalKind
	source string
}{
	// go-ethereum v1.17 eth/filters: -32602 "exceed maximum block range N".
	{"exceed maximum block range", rangeRefused, "go-ethereum eth/filters"},
	// Infura (-32005, with "Try with this block range [0x.., 0x..]." and
	// the range in data) and Nethermind-based relays: "query returned
	// more than 10000 results".
	{"query returned more than", sizeRefused, "docs.metamask.io eth_getLogs constraints; go-ethereum before v1.10"},
	// reth: -32602 "query exceeds max block range N" and "query exceeds
	// max results N, retry with the range A-B".
	{"exceeds max block range", rangeRefused, "reth crates/rpc eth filter"},
	{"exceeds max results", sizeRefused, "reth crates/rpc eth filter"},
	// Erigon 3.3+: "query block range exceeds server limit, narrow your
	// filter: N" (-32602 since erigon PR 20424), and "query returns too
	// many logs, narrow your filter: N" (--rpc.logs.maxresults, PR 19721).
	{"block range exceeds server limit", rangeRefused, "erigon PR 18798, 20424"},
	{"too many logs", sizeRefused, "erigon PR 19721"},
	// Besu --rpc-max-logs-range: -32005 "Requested range exceeds maximum
	// RPC range limit" (from Besu's JsonRpcError, not checked here).
	{"exceeds maximum rpc range limit", rangeRefused, "besu JsonRpcError (unverified)"},
	// Nethermind's MaxLogsPerResponse (unverified): "Too many logs
	// requested. Max logs per response is N."
	{"max logs per response", sizeRefused, "nethermind JsonRpcConfig (unverified)"},
	// Alchemy: "Log response size exceeded. You can make eth_getLogs
	// requests with up to a 2K block range and no limit on the response
	// size, or you can request any block range with a cap of 10K logs in
	// the response. Based on your parameters, this block range should
	// work: [0x.., 0x..]", and "You can make eth_getLogs requests with up
	// to a 500 block range. ...".
	{"log response size exceeded", sizeRefused, "alchemy docs eth_getLogs"},
	{"eth_getlogs requests with up to a", rangeRefused, "alchemy docs eth_getLogs"},
	// Infura's range limit: -32602 "range 1000000 exceeds limit of 10000".
	{"exceeds limit of", rangeRefused, "INFURA/infura issue 237"},
	// QuickNode: -32614 "eth_getLogs is limited to a 10,000 range".
	{"is limited to a", rangeRefused, "quicknode docs eth_getLogs"},
	// Others' range limits: "block range is too wide (maximum N)"
	// (Frontier chains), "block range too large" (cdk-erigon), "block
	// range is larger than max block range" and "block range is bigger
	// than maxBlockRange" (go-ethereum forks).
	{"block range is too wide", rangeRefused, "frontier eth_getLogs"},
	{"block range too large", rangeRefused, "cdk-erigon PR 1706"},
	{"than max block range", rangeRefused, "go-ethereum forks"},
	{"than maxblockrange", rangeRefused, "scroll go-ethereum PR 529"},
}

// suggested matches the range a refusal suggests: Alchemy's and Infura's
// "[0x1, 0x2]", reth's "retry with the range 1-2".
var (
	suggestedHex = regexp.MustCompile(`\[\s*(0x[0-9a-fA-F]{1,16})\s*,\s*(0x[0-9a-fA-F]{1,16})\s*\]`)
	suggestedDec = regexp.MustCompile(`range (\d{1,20})\s*-\s*(\d{1,20})`)
)

// Past the table, a message of another node or provider is a refusal when
// it speaks of a range, or of logs or results, with words of a limit.
var (
	rangeWords = []string{"range"}
	sizeWords  = []string{"logs", "results"}
	limitWords = []string{"exceed", "limit", "too large", "too wide", "too big", "too many", "maximum", "max ", "more than"}
)

// refusal reads err as a refusal of an eth_getLogs window: what it
// refuses, and the range it suggests instead (ok false when none). The
// refusal is a JSON-RPC error object, or a 4xx answer whose body says it
// (QuickNode sends its range limit with HTTP 413).
func refusal(err error) (kind refusalKind, from, to uint64, ok bool) {
	var msg string
	var re *nodeaccess.RPCError
	var he *nodeaccess.HTTPError
	switch {
	case errors.As(err, &re):
		msg = re.Message
	case errors.As(err, &he) && he.StatusCode >= 400 && he.StatusCode < 500 && he.StatusCode != 429:
		msg = string(he.Body)
	default:
		return notRefused, 0, 0, false
	}
	msg = strings.ToLower(msg)
	for _, r := range logsRefusals {
		if strings.Contains(msg, r.text) {
			kind = r.kind
			break
		}
	}
	if kind == notRefused && containsAny(msg, limitWords) {
		switch {
		case containsAny(msg, sizeWords):
			kind = sizeRefused
		case containsAny(msg, rangeWords):
			kind = rangeRefused
		}
	}
	if kind == notRefused {
		return notRefused, 0, 0, false
	}
	if m := suggestedHex.FindStringSubmatch(msg); m != nil {
		a, errA := strconv.ParseUint(m[1][2:], 16, 64)
		b, errB := strconv.ParseUint(m[2][2:], 16, 64)
		return kind, a, b, errA == nil && errB == nil && a <= b
	}
	if m := suggestedDec.FindStringSubmatch(msg); m != nil {
		a, errA := strconv.ParseUint(m[1], 10, 64)
		b, errB := strconv.ParseUint(m[2], 10, 64)
		return kind, a, b, errA == nil && errB == nil && a <= b
	}
	return kind, 0, 0, false
}

// window is the size of the eth_getLogs windows: where it starts, how it
// shrinks on refusals and grows on small answers.
type window struct {
	size uint64
	cap  uint64 // the largest size a range refusal allows (maxWindow: none seen)
}

func newWindow() window { return window{size: firstWindow, cap: maxWindow} }

// window returns the first window of a follower of c, and its Poll when
// the query sets none: a chain whose limits the client knows (HyperEVM's)
// starts at its range limit, never grows past it, and polls at its block
// time.
func (c *Client) followStart(poll time.Duration) (window, time.Duration) {
	w := newWindow()
	if m := c.follow.maxRange; m > 0 {
		w.size, w.cap = min(w.size, m), min(w.cap, m)
	}
	if poll <= 0 {
		poll = defaultPoll
		if c.follow.poll > 0 {
			poll = c.follow.poll
		}
	}
	return w, poll
}

// refused shrinks the window after a refusal of [from, to]: to the range
// the server suggests when it starts at from and is narrower, else to
// half. It returns false when the window is one block already: nothing
// smaller can be asked.
func (w *window) refused(kind refusalKind, from, to, sFrom, sTo uint64, suggested bool) bool {
	asked := to - from + 1
	if asked <= 1 {
		return false
	}
	next := asked / 2
	if suggested && sFrom == from && sTo >= from && sTo < to {
		next = sTo - from + 1
	}
	w.size = next
	if kind == rangeRefused {
		w.cap = min(w.cap, next)
	}
	return true
}

// answered grows the window after an answer of n logs over a full window.
func (w *window) answered(n int, full bool) {
	if full && n < smallAnswer {
		w.size = min(w.size*2, w.cap)
	}
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
