package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
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
	// Own, when set, reports the JSON-RPC errors that are always one
	// call's own outcome, never the whole request's (an EVM revert). One
	// such error object answering a request without an id is given to
	// none of its calls: each fails with an ErrInvalidResponse error.
	Own func(err error) bool
}

// CallBatch sends b's calls in JSON-RPC batches of at most b.MaxSize calls,
// one HTTP request after the other, each retried as Do retries (429, 502,
// 503, 504, resets, timeouts), and matches the answers to the calls by id,
// whatever order they come in. Each request has ids of its own from the
// client's counter, so that no id repeats within a request.
//
// A request the server refuses for its size (HTTP 413, the batch limit
// errors of go-ethereum, Erigon, jsonrpsee, Besu and Nethermind, an answer
// over the server's cap or the client's) is sent again in smaller pieces:
// at the limit the error names when it names one, else half the size, down
// to one call; the smaller size holds for the rest of b. A call whose
// answer alone is too big ends with that error, and the rest of b goes on
// at the size before the halving that led to it. An answer is given to the
// call whose id it carries, and to no other; one error object answers
// every call of its request only when it has no id (and is not one that
// Own reports), or when it refuses the request's size or rate with the
// first call's id. When ctx ends, the calls not yet answered fail with its
// error.
func (c *Client) CallBatch(ctx context.Context, b *Batch) {
	n := len(b.Calls)
	for i := range b.Calls {
		if !validMethod(b.Calls[i].Method) {
			for j := range n {
				b.Fail(j, fmt.Errorf("transport: bad JSON-RPC method name %q in call %d", c.red.Text(b.Calls[i].Method), i))
			}
			return
		}
	}
	size := b.MaxSize
	if size <= 0 || size > n {
		size = n
	}
	counted := size // the size refusals of the number of calls left
	for start := 0; start < n; {
		end := min(start+size, n)
		if err := ctx.Err(); err != nil {
			for i := start; i < n; i++ {
				b.Fail(i, err)
			}
			return
		}
		limit, r := c.sendBatch(ctx, b, start, end)
		switch {
		case r == tooMany:
			if limit > 0 && b.Learn != nil {
				b.Learn(limit)
			}
			if limit > 0 && limit < end-start {
				size = limit
			} else {
				size = max(1, (end-start)/2)
			}
			counted = size
			continue
		case r == tooBig && end-start > 1:
			size = (end - start) / 2
			continue
		case r == tooBig:
			// One call too big alone, reported: the halving was its
			// doing, not the other calls'.
			size = counted
		}
		start = end
	}
}

// sendBatch sends calls [start, end) as one JSON array. Unless the server
// refused it for its size and it holds more than one call, it reports
// each call and returns notRefused, or tooBig when it was one call whose
// answer is too big. Otherwise it reports nothing and returns the refusal,
// with the server's limit in calls when its error names one (0
// otherwise).
func (c *Client) sendBatch(ctx context.Context, b *Batch, start, end int) (limit int, r refusal) {
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
	var answers []answer
	if err == nil {
		defer resp.Release()
		answers, err = c.splitBatch(ctx, &resp, first, m, b.Own)
	}
	if err != nil {
		// The whole request failed, or one error answers all of it.
		limit, r = sizeRefusal(err)
		if r != notRefused && m > 1 {
			return limit, r
		}
		for i := start; i < end; i++ {
			b.Fail(i, err)
		}
		if r == tooBig {
			return 0, tooBig
		}
		return 0, notRefused
	}
	for j, a := range answers {
		i := start + j
		switch {
		case a.err != nil:
			b.Fail(i, a.err)
			if m == 1 && errors.Is(a.err, nodeaccess.ErrResponseTooLarge) {
				r = tooBig
			}
		default:
			if err := b.Result(i, a.raw); err != nil {
				b.Fail(i, c.invalidJSON(&resp, fmt.Errorf("%s result: %w", calls[j].Method, err)))
			}
		}
	}
	return 0, r
}

// answer is one call's part of a batch response: its raw result, or its
// error.
type answer struct {
	raw  []byte
	err  error
	seen bool
	// twice: the answer named this id more than once (err says so).
	twice bool
}

// splitBatch reads a batch response for the m calls with ids first..
// first+m-1. whole is the error of a response that answers the request as
// a whole: not JSON, neither an array nor an object, or one error object
// (bare, or alone in an array) that is the request's: with no id (unless
// own reports it as one call's outcome), or, for more than one call, with
// the first call's id and a refusal of the request's size or rate (see
// requestError; geth and Erigon give their batch limit error the first
// call's id). Otherwise answers holds each call's answer, the member with
// its id and no other: a call answered twice, not answered, or answered by
// a malformed member fails with an ErrInvalidResponse error; members for
// ids that were not sent, or without an id, are ignored. A bare object is
// read as an array of one. The work is linear in the body, and a body of
// many members ends early with ctx's error once ctx is done.
func (c *Client) splitBatch(ctx context.Context, resp *Response, first uint64, m int, own func(error) bool) (answers []answer, whole error) {
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
		return nil, c.invalidJSON(resp, fmt.Errorf("batch response is not a JSON array"))
	}
	if len(members) == 1 {
		// One error for the whole request: with no id (or null), or, for
		// more than one call, with the first call's id and a refusal of
		// the request. A call's own outcome, a revert above all, is
		// never the request's: with the first call's id it is that
		// call's answer, below, and with no id it answers no call.
		if env, err := parseEnvelope(members[0]); err == nil && env.errObj != nil && !isNull(env.errObj) {
			if noID := env.id == nil || isNull(env.id); noID || m > 1 && idMatches(env.id, first) {
				e := c.rpcError(resp, env.errObj)
				switch {
				case own != nil && own(e) && noID:
					answers = make([]answer, m)
					for j := range answers {
						answers[j].err = c.invalidJSON(resp, fmt.Errorf("batch response has no answer to id %d, only one call's error with no id (%v)", first+uint64(j), e))
					}
					return answers, nil
				case own != nil && own(e):
				case noID || requestError(e):
					return nil, e
				}
			}
		}
	}
	answers = make([]answer, m)
	for k, mem := range members {
		if k%1024 == 1023 {
			// The members' count is the server's: an answer of millions
			// gives the caller's deadline its say.
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
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
			if !a.twice {
				// Once per id, however often it repeats: the work stays
				// linear in the answer.
				a.twice = true
				a.raw, a.err = nil, c.invalidJSON(resp, fmt.Errorf("batch response answers id %d twice", id))
			}
			continue
		}
		a.seen = true
		hasErr := env.errObj != nil && !isNull(env.errObj)
		switch {
		case string(env.version) != `"2.0"`:
			a.err = c.invalidJSON(resp, fmt.Errorf("jsonrpc member of the answer to id %d is %s, want \"2.0\"", id, c.orAbsent(env.version)))
		case hasErr:
			a.err = c.rpcError(resp, env.errObj)
		case env.result == nil:
			a.err = c.invalidJSON(resp, fmt.Errorf("answer to id %d has neither result nor error", id))
		default:
			a.raw = env.result
		}
	}
	for j := range answers {
		if !answers[j].seen {
			answers[j].err = c.invalidJSON(resp, fmt.Errorf("batch response has no answer to id %d", first+uint64(j)))
		}
	}
	return answers, nil
}
