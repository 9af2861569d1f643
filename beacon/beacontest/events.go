package beacontest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// eventsPattern is the beacon API's event stream.
const eventsPattern = "GET /beacon/{key}/eth/v1/events"

// eventTopics are the topics the server sends, as the chain of headers
// moves: head (Advance, Reorg), chain_reorg (Reorg), finalized_checkpoint
// (Finalize).
var eventTopics = []string{"head", "chain_reorg", "finalized_checkpoint"}

// event is one server-sent event, ready to write.
type event struct {
	topic string
	text  []byte
}

// subscribe adds a listener of the chain's events; the returned function
// removes it. A listener that does not keep up misses events (its channel
// is full), as a slow client of a real node does.
func (c *chain) subscribe() (<-chan event, func()) {
	ch := make(chan event, 64)
	c.mu.Lock()
	if c.subs == nil {
		c.subs = make(map[chan event]bool)
	}
	c.subs[ch] = true
	c.mu.Unlock()
	return ch, func() {
		c.mu.Lock()
		delete(c.subs, ch)
		c.mu.Unlock()
	}
}

// publish sends an event to every listener. c.mu is held.
func (c *chain) publish(topic, data string) {
	ev := event{topic: topic, text: []byte("event: " + topic + "\ndata: " + data + "\n\n")}
	for ch := range c.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

// publishHead sends the head event of the current head block. c.mu is
// held.
func (c *chain) publishHead() {
	h := c.canon[len(c.canon)-1]
	c.publish("head", fmt.Sprintf(`{"slot":"%d","block":"%s","state":"%s","epoch_transition":%t,"execution_optimistic":false}`,
		h.h.Slot, h.root.Hex(), h.h.StateRoot.Hex(), uint64(h.h.Slot)%c.spe == 0))
}

// serveEvents answers GET /eth/v1/events?topics=…: the events of the
// topics asked for (head, chain_reorg, finalized_checkpoint), as the chain
// moves, until the client goes or the server closes. A topic the server
// does not send, or none, is a 400, as on a real node.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	var topics []string
	for _, v := range r.URL.Query()["topics"] {
		for t := range strings.SplitSeq(v, ",") {
			if !slices.Contains(eventTopics, t) {
				writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid topic: %s", t))
				return
			}
			topics = append(topics, t)
		}
	}
	if len(topics) == 0 {
		writeError(w, http.StatusBadRequest, "Missing topics")
		return
	}
	ch, leave := s.chain.subscribe()
	defer leave()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.chain.closed:
			return
		case ev := <-ch:
			if !slices.Contains(topics, ev.topic) {
				continue
			}
			if _, err := w.Write(ev.text); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		}
	}
}
