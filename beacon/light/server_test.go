package light

import (
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// testServer serves a testChain's light-client data as a beacon node
// does, in JSON or SSZ as the request's Accept asks.
type testServer struct {
	c          *testChain
	mu         sync.Mutex
	bootstraps map[beacon.Root]*Bootstrap
	updates    map[uint64]*Update
	finality   *Update
	optimistic *Update
	requests   []string
	// raw, when set, replaces the body of the route it names.
	raw map[string][]byte
}

func newTestServer(c *testChain) *testServer {
	return &testServer{c: c, bootstraps: map[beacon.Root]*Bootstrap{}, updates: map[uint64]*Update{}, raw: map[string][]byte{}}
}

func (s *testServer) addBootstrap(b *Bootstrap) beacon.Root {
	r := htr(s.c.t, b.Header.Beacon)
	s.bootstraps[r] = b
	return r
}

func (s *testServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := r.URL.Path[strings.Index(r.URL.Path, "/eth/"):]
	s.requests = append(s.requests, path+"?"+r.URL.RawQuery)
	ssz := strings.HasPrefix(r.Header.Get("Accept"), "application/octet-stream")
	send := func(version string, js, raw []byte) {
		if b, ok := s.raw[path]; ok {
			js, raw = b, b
		}
		if version != "" {
			w.Header().Set("Eth-Consensus-Version", version)
		}
		if ssz {
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = w.Write(raw)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(js)
	}
	notFound := func() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		_, _ = w.Write([]byte(`{"code":404,"message":"not found"}`))
	}
	switch {
	case strings.HasPrefix(path, routeBootstrap):
		root := beacon.Root(hexRoot(strings.TrimPrefix(path, routeBootstrap+"0x")))
		b := s.bootstraps[root]
		if b == nil {
			notFound()
			return
		}
		send(b.Version.String(), mustJSON(s.c.t, bootstrapWire(b)), bootstrapSSZ(b))
	case path == routeUpdates:
		start, _ := strconv.ParseUint(r.URL.Query().Get("start_period"), 10, 64)
		count, _ := strconv.ParseUint(r.URL.Query().Get("count"), 10, 64)
		var js []any
		var raw []byte
		for p := start; p < start+min(count, maxRequestUpdates); p++ {
			u := s.updates[p]
			if u == nil {
				break
			}
			js = append(js, updateWire(u, kindUpdate))
			b := updateSSZ(u, kindUpdate)
			d := s.c.cfg.forkDigest(beacon.Epoch(uint64(u.AttestedHeader.Beacon.Slot) / s.c.cfg.SlotsPerEpoch))
			raw = binary.LittleEndian.AppendUint64(raw, uint64(len(b)+4))
			raw = append(append(raw, d[:]...), b...)
		}
		if js == nil {
			js = []any{}
		}
		send("", mustJSON(s.c.t, js), raw)
	case path == routeFinality || path == routeOptimistic:
		u, k := s.finality, kindFinality
		if path == routeOptimistic {
			u, k = s.optimistic, kindOptimistic
		}
		if u == nil {
			notFound()
			return
		}
		send(u.Version.String(), mustJSON(s.c.t, updateWire(u, k)), updateSSZ(u, k))
	default:
		notFound()
	}
}

// client starts the server and returns a light client of it.
func (s *testServer) client(t testing.TB, trusted beacon.Root, enc beacon.Encoding) *Client {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	bc, err := beacon.New(srv.URL, "lc-test-key", beacon.WithEncoding(enc), nodeaccess.WithMaxAttempts(1))
	if err != nil {
		t.Fatal(err)
	}
	lc, err := New(bc, s.c.cfg, trusted)
	if err != nil {
		t.Fatal(err)
	}
	return lc
}

func (s *testServer) count(prefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if strings.HasPrefix(r, prefix) {
			n++
		}
	}
	return n
}
