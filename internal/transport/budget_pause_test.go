package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// absurdRetryAfters are Retry-After values far beyond any client's cap, in
// every spelling a server may send: delay-seconds that fit int64, a number
// too large for it, a signed one, and HTTP dates in the year 9999 in the
// three formats RFC 9110 allows.
var absurdRetryAfters = []string{
	"99999999999",
	"12345678901234567890123456",
	"+99999999999",
	"Fri, 31 Dec 9999 23:59:59 GMT",
	"Fri Dec 31 23:59:59 9999", // asctime
}

// noPauseRetryAfters ask for no wait: zero, negative, dates in the past
// (an RFC 850 date's two-digit year 99 is 1999), and a value that is not a
// Retry-After at all.
var noPauseRetryAfters = []string{"0", "-5", "Thu, 01 Jan 1970 00:00:00 GMT", "Friday, 31-Dec-99 23:59:59 GMT", "soon"}

// throttler answers every request 429 with the Retry-After ra.
func throttler(t *testing.T, ra string) (string, func() int) {
	srv, n := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Retry-After", ra)
		w.WriteHeader(http.StatusTooManyRequests)
	})
	return srv.URL, n.Get
}

// okServer answers every JSON-RPC call with "0x1" (every call of a batch
// too) and every GET with a small body.
func okServer(t *testing.T) (string, func() int) {
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.Method == http.MethodGet {
			_, _ = w.Write([]byte("ok"))
			return
		}
		rpcAnswer(w, r)
	})
	return srv.URL, n.Get
}

// rpcAnswer answers a JSON-RPC call, or each call of a batch, with "0x1",
// and returns the number of calls.
func rpcAnswer(w http.ResponseWriter, r *http.Request) int {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	var reqs []struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &reqs) != nil {
		var one struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &one)
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"0x1"}`, one.ID)
		return 1
	}
	out := []byte("[")
	for i, q := range reqs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"jsonrpc":"2.0","id":`...)
		out = append(out, q.ID...)
		out = append(out, `,"result":"0x1"}`...)
	}
	_, _ = w.Write(append(out, ']'))
	return len(reqs)
}

// ways are the ways a client sends a request, each of which charges the
// budget before it is sent and reports a 429 to it: a single call, a
// JSON-RPC batch and a streamed GET (the beacon state's way).
var ways = map[string]func(ctx context.Context, t *testing.T, c *Client) error{
	"call": func(ctx context.Context, t *testing.T, c *Client) error {
		res, err := call(ctx, t, c)
		res.Release()
		return err
	},
	"batch": func(ctx context.Context, t *testing.T, c *Client) error {
		var errs []error
		c.CallBatch(ctx, &Batch{Op: "batch", Target: rpcTarget(t, c),
			Calls:  []BatchCall{{Method: "eth_chainId", Units: 1}, {Method: "eth_chainId", Units: 1}},
			Result: func(int, []byte) error { return nil },
			Fail:   func(_ int, err error) { errs = append(errs, err) }})
		return errors.Join(errs...)
	},
	"stream": func(ctx context.Context, t *testing.T, c *Client) error {
		tg, err := c.Target("{key}/state")
		require.NoError(t, err)
		return c.Stream(ctx, &Request{Op: "state", Target: tg}, func(*Response) error { return nil })
	},
}

