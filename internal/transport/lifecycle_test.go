package transport

import (
	"context"
	"io"
	"net/http"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests in this file count goroutines and look at the heap of the whole
// process, so they do not run in parallel with the rest of the package
// (top-level tests without t.Parallel run before the parallel ones start).

// marker is a value each per-call caller context holds: it is unreachable
// once the context is. It is 32 bytes, not one int: the runtime packs
// objects under 16 bytes without pointers into shared 16-byte blocks, and a
// weak pointer to one stays valid while anything else in its block lives
// (with Go 1.25, half the markers of a run stayed "reachable" that way).
type marker struct {
	n int
	_ [24]byte
}

type markerKey struct{}

// callerKind is one kind of context a caller passes to a call.
type callerKind struct {
	name string
	// make returns the context of one call, holding m when the kind makes
	// a context per call (m is then non-nil), and what the caller does
	// after the call (nil for nothing). timeout is the client's per-attempt
	// timeout.
	make func(m *marker, timeout time.Duration) (context.Context, func())
	// perCall: make builds a new context for every call.
	perCall bool
}

// ownDoneCtx is a context type with its own Done channel and no AfterFunc
// method, as fasthttp's *RequestCtx is: the context package can only watch
// it with a goroutine.
type ownDoneCtx struct {
	done chan struct{}
	m    *marker
}

func (c *ownDoneCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *ownDoneCtx) Done() <-chan struct{}       { return c.done }
func (c *ownDoneCtx) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}
func (c *ownDoneCtx) Value(key any) any {
	if key == (markerKey{}) {
		return c.m
	}
	return nil
}

func withMarker(m *marker) context.Context {
	return context.WithValue(context.Background(), markerKey{}, m)
}

// callerKinds covers the kinds of context a caller may pass: long-lived
// ones shared by all calls, and one per call of every shape the context
// package and other libraries make.
func callerKinds() []callerKind {
	cancelable, stop := context.WithCancel(context.Background())
	_ = stop // lives as long as the test binary, as a worker's context does
	return []callerKind{
		{name: "Background", make: func(*marker, time.Duration) (context.Context, func()) {
			return context.Background(), nil
		}},
		{name: "one WithCancel for all calls", make: func(*marker, time.Duration) (context.Context, func()) {
			return cancelable, nil
		}},
		{name: "WithCancel per call", perCall: true, make: func(m *marker, _ time.Duration) (context.Context, func()) {
			ctx, cancel := context.WithCancel(withMarker(m))
			return ctx, cancel
		}},
		{name: "WithValue per call", perCall: true, make: func(m *marker, _ time.Duration) (context.Context, func()) {
			return withMarker(m), nil
		}},
		{name: "WithoutCancel per call", perCall: true, make: func(m *marker, _ time.Duration) (context.Context, func()) {
			ctx, cancel := context.WithCancel(withMarker(m))
			return context.WithoutCancel(ctx), cancel
		}},
		{name: "own Done channel per call", perCall: true, make: func(m *marker, _ time.Duration) (context.Context, func()) {
			return &ownDoneCtx{done: make(chan struct{}), m: m}, nil
		}},
		{name: "non-comparable per call", perCall: true, make: func(m *marker, _ time.Duration) (context.Context, func()) {
			return nonComparableCtx{Context: withMarker(m), tags: []string{"x"}}, nil
		}},
		{name: "later deadline per call", perCall: true, make: func(m *marker, timeout time.Duration) (context.Context, func()) {
			return context.WithTimeout(withMarker(m), 100*timeout)
		}},
		{name: "earlier deadline per call", perCall: true, make: func(m *marker, timeout time.Duration) (context.Context, func()) {
			return context.WithTimeout(withMarker(m), timeout/2)
		}},
	}
}

// ctxRecorder is a RoundTripper that records the context of every request
// it passes on.
type ctxRecorder struct {
	rt   http.RoundTripper
	mu   sync.Mutex
	ctxs []context.Context
}

