package beacon_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// noEvents answers the event stream with a 404, as a node (or a gateway)
// that does not serve it; the rest goes to the server.
type noEvents struct{}

func (noEvents) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/eth/v1/events") {
		return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"code":404,"message":"Not Found"}`)), Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

// eventsRequests counts the server's requests for the event stream.
func eventsRequests(srv *beacontest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/eth/v1/events") {
			n++
		}
	}
	return n
}

// listening waits until the follower has opened the event stream.
func listening(t *testing.T, srv *beacontest.Server, n int) {
	t.Helper()
	require.Eventually(t, func() bool { return eventsRequests(srv) >= n }, 10*time.Second, time.Millisecond, "the follower opens the event stream")
	time.Sleep(100 * time.Millisecond) // the server has it subscribed
}

// TestFollowEvents: where the node serves the event stream
// (/eth/v1/events), Follow listens to it at the head and asks for the
// new block when the event comes, not at its next poll: with a Poll of an
// hour each new block comes at once, for one request (headers/head); a
// reorganisation's event brings the removals and the new branch, and at
// Finalized the finalized_checkpoint event brings the newly finalized
// blocks.
func TestFollowEvents(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(10))
	c := followClient(t, srv)
	ch := startFollow(t, c, beacon.FollowQuery{Poll: time.Hour})
	take(t, ch, 1) // the head
	listening(t, srv, 1)
	for range 5 {
		before := srv.RequestCount()
		require.NoError(t, srv.Advance(1))
		got := take(t, ch, 1)
		require.NoError(t, got[0].err)
		require.False(t, got[0].h.Removed)
		require.Equal(t, 1, srv.RequestCount()-before, "one request a block: the head the event announced")
	}
	require.NoError(t, srv.Reorg(2))
	got := heads(t, take(t, ch, 4))
	require.True(t, got[0].Removed && got[1].Removed && !got[2].Removed && !got[3].Removed, "%+v", got)
	require.Equal(t, 1, eventsRequests(srv), "one connection to the stream")

	fin := startFollow(t, followClient(t, srv), beacon.FollowQuery{Finality: beacon.Finalized, Poll: time.Hour})
	require.NoError(t, srv.Finalize(0))
	first := heads(t, take(t, fin, 1))[0]
	listening(t, srv, 2)
	require.NoError(t, srv.Advance(40))
	require.NoError(t, srv.Finalize(1))
	next := heads(t, take(t, fin, 1))[0]
	require.Greater(t, next.Header.Slot, first.Header.Slot, "the finalized_checkpoint event brought the newly finalized blocks")
}

// TestFollowWithoutEvents: a node that does not serve the event stream (a
// 404) is asked for it once; Follow polls, and yields every block.
func TestFollowWithoutEvents(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(10))
	rt := &countEvents{}
	c := followClient(t, srv, nodeaccess.WithRoundTripper(rt))
	ch := startFollow(t, c, beacon.FollowQuery{Poll: 20 * time.Millisecond})
	take(t, ch, 1)
	for range 5 {
		require.NoError(t, srv.Advance(1))
		got := take(t, ch, 1)
		require.NoError(t, got[0].err)
	}
	require.Equal(t, int64(1), rt.n.Load(), "the stream is asked for once")
	require.Zero(t, eventsRequests(srv))
}

// TestFollowEventsNeverDecide: an event stream that lies (events of blocks
// that do not exist, a stream of garbage) changes when Follow asks, never
// what it yields: every block once, checked as when it polls.
func TestFollowEventsNeverDecide(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(10))
	c := followClient(t, srv, nodeaccess.WithRoundTripper(lyingEvents{}))
	ch := startFollow(t, c, beacon.FollowQuery{Poll: 20 * time.Millisecond})
	head := heads(t, take(t, ch, 1))[0]
	require.NoError(t, srv.Advance(5))
	got := heads(t, take(t, ch, 5))
	for i, h := range got {
		require.False(t, h.Removed)
		require.Equal(t, head.Header.Slot+beacon.Slot(i+1), h.Header.Slot)
	}
}

// countEvents answers the event stream with a 404 and counts the asks.
type countEvents struct{ n atomic.Int64 }

func (c *countEvents) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/eth/v1/events") {
		c.n.Add(1)
	}
	return noEvents{}.RoundTrip(r)
}

// lyingEvents answers the event stream with a stream of head events of
// blocks that do not exist, and garbage, as fast as the client reads.
type lyingEvents struct{}

func (lyingEvents) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, "/eth/v1/events") {
		return http.DefaultTransport.RoundTrip(r)
	}
	body := strings.Repeat("event: head\ndata: {\"slot\":\"99999999\",\"block\":\"0x00\"}\n\nevent: chain_reorg\ndata: nonsense\n\n:comment\nnot a field\n\n", 200)
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

// floodEvents answers the event stream with head events without end, as
// fast as the client reads them.
type floodEvents struct{}

func (floodEvents) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, "/eth/v1/events") {
		return http.DefaultTransport.RoundTrip(r)
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(&endless{ctx: r.Context(), line: []byte("event: head\ndata: {}\n\n")}), Request: r}, nil
}

// endless reads line again and again until ctx ends.
type endless struct {
	ctx  context.Context
	line []byte
}

func (e *endless) Read(p []byte) (int, error) {
	if err := e.ctx.Err(); err != nil {
		return 0, err
	}
	n := 0
	for n+len(e.line) <= len(p) {
		n += copy(p[n:], e.line)
	}
	return n, nil
}

// TestFollowEventFloodIsBounded: a stream that sends events without end
// makes Follow ask for the head at most every half second (a slot is
// 12 s), never in a loop.
func TestFollowEventFloodIsBounded(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(10))
	c := followClient(t, srv, nodeaccess.WithRoundTripper(floodEvents{}))
	ch := startFollow(t, c, beacon.FollowQuery{Poll: time.Hour})
	take(t, ch, 1)
	time.Sleep(200 * time.Millisecond) // listening
	before := srv.RequestCount()
	time.Sleep(2 * time.Second)
	n := srv.RequestCount() - before
	require.LessOrEqual(t, n, 6, "asks in 2 s of a flood of events")
	require.GreaterOrEqual(t, n, 2, "the events bring asks")
}
