package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess"
)

// BatchCall is one call of a JSON-RPC batch.
type BatchCall struct {
	// Method is the JSON-RPC method name (letters, digits, '_' and '.').
	Method string
	// Params is the JSON encoding of the params; nil sends no params member.
	Params []byte
	// Units is the call's cost in request units (at least 1).
	Units int
}

// Batch is many JSON-RPC 2.0 calls sent as JSON arrays, MaxSize calls per
// HTTP request at most. CallBatch reports each call exactly once: through
// Result with its raw result, or through Fail with its error.
type Batch struct {
	// Op names the batch for hooks and logs ("batch").
	Op string
	// Target is the endpoint URL.
	Target Target
	// Calls are the calls, in the order they are sent.
	Calls []BatchCall
	// Timeout is each HTTP attempt's default timeout (see Request.Timeout).
	Timeout time.Duration
	// MaxSize is the most calls one HTTP request carries; 0 or less: all.
	MaxSize int
	// Result receives call i's raw result (possibly null), which points
	// into a pooled buffer: decode it before returning. Its error fails
	// call i with an ErrInvalidResponse error.
	Result func(i int, raw []byte) error
	// Learn, when set, receives the number of calls a server's refusal
	// names as its limit (Erigon's "batch limit 100", jsonrpsee's "max
	// limit of 20"), for the next batches.
	Learn func(limit int)
	// Fail receives call i's error: its JSON-RPC error object as a
	// *nodeaccess.RPCError, an ErrInvalidResponse error for a bad or
	// missing answer, or the whole request's error (an *HTTPError, an
	// ErrUnavailable error, the context's error).
	Fail func(i int, err error)
}

// CallBatch sends b's calls in JSON-RPC batches of at most b.MaxSize calls,
// one HTTP request after the other, each retried as Do retries (429, 502,
// 503, 504, resets, timeouts), and matches the answers to the calls by id,
// whatever order they come in. Each request has ids of its own from the
// client's counter, so that no id repeats within a request.
//
// A request the server refuses as too large (HTTP 413, or one error object
// that says so: geth's and Erigon's -32600, jsonrpsee's -32010 and -32011,
// Besu's and Nethermind's -32005 naming the batch) is sent again in smaller
// pieces: at the limit the error names when it names one, else half the
// size, down to one call; the smaller size holds for the rest of b. A
// request answered with one error object of another kind gives every one
// of its calls that error. When ctx ends, the calls not yet answered fail
// with its error.
func (c *Client) CallBatch(ctx context.Context, b *Batch) {
	n := len(b.Calls)
	for i := range b.Calls {
		if !validMethod(b.Calls[i].Method) {
			for j := range n {
				b.Fail(j, fmt.Errorf("transport: bad JSON-RPC method name %q in call %d", b.Calls[i].Method, i))
			}
			return
		}
	}
	size := b.MaxSize
	if size <= 0 || size > n {
		size = n
	}
	for start := 0; start < n; {
		end := min(start+size, n)
		if err := ctx.Err(); err != nil {
			for i := start; i < n; i++ {
				b.Fail(i, err)
			}
			return
		}
		limit, tooLarge := c.sendBatch(ctx, b, start, end)
		if tooLarge {
			if limit > 0 && b.Learn != nil {
				b.Learn(limit)
			}
			if limit > 0 && limit < end-start {
				size = limit
			} else {
				size = max(1, (end-start)/2)
			}
			continue
		}
		start = end
	}
}

