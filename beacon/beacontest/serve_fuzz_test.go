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