func (r *ctxRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.ctxs = append(r.ctxs, req.Context())
	r.mu.Unlock()
	return r.rt.RoundTrip(req)
}

// take returns the recorded contexts and forgets them.
func (r *ctxRecorder) take() []context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.ctxs
	r.ctxs = nil
	return got
}

// lifecycleOp is an operation run under every caller kind.
type lifecycleOp struct {
	name    string
	calls   int
	timeout time.Duration
	opts    []nodeaccess.Option
	handler func(w http.ResponseWriter, r *http.Request, n int)
	// run makes one call; rec holds the contexts of its attempts while it
	// runs. It returns the call's error.
	run func(ctx context.Context, t *testing.T, c *Client, rec *ctxRecorder) error
	// attempts is the number of attempts each call makes.
	attempts int
	// wantErr: the call fails (by design of the operation).
	wantErr bool
	// httpClient: requests go through the user's *http.Client.
	httpClient bool
}

// streamSize is the body of the streamed operation: large enough that the
// decoder reads it in many pieces, well after the headers arrived.
const streamSize = 2 << 20

func lifecycleOps() []lifecycleOp {
	rpc := func(ctx context.Context, t *testing.T, c *Client, _ *ctxRecorder) error {
		res, err := call(ctx, t, c)
		if err == nil {
			assert.Equal(t, `"0x1"`, string(res.Raw))
			res.Release()
		}
		return err
	}
	return []lifecycleOp{
		{
			name: "JSON-RPC call", calls: 300, timeout: time.Minute, attempts: 1,
			handler: func(w http.ResponseWriter, r *http.Request, _ int) { rpcOK(w, r, `"0x1"`) },
			run:     rpc,
		},
		{
			name: "JSON-RPC call through an *http.Client", calls: 100, timeout: time.Minute, attempts: 1,
			httpClient: true,
			handler:    func(w http.ResponseWriter, r *http.Request, _ int) { rpcOK(w, r, `"0x1"`) },
			run:        rpc,
		},
		{
			// Every call's first attempt gets a 503 and is retried.
			name: "retried JSON-RPC call", calls: 100, timeout: time.Minute, attempts: 2,
			opts: []nodeaccess.Option{fast},
			handler: func(w http.ResponseWriter, r *http.Request, n int) {
				if n%2 == 1 {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				rpcOK(w, r, `"0x1"`)
			},
			run: rpc,
		},
		{
			// The body is read by the decoder after Stream got the headers:
			// the attempt's context must live until the body is read.
			name: "streamed body", calls: 10, timeout: time.Minute, attempts: 1,
			handler: func(w http.ResponseWriter, r *http.Request, _ int) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Header().Set("Content-Length", strconv.Itoa(streamSize))
				chunk := make([]byte, 64<<10)
				for range streamSize / len(chunk) {
					if _, err := w.Write(chunk); err != nil {
						return
					}
					_ = http.NewResponseController(w).Flush()
				}
			},
			run: func(ctx context.Context, t *testing.T, c *Client, rec *ctxRecorder) error {
				var n int64
				return c.Stream(ctx, &Request{Target: streamTarget(t, c), Accept: streamAccept}, func(r *Response) error {
					buf := make([]byte, 32<<10)
					for {
						k, err := r.Stream.Read(buf)
						n += int64(k)
						if err == io.EOF {
							break
						}
						if err != nil {
							return err
						}
					}
					assert.Equal(t, int64(streamSize), n)
					rec.mu.Lock()
					defer rec.mu.Unlock()
					for _, actx := range rec.ctxs {
						assert.NoError(t, actx.Err(), "the attempt's context ended before its body was read")
					}
					return nil
				})
			},
		},
		{
			// The server never answers: each attempt ends by its timeout.
			name: "timed-out attempt", calls: 4, timeout: 40 * time.Millisecond, attempts: 1,
			opts:    []nodeaccess.Option{nodeaccess.WithMaxAttempts(1)},
			wantErr: true,
			handler: func(w http.ResponseWriter, r *http.Request, _ int) {
				_, _ = io.Copy(io.Discard, r.Body)
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			},
			run: rpc,
		},
	}
}

