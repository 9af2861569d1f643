package beacon

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Seeds: error bodies as beacon nodes and the frameworks in front of them
// send them (Lighthouse, Prysm, Nimbus/Teku style, fastify), and cut ones.
var errorBodySeeds = []string{
	`{"code":404,"message":"NOT_FOUND: beacon state for slot 9","stacktraces":[]}`,
	`{"message":"Could not get state: state not found","code":404}`,
	`{"code":"404","message":"State not found"}`,
	`{"message":"Route GET:/eth/v2/debug/beacon/states/9 not found","error":"Not Found","statusCode":404}`,
	`{"code":500,"message":"Internal server error","stacktraces":["at a","at b"]}`,
	`{"code":404,"message":"NOT_FOUND: beacon state","stacktraces":["at x.y(Z.java:1) at x.y(Z.java:1)`,
	`{"code":404,"message":"cut in the mid`,
	`{"code":1e3,"message":"\u0073tate \ud800 not found"}`,
	`404 page not found`,
	``,
	`null`,
	`{"message":12}`,
}

// FuzzErrorMessage: errorMessage never panics; what it reads is one
// trimmed line of UTF-8 within maxMessage; and with a client's mask, the
// key shows in no message, however the body spells or places it (escaped,
// split by whitespace that the message's trimming joins, at the cut).
func FuzzErrorMessage(f *testing.F) {
	for _, s := range errorBodySeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"code":401,"message":"bad key sEcReT-k3y"}`,
		`{"code":401,"message":"bad key \u0073EcReT-k3y"}`,
		`{"message":"` + strings.Repeat("x", maxMessage-4) + `sEcReT-k3y"}`,
		`{"message":"` + strings.Repeat("\u00e9", maxMessage/2-2) + ` sEcReT-k3y"}`,
	} {
		f.Add([]byte(s))
	}
	const key = "sEcReT-k3y"
	c, err := New("https://beacon.node.example", key)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if msg, _, _ := errorMessage(b, c.t.Mask); strings.Contains(msg, key) {
			t.Fatalf("message %q shows the key", msg)
		} else if cut, ok := strings.CutSuffix(msg, "…"); ok && c.t.Mask(string(b)) != string(b) {
			// A body that holds the key (in any spelling the mask knows)
			// must not give a message cut so that a piece of it shows; one
			// that holds none (a lookalike such as "sEcRex-k3y" at the cut)
			// has no key to show.
			for n := 4; n < len(key); n++ {
				if strings.HasSuffix(cut, key[:n]) {
					t.Fatalf("message %q is cut inside the key", msg)
				}
			}
		}
		msg, _, ok := errorMessage(b, noMask)
		if !ok {
			if msg != "" {
				t.Fatalf("not ok but message %q", msg)
			}
			return
		}
		if msg == "" || strings.ContainsAny(msg, "\n\r\t") || strings.Contains(msg, "  ") {
			t.Fatalf("message %q is not one trimmed line", msg)
		}
		if len(msg) > maxMessage+len("…") {
			t.Fatalf("message of %d bytes", len(msg))
		}
		if !utf8.ValidString(msg) {
			t.Fatalf("message %q is not UTF-8 (cut inside a character?)", msg)
		}
	})
}

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		body string
		msg  string
		ok   bool
	}{
		{errorBodySeeds[0], "NOT_FOUND: beacon state for slot 9", true},
		{errorBodySeeds[1], "Could not get state: state not found", true},
		{errorBodySeeds[2], "State not found", true},
		{errorBodySeeds[3], "Route GET:/eth/v2/debug/beacon/states/9 not found", true},
		{errorBodySeeds[5], "NOT_FOUND: beacon state", true},
		{errorBodySeeds[6], "", false},
		{`{"message":"  two\n lines  "}`, "two lines", true},
		{`{"message":"` + strings.Repeat("é", 600) + `"}`, strings.Repeat("é", 500) + "…", true},
		{errorBodySeeds[8], "", false},
		{errorBodySeeds[11], "", false},
	} {
		msg, _, ok := errorMessage([]byte(tc.body), noMask)
		if msg != tc.msg || ok != tc.ok {
			t.Errorf("%.60s: got %q %v, want %q %v", tc.body, msg, ok, tc.msg, tc.ok)
		}
	}
}

// Seeds: the starts of JSON state bodies.
var envelopeSeeds = []string{
	`{"version":"deneb","execution_optimistic":false,"finalized":true,"data":{"genesis_time":"1"}}`,
	`{"data":{},"version":"fulu"}`,
	`{"version":"altair","execution_optimistic":"true","finalized":true,"data":`,
	`{"version":"heze","execution_optimistic":false,"finalized":false,"da`,
	`{"version":`,
	`[1,2]`,
	``,
}

// FuzzSniffEnvelope: DownloadState's envelope scanner never panics, reads
// no version longer than its input, and reports the same whether the body
// comes whole or split in two anywhere.
func FuzzSniffEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, b []byte, at uint16) {
		var whole envelopeScanner
		whole.write(b)
		v, flags := whole.result()
		if len(v) > len(b) {
			t.Fatalf("version %q longer than the input", v)
		}
		cut := int(at) % (len(b) + 1)
		var split envelopeScanner
		split.write(b[:cut])
		split.write(b[cut:])
		v2, flags2 := split.result()
		if v2 != v || (flags == nil) != (flags2 == nil) || flags != nil && *flags != *flags2 {
			t.Fatalf("split at %d: %q %+v, whole: %q %+v", cut, v2, flags2, v, flags)
		}
	})
}

// noMask is the mask of a client whose key appears nowhere in the bodies.
func noMask(s string) string { return s }