// sendBatch sends calls [start, end) as one JSON array and reports each of
// them, unless the server refused the request as too large and it holds
// more than one call: then it reports nothing and returns tooLarge, with
// the server's limit when its error names one (0 otherwise).
func (c *Client) sendBatch(ctx context.Context, b *Batch, start, end int) (limit int, tooLarge bool) {
	m := end - start
	first := c.ids.Add(uint64(m)) - uint64(m) + 1
	calls := b.Calls[start:end]
	units := 0
	info := make([]nodeaccess.BatchCall, m)
	bp := getBuf()
	defer putBuf(bp)
	body := append((*bp)[:0], '[')
	for j, call := range calls {
		if j > 0 {
			body = append(body, ',')
		}
		body = appendRequest(body, first+uint64(j), call.Method, call.Params)
		u := max(call.Units, 1)
		units += u
		info[j] = nodeaccess.BatchCall{Op: call.Method, Units: u}
	}
	body = append(body, ']')
	*bp = body
	op := b.Op
	if op == "" {
		op = "batch"
	}
	req := Request{Op: op, Method: http.MethodPost, Target: b.Target, Body: body, Timeout: b.Timeout, Units: units, Batch: info}
	resp, err := c.Do(ctx, &req)
	failAll := func(err error) {
		for i := start; i < end; i++ {
			b.Fail(i, err)
		}
	}
	if err != nil {
		if l, big := httpTooLarge(err); big && m > 1 {
			return l, true
		}
		failAll(err)
		return 0, false
	}
	defer resp.Release()
	answers, whole := c.splitBatch(&resp, first, m)
	if whole != nil {
		if l, big := batchTooLarge(whole); big && m > 1 {
			return l, true
		}
		failAll(whole)
		return 0, false
	}
	for j, a := range answers {
		i := start + j
		switch {
		case a.err != nil:
			b.Fail(i, a.err)
		default:
			if err := b.Result(i, a.raw); err != nil {
				b.Fail(i, c.InvalidBody(&resp, fmt.Errorf("%s result: %w", calls[j].Method, err)))
			}
		}
	}
	return 0, false
}

// answer is one call's part of a batch response: its raw result, or its
// error.
type answer struct {
	raw  []byte
	err  error
	seen bool
}

// splitBatch reads a batch response for the m calls with ids first..
// first+m-1. whole is the error of a response that answers the request as
// a whole: not JSON, neither an array nor an object, one error object
// (bare, or alone in an array) with no id, or for more than one call with
// the first call's id (geth and Erigon give their batch limit error the
// first call's id). Otherwise answers holds each call's answer: a call
// answered twice, not answered, or answered by a malformed member fails
// with an ErrInvalidResponse error; members for ids that were not sent are
// ignored. A bare object is read as an array of one.
func (c *Client) splitBatch(resp *Response, first uint64, m int) (answers []answer, whole error) {
	body := resp.Body
	if !json.Valid(body) {
		return nil, c.InvalidBody(resp, fmt.Errorf("batch response is not JSON"))
	}
	var members [][]byte
	i := skipWS(body, 0)
	switch body[i] {
	case '{':
		// One object where an array belongs: read as an array of one, as
		// servers that unwrap a batch of one answer it.
		members = [][]byte{body[i:skipValue(body, i)]}
	case '[':
		for i = skipWS(body, i+1); i < len(body) && body[i] != ']'; {
			end := skipValue(body, i)
			members = append(members, body[i:end])
			i = skipWS(body, end)
			if i < len(body) && body[i] == ',' {
				i = skipWS(body, i+1)
			}
		}
	default:
		return nil, c.InvalidBody(resp, fmt.Errorf("batch response is not a JSON array"))
	}
	if len(members) == 1 {
		// One error for the whole request: with no id (or null), or, for
		// more than one call, with the first call's id.
		if env, err := parseEnvelope(members[0]); err == nil && env.errObj != nil && !isNull(env.errObj) &&
			(env.id == nil || isNull(env.id) || m > 1 && idMatches(env.id, first)) {
			return nil, c.rpcError(resp, env.errObj)
		}
	}
	answers = make([]answer, m)
	for _, mem := range members {
		env, err := parseEnvelope(mem)
		if err != nil {
			continue // not an object: it answers no call we can name
		}
		id, err := strconv.ParseUint(string(env.id), 10, 64)
		if err != nil || id < first || id-first >= uint64(m) {
			continue // an id that was not sent, or null
		}
		a := &answers[id-first]
		if a.seen {
			a.raw, a.err = nil, c.InvalidBody(resp, fmt.Errorf("batch response answers id %d twice", id))
			continue
		}
		a.seen = true
		hasErr := env.errObj != nil && !isNull(env.errObj)
		switch {
		case string(env.version) != `"2.0"`:
			a.err = c.InvalidBody(resp, fmt.Errorf("jsonrpc member of the answer to id %d is %s, want \"2.0\"", id, c.orAbsent(env.version)))
		case hasErr:
			a.err = c.rpcError(resp, env.errObj)
		case env.result == nil:
			a.err = c.InvalidBody(resp, fmt.Errorf("answer to id %d has neither result nor error", id))
		default:
			a.raw = env.result
		}
	}
	for j := range answers {
		if !answers[j].seen {
			answers[j].err = c.InvalidBody(resp, fmt.Errorf("batch response has no answer to id %d", first+uint64(j)))
		}
	}
	return answers, nil
}

