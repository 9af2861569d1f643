package beacontest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The state handler answers any state id and Accept header with 200 and
// the state's exact body, or with a beacon error body whose code is the
// status (400, 404 or 406); it never panics.
func FuzzServeState(f *testing.F) {
	a := NewState(beacon.Altair, beacon.MinimalPreset(), 4, 1)
	a.Slot = 7
	b := NewState(beacon.Fulu, beacon.MinimalPreset(), 4, 2)
	b.Slot = 9
	set := newStateSet()
	rootB, err := set.add(b)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := set.add(a); err != nil {
		f.Fatal(err)
	}
	s := &Server{core: &core{set: set}}
	for _, seed := range [][2]string{
		{"head", ""}, {"genesis", "application/octet-stream"}, {"finalized", "*/*"}, {"justified", "application/json"},
		{"7", "application/octet-stream;q=1,application/json;q=0.9"}, {"8", ""}, {string(beacon.RootID(rootB)), "text/html"},
		{"0x12", ""}, {"", ""}, {"Head", "application/*;q=0.5"}, {"99999999999999999999", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, id, accept string) {
		r := httptest.NewRequest(http.MethodGet, "/state", nil)
		r.SetPathValue("state_id", id)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		w := httptest.NewRecorder()
		s.serveState(w, r)
		body := w.Body.Bytes()
		if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(body)) {
			t.Fatalf("Content-Length %s for %d bytes", got, len(body))
		}
		if w.Code == http.StatusOK {
			sid, err := beacon.ParseStateID(id)
			if err != nil {
				t.Fatalf("200 for a bad id %q", id)
			}
			enc := beacon.EncodingJSON
			if w.Header().Get("Content-Type") == mediaSSZ {
				enc = beacon.EncodingSSZ
			}
			want, info, err := set.body(sid, enc)
			if err != nil || !bytes.Equal(want, body) {
				t.Fatalf("%q: the body is not the state's %s (%v)", id, enc, err)
			}
			if w.Header().Get("Eth-Consensus-Version") != info.Version.String() {
				t.Fatalf("%q: Eth-Consensus-Version %q", id, w.Header().Get("Eth-Consensus-Version"))
			}
			return
		}
		switch w.Code {
		case http.StatusBadRequest, http.StatusNotFound, http.StatusNotAcceptable:
		default:
			t.Fatalf("%q %q: status %d", id, accept, w.Code)
		}
		var eb errorBody
		if err := json.Unmarshal(body, &eb); err != nil || eb.Code != w.Code || eb.Message == "" || eb.Stacktraces == nil {
			t.Fatalf("%q: error body %q (%v)", id, body, err)
		}
		if w.Header().Get("Content-Type") != mediaJSON || w.Header().Get("Eth-Consensus-Version") != "" {
			t.Fatalf("%q: error headers %v", id, w.Header())
		}
	})
}

// The light-client handlers answer any block root, period range and Accept
// header with 200 or a beacon error body (400, 404 or 406); they never
// panic, and an updates answer holds at most 128 updates.
func FuzzServeLightClient(f *testing.F) {
	ch, err := newChain(beacon.MinimalPreset(), nil)
	if err != nil {
		f.Fatal(err)
	}
	s := &Server{core: &core{chain: ch}}
	if err := s.Advance(140); err != nil {
		f.Fatal(err)
	}
	head := ch.canon[len(ch.canon)-1].root.String()
	for _, seed := range [][4]string{
		{head, "0", "3", ""}, {"0x12", "1", "1", "application/octet-stream"}, {head, "18446744073709551615", "18446744073709551615", "*/*"},
		{"", "", "", "text/html"}, {head, "2", "0", "application/json"}, {"0x" + string(make([]byte, 64)), "-1", "1e3", ""},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, root, start, count, accept string) {
		for i, serve := range []http.HandlerFunc{s.serveBootstrap, s.serveUpdates} {
			r := httptest.NewRequest(http.MethodGet, "/lc", nil)
			r.SetPathValue("block_root", root)
			r.URL.RawQuery = "start_period=" + start + "&count=" + count
			if accept != "" {
				r.Header.Set("Accept", accept)
			}
			w := httptest.NewRecorder()
			serve(w, r)
			body := w.Body.Bytes()
			switch w.Code {
			case http.StatusOK:
				if i == 1 && w.Header().Get("Content-Type") == mediaJSON {
					var list []json.RawMessage
					if err := json.Unmarshal(body, &list); err != nil || len(list) == 0 || len(list) > maxLCUpdates {
						t.Fatalf("%q %q: %d updates (%v)", start, count, len(list), err)
					}
				}
				continue
			case http.StatusBadRequest, http.StatusNotFound, http.StatusNotAcceptable:
			default:
				t.Fatalf("%q %q %q: status %d: %s", root, start, count, w.Code, body)
			}
			var eb errorBody
			if err := json.Unmarshal(body, &eb); err != nil || eb.Code != w.Code || eb.Message == "" {
				t.Fatalf("error body %q (%v)", body, err)
			}
		}
	})
}
