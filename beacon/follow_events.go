package beacon

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The beacon API's event stream (GET /eth/v1/events, server-sent events),
// which Follow listens to where the node serves it: an event says that
// something may have changed, and Follow asks at once instead of at its
// next poll. An event is only a hint: Follow reads and checks every block
// as it does when it polls, so an event stream that lies, stops or never
// comes changes when Follow asks, never what it yields.
const (
	eventsOp = "/eth/v1/events"
	// eventsTopics are the topics Follow listens to.
	eventsTopics = "head,finalized_checkpoint,chain_reorg"
	// eventsTimeout is how long one connection to the stream lasts before
	// Follow makes a new one (a request); the client's WithTimeout, when
	// set, replaces it.
	eventsTimeout = 10 * time.Minute
	// eventsMaxBytes caps what one connection reads: a head event is about
	// 500 bytes, so a connection that reaches it is made again.
	eventsMaxBytes = 8 << 20
	// maxEventLine bounds one line of the stream.
	maxEventLine = 64 << 10
	// minEventGap is the least time between two asks an event brings
	// about (a slot is 12 s; a head event comes once a slot).
	minEventGap = 500 * time.Millisecond
)

// events listens to the node's event stream for a follower.
type events struct {
	// wake holds a signal when an event came since the follower last
	// waited.
	wake chan struct{}
	done chan struct{}
}

// listen starts listening to the event stream until ctx ends; between
// connections it waits retry. A node that does not serve the stream (a
// 400, 404, 405, 406 or 501) is not asked again: Follow then only polls.
func (c *Client) listen(ctx context.Context, retry time.Duration) *events {
	ev := &events{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(ev.done)
		for ctx.Err() == nil {
			err := c.stream(ctx, ev)
			if ctx.Err() != nil || unserved(err) {
				return
			}
			if transport.Sleep(ctx, retry) != nil {
				return
			}
		}
	}()
	return ev
}

// unserved reports whether err says the node does not serve the stream.
func unserved(err error) bool {
	var he *nodeaccess.HTTPError
	if !errors.As(err, &he) {
		return false
	}
	switch he.StatusCode {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotAcceptable, http.StatusNotImplemented:
		return true
	}
	return false
}

// stream reads one connection of the event stream, signalling ev.wake at
// each event of a topic Follow listens to.
func (c *Client) stream(ctx context.Context, ev *events) error {
	req, err := c.newRequest(eventsOp, []string{"eth", "v1", "events"}, url.Values{"topics": {eventsTopics}}, "text/event-stream")
	if err != nil {
		return err
	}
	req.Timeout, req.MaxBytes = eventsTimeout, eventsMaxBytes
	return c.t.Stream(ctx, req, func(r *transport.Response) error {
		sc := bufio.NewScanner(r.Stream)
		sc.Buffer(make([]byte, 0, 4096), maxEventLine)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if event == "head" || event == "finalized_checkpoint" || event == "chain_reorg" {
					select {
					case ev.wake <- struct{}{}:
					default: // a signal is already waiting
					}
				}
				event = ""
			case strings.HasPrefix(line, "event:"):
				event = strings.TrimSpace(line[len("event:"):])
			}
		}
		// The connection ended (the node closed it, the attempt's time
		// ran out, the cap): listen makes a new one, so this attempt is
		// not retried.
		return transport.Final(sc.Err())
	})
}

// wait returns after f.poll, or sooner when the event stream says
// something happened. Its first call starts listening to the stream.
func (f *follower) wait(ctx context.Context) error {
	if f.events == nil && f.listenCtx != nil {
		f.events = f.c.listen(f.listenCtx, f.poll)
	}
	if f.events == nil {
		return transport.Sleep(ctx, f.poll)
	}
	start := time.Now()
	t := time.NewTimer(f.poll)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	case <-f.events.wake:
		// A stream that sends events without end (a lying or broken node)
		// makes Follow ask at most every minEventGap, never in a loop.
		if gap := min(minEventGap, f.poll) - time.Since(start); gap > 0 {
			return transport.Sleep(ctx, gap)
		}
		return nil
	}
}