// TestCallsLeaveNothingBehind: after a call returns, no goroutine and no
// memory it created remains (apart from idle connections, closed here, and
// pooled buffers), and the context each attempt ran under has ended, for
// every kind of caller context and for calls that succeed (through the
// SDK's transport or the user's *http.Client), are retried, stream their
// body, or time out.
func TestCallsLeaveNothingBehind(t *testing.T) {
	for _, op := range lifecycleOps() {
		t.Run(op.name, func(t *testing.T) {
			srv, _ := serve(t, op.handler)
			tr := DefaultTransport()
			t.Cleanup(tr.CloseIdleConnections)
			rec := &ctxRecorder{rt: tr}
			opts := append([]nodeaccess.Option{nodeaccess.WithRoundTripper(rec), nodeaccess.WithTimeout(op.timeout)}, op.opts...)
			if op.httpClient {
				opts[0] = nodeaccess.WithHTTPClient(&http.Client{Transport: rec})
			}
			c := newClient(t, srv.URL, testKey, opts...)
			for _, kind := range callerKinds() {
				t.Run(kind.name, func(t *testing.T) {
					base := settledGoroutines(tr, 0)
					var refs []weak.Pointer[marker]
					live, liveType := 0, ""
					for i := range op.calls {
						var m *marker
						if kind.perCall {
							m = &marker{n: i}
							refs = append(refs, weak.Make(m))
						}
						ctx, after := kind.make(m, op.timeout)
						err := op.run(ctx, t, c, rec)
						if op.wantErr {
							require.Error(t, err)
						} else {
							require.NoError(t, err, "call %d", i)
						}
						ctxs := rec.take()
						require.Len(t, ctxs, op.attempts, "call %d", i)
						for _, actx := range ctxs {
							if !ended(actx, ctx) {
								live, liveType = live+1, reflect.TypeOf(actx).String()
							}
						}
						if after != nil {
							after()
						}
					}
					assert.Zero(t, live, "attempt contexts (%s) still live after their calls returned", liveType)
					if n := settledGoroutines(tr, base); n > base {
						buf := make([]byte, 1<<20)
						t.Errorf("%d goroutines before the calls, %d after:\n%s", base, n, buf[:runtime.Stack(buf, true)])
					}
					left := 0
					for range 10 {
						runtime.GC()
						left = 0
						for _, r := range refs {
							if r.Value() != nil {
								left++
							}
						}
						if left == 0 {
							break
						}
						time.Sleep(10 * time.Millisecond)
					}
					assert.Zero(t, left, "caller contexts still reachable after %d calls returned", op.calls)
				})
			}
		})
	}
}

// ended reports whether an attempt's context has ended once its call
// returned, or is the caller's own context (which the caller ends).
func ended(actx, caller context.Context) bool {
	if reflect.TypeOf(actx) == reflect.TypeOf(caller) && reflect.TypeOf(actx).Comparable() && actx == caller {
		return true
	}
	return actx.Err() != nil
}

// settledGoroutines closes tr's idle connections and waits, up to a few
// seconds, for the number of goroutines to fall to want or below (0: for
// it to stop falling), and returns it.
func settledGoroutines(tr *http.Transport, want int) int {
	tr.CloseIdleConnections()
	n, stable := runtime.NumGoroutine(), 0
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		m := runtime.NumGoroutine()
		switch {
		case want > 0 && m <= want:
			return m
		case want == 0 && m == n:
			if stable++; stable == 10 {
				return m
			}
		default:
			stable = 0
		}
		n = m
	}
	return n
}