// soon is a context that ends in 3 s: every wait in these tests has one,
// so that a budget that holds a call for the server's years fails the
// test instead of hanging it.
func soon(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestBudgetPauseCappedByReporter: a 429 whose Retry-After is beyond the
// client's WithMaxRetryAfter ends that call at once, and the budget it
// shares with another client (of another chain) pauses for the reporting
// client's cap at most, not for the value the server sent: the other
// client's next call goes out once the cap has passed. Every spelling of an
// absurd Retry-After, every way of sending (call, batch, stream), and a
// limiter of the user's own is told the capped value. A Retry-After that
// asks for no wait pauses nothing.
func TestBudgetPauseCappedByReporter(t *testing.T) {
	// A cap of a second: "at once" (under half a second, however slow a
	// loaded machine is to answer a 429 over loopback) and "after the
	// cap" are far apart. The other client's own cap is longer, so that it
	// waits the pause out.
	const capA, capOther = time.Second, 5 * time.Second
	for _, ra := range append(absurdRetryAfters, noPauseRetryAfters...) {
		pause := capA
		if parseRetryAfter(ra, time.Now()) <= 0 {
			pause = 0
		}
		for way, send := range ways {
			t.Run(way+" "+ra, func(t *testing.T) {
				t.Parallel() // each on a budget and servers of its own
				b, err := nodeaccess.NewBudget(1000, 10)
				require.NoError(t, err)
				own := &countingLimiter{}
				urlA, sentA := throttler(t, ra)
				a, err := New(Settings{Chain: "evm", BaseURL: urlA, Key: testKey, Options: funcs(
					nodeaccess.WithBudget(b), nodeaccess.WithMaxRetryAfter(capA), fast)})
				require.NoError(t, err)
				a2 := newClient(t, urlA, testKey, nodeaccess.WithBudget(own), nodeaccess.WithMaxRetryAfter(capA), fast)
				urlB, sentB := okServer(t)
				other, err := New(Settings{Chain: "ton", BaseURL: urlB, Key: testKey, Options: funcs(
					nodeaccess.WithBudget(b), nodeaccess.WithMaxRetryAfter(capOther))})
				require.NoError(t, err)

				start := time.Now() // before the 429: its pause ends pause after this at the earliest
				err = send(soon(t), t, a)
				require.ErrorIs(t, err, nodeaccess.ErrRateLimited)
				nA := sentA()
				if pause > 0 {
					// Beyond the cap: the call ends at once, after one attempt.
					assert.Equal(t, 1, nA)
					within(t, time.Since(start), capA/2, "the call answered "+ra)
				}
				require.ErrorIs(t, send(soon(t), t, a2), nodeaccess.ErrRateLimited)
				own.mu.Lock()
				for _, d := range own.throttled {
					assert.LessOrEqual(t, d, capA, "the limiter was told of a pause beyond the client's cap")
				}
				own.mu.Unlock()

				// The other client goes once the capped pause is over, within
				// a deadline far shorter than what the server asked for: at
				// or after the pause's end, and no later than its own round
				// trip after it (timed from the call, after the 429: what is
				// left of the pause then is pause at most).
				ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
				called := time.Now()
				err = send(ctx, t, other)
				cancel()
				require.NoError(t, err, "the other client's call")
				assert.Equal(t, 1, sentB())
				within(t, time.Since(called), pause+capA/2, "the other client's call")
				if pause > 0 {
					assert.GreaterOrEqual(t, time.Since(start), pause, "the pause did not hold")
				}
				assert.Equal(t, int64(nA), b.Stats().Throttled, "every 429 is reported")
			})
		}
	}
}

// TestBudgetPauseEachClientItsOwnCap: clients with different
// WithMaxRetryAfter share a budget. A pause one of them set holds each
// other client for no longer than its own cap: while more of the pause is
// left than a client waits for a Retry-After, its calls end at once with an
// error that matches ErrRateLimited and send nothing (as if it had been
// answered 429 itself); a client whose cap covers the rest waits it out and
// goes; a client with a cap of 0 never waits for one. Budget.Wait called
// directly (no client) waits the pause out.
func TestBudgetPauseEachClientItsOwnCap(t *testing.T) {
	// Caps far apart: a call refused "at once" (under 400 ms, however slow
	// a loaded machine is) did not wait for its client's cap of a second
	// first, and the pause of 2.5 s leaves more than that cap for a good
	// while after the 429.
	const capLong, capShort = 2500 * time.Millisecond, time.Second
	type clients struct {
		b                           *nodeaccess.Budget
		long, short, never, patient *Client
		sentB                       func() int
	}
	// setup makes a budget of its own and clients that share it: long
	// (whose server answers 429 with a Retry-After of decades), and short,
	// never and patient (whose server answers).
	setup := func(t *testing.T) clients {
		b, err := nodeaccess.NewBudget(1000, 10)
		require.NoError(t, err)
		urlA, _ := throttler(t, "99999999999")
		urlB, sentB := okServer(t)
		return clients{b: b, sentB: sentB,
			long:    newClient(t, urlA, testKey, nodeaccess.WithBudget(b), nodeaccess.WithMaxRetryAfter(capLong)),
			short:   newClient(t, urlB, testKey, nodeaccess.WithBudget(b), nodeaccess.WithMaxRetryAfter(capShort)),
			never:   newClient(t, urlB, testKey, nodeaccess.WithBudget(b), nodeaccess.WithMaxRetryAfter(0)),
			patient: newClient(t, urlB, testKey, nodeaccess.WithBudget(b), nodeaccess.WithMaxRetryAfter(time.Minute)),
		}
	}

	t.Run("more left than the cap", func(t *testing.T) {
		t.Parallel() // each case on a budget and servers of its own
		c := setup(t)
		thrown := time.Now() // before the 429: its pause ends capLong after this at the earliest
		_, err := call(soon(t), t, c.long)
		require.ErrorIs(t, err, nodeaccess.ErrRateLimited)

		for name, cl := range map[string]*Client{"short": c.short, "zero": c.never} {
			for way, send := range ways {
				start := time.Now()
				err := send(soon(t), t, cl)
				require.ErrorIs(t, err, nodeaccess.ErrRateLimited, "%s %s", name, way)
				require.NotErrorIs(t, err, context.DeadlineExceeded)
				var he *nodeaccess.HTTPError
				assert.False(t, errors.As(err, &he), "%s %s: no response was received", name, way)
				assert.Contains(t, err.Error(), "WithMaxRetryAfter")
				testkit.AssertErrNoKey(t, testKey, err)
				within(t, time.Since(start), 400*time.Millisecond, name+" "+way+" refused")
			}
		}
		require.Equal(t, 0, c.sentB(), "a client sent while a pause longer than its cap held")

		// A deadline the pause outlasts still ends the call at once (not
		// at the deadline).
		ctx, cancel := context.WithTimeout(soon(t), 800*time.Millisecond)
		start := time.Now()
		_, err = call(ctx, t, c.patient)
		cancel()
		require.ErrorIs(t, err, context.DeadlineExceeded)
		within(t, time.Since(start), 400*time.Millisecond, "a deadline before the pause's end")

		// A patient client waits it out.
		res, err := call(soon(t), t, c.patient)
		require.NoError(t, err)
		res.Release()
		assert.GreaterOrEqual(t, time.Since(thrown), capLong, "the patient client went during the pause")
		assert.Equal(t, 1, c.sentB())
	})

	t.Run("the rest within the cap", func(t *testing.T) {
		t.Parallel()
		c := setup(t)
		before := time.Now() // before the 429: its pause ends capLong after this at the earliest
		_, err := call(soon(t), t, c.long)
		require.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		after := time.Now() // after the 429: its pause ends capLong after this at the latest
		// Once what is left of the pause is within the short client's cap
		// (by 100 ms at least), it waits.
		time.Sleep(capLong - capShort + 100*time.Millisecond)
		res, err := call(soon(t), t, c.short)
		require.NoError(t, err)
		res.Release()
		assert.GreaterOrEqual(t, time.Since(before), capLong, "the short client went during the pause")
		within(t, time.Since(after), capLong+capShort/2, "the short client after the pause")
	})

	t.Run("Budget.Wait", func(t *testing.T) {
		t.Parallel()
		c := setup(t)
		thrown := time.Now() // before the 429: its pause ends capLong after this at the earliest
		_, err := call(soon(t), t, c.long)
		require.ErrorIs(t, err, nodeaccess.ErrRateLimited)
		require.NoError(t, c.b.Wait(soon(t), 1))
		assert.GreaterOrEqual(t, time.Since(thrown), capLong, "Wait went during the pause")
	})
}