// batchLimit finds the limit a server's batch error names: Erigon's "batch
// limit 100 exceeded", jsonrpsee's "Exceeded max limit of 20".
var batchLimit = regexp.MustCompile(`(?i)(?:batch limit|max limit of|max batch size(?: of)?) (\d+)`)

// batchTooLarge reports whether err is a JSON-RPC error that refuses a
// batch for its size, and the limit it names (0 for none):
//
//   - geth: -32600 "batch too large";
//   - Erigon: -32600 (older: -32000) "batch limit 100 exceeded (can
//     increase by --rpc.batch.limit). Requested batch of size: 101";
//   - jsonrpsee (reth, Hyperliquid's EVM RPC): -32010 "The batch request was
//     too large" and -32011 "The batch response was too large";
//   - Nethermind: -32005 "Batch size limit exceeded"; Besu: -32005
//     "Number of requests exceeds max batch size".
//
// -32005 is also a rate limit's code, so it counts only when the message
// names the batch.
func batchTooLarge(err error) (limit int, tooLarge bool) {
	var re *nodeaccess.RPCError
	if !errors.As(err, &re) {
		return 0, false
	}
	msg := strings.ToLower(re.Message)
	data, _ := re.Data.(string)
	switch {
	case re.Code == -32011:
		// jsonrpsee's answer too large: its limit is in bytes, not calls.
		return 0, true
	case re.Code == -32010:
	case (re.Code == -32600 || re.Code == -32000 || re.Code == -32005) && strings.Contains(msg, "batch") &&
		(strings.Contains(msg, "too large") || strings.Contains(msg, "exceed")):
	default:
		return 0, false
	}
	for _, s := range []string{re.Message, data} {
		if sm := batchLimit.FindStringSubmatch(s); sm != nil {
			if l, err := strconv.Atoi(sm[1]); err == nil && l > 0 {
				return l, true
			}
		}
	}
	return 0, true
}

// httpTooLarge reports whether err is an HTTP 413 (geth answers one to a
// body over 5 MB, proxies to theirs), or an HTTP error whose JSON body is
// a batch-too-large error object (Nethermind sends its -32005 with a 503).
func httpTooLarge(err error) (limit int, tooLarge bool) {
	var he *nodeaccess.HTTPError
	if !errors.As(err, &he) {
		return 0, false
	}
	is413 := he.StatusCode == http.StatusRequestEntityTooLarge
	env, perr := parseEnvelope([]byte(he.Body))
	if perr != nil || env.errObj == nil {
		return 0, is413
	}
	var obj struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data"`
	}
	if json.Unmarshal(env.errObj, &obj) != nil {
		return 0, is413
	}
	limit, tooLarge = batchTooLarge(&nodeaccess.RPCError{Code: obj.Code, Message: obj.Message, Data: obj.Data})
	return limit, tooLarge || is413
}
