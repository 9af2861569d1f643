package beacon_test

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The Gloas vectors in testdata/gloas were made by Lodestar
// (@lodestar/types 1.50.0, bench/tools/gloasgen; see testdata/SOURCES.md):
// an implementation this package shares no code with.

type gloasVector struct {
	name   string
	preset beacon.Preset
	gz     bool
}

var gloasVectors = []gloasVector{
	{"minimal-1", beacon.MinimalPreset(), false}, // 21 validators, 5 builders
	{"minimal-3", beacon.MinimalPreset(), false}, // no validators, no builders
	{"mainnet-2", beacon.MainnetPreset(), true},  // 86 validators, 17 builders
}

// readVector returns a vector file's bytes, gunzipped for .gz vectors.
func readVector(t testing.TB, v gloasVector, ext string) []byte {
	t.Helper()
	p := filepath.Join("testdata", "gloas", v.name+ext)
	if v.gz {
		p += ".gz"
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !v.gz {
		return b
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func vectorRoot(t testing.TB, name string) beacon.Root {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "gloas", name+".root"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(b)), "0x"))
	if err != nil || len(h) != 32 {
		t.Fatalf("%s.root: %v", name, err)
	}
	return beacon.Root(h)
}

// TestGloasLodestarSSZ: each Lodestar state decodes from SSZ (streamed and
// in memory), hashes to Lodestar's root, and encodes back to the same
// bytes.
func TestGloasLodestarSSZ(t *testing.T) {
	for _, v := range gloasVectors {
		t.Run(v.name, func(t *testing.T) {
			raw := readVector(t, v, ".ssz")
			want := vectorRoot(t, v.name)
			// The test's own reference (htr_ref_test.go) agrees with
			// Lodestar, so the two check each other.
			if ref := beacon.Root(refStateType(beacon.Gloas, v.preset).root(raw)); ref != want {
				t.Fatalf("the reference gives %s, Lodestar %s", ref, want)
			}
			for _, mode := range []string{"stream", "memory"} {
				var st *beacon.State
				var err error
				if mode == "stream" {
					st, err = decodeSSZ(io.MultiReader(bytes.NewReader(raw)), beacon.Gloas, v.preset)
				} else {
					st, err = unmarshalSSZ(raw, beacon.Gloas, v.preset)
				}
				if err != nil {
					t.Fatalf("%s: decode: %v", mode, err)
				}
				got, err := beacon.HashTreeRoot(st)
				if err != nil {
					t.Fatalf("%s: hash: %v", mode, err)
				}
				if got != want {
					t.Fatalf("%s: root %s, Lodestar's %s", mode, got, want)
				}
				out, err := marshalSSZ(st)
				if err != nil {
					t.Fatalf("%s: encode: %v", mode, err)
				}
				if !bytes.Equal(out, raw) {
					t.Fatalf("%s: re-encoded SSZ differs from Lodestar's (%d vs %d bytes)", mode, len(out), len(raw))
				}
			}
		})
	}
}

// TestGloasLodestarJSON: each Lodestar beacon API body decodes to the
// state its SSZ holds (the same SSZ bytes, Lodestar's root), with its
// flags; EncodeJSONResponse's output decodes back to it too.
func TestGloasLodestarJSON(t *testing.T) {
	for _, v := range gloasVectors {
		t.Run(v.name, func(t *testing.T) {
			raw := readVector(t, v, ".ssz")
			body := readVector(t, v, ".json")
			st, flags, err := decodeJSON(bytes.NewReader(body), v.preset)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if st.Version != beacon.Gloas || flags == nil || flags.Finalized || flags.ExecutionOptimistic {
				t.Fatalf("version %v, flags %+v", st.Version, flags)
			}
			if got, want := stateRoot(t, st), vectorRoot(t, v.name); got != want {
				t.Fatalf("root %s, Lodestar's %s", got, want)
			}
			out, err := marshalSSZ(st)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, raw) {
				t.Fatal("the JSON body's state encodes to other SSZ than Lodestar's")
			}
			var buf bytes.Buffer
			if err := beacon.WriteState(&buf, st, beacon.EncodingJSON, flags); err != nil {
				t.Fatal(err)
			}
			// Lodestar writes execution addresses checksummed (EIP-55),
			// this package in lower case, as every other hex; the rest is
			// byte for byte the same.
			if !bytes.Equal(buf.Bytes(), bytes.ToLower(body)) {
				t.Fatal("EncodeJSONResponse differs from Lodestar's body (addresses in lower case)")
			}
			back, _, err := decodeJSON(&buf, v.preset)
			if err != nil {
				t.Fatalf("decode our JSON: %v", err)
			}
			if got := stateRoot(t, back); got != vectorRoot(t, v.name) {
				t.Fatalf("our JSON decodes to root %s", got)
			}
		})
	}
}

func stateRoot(t testing.TB, st *beacon.State) beacon.Root {
	t.Helper()
	r, err := beacon.HashTreeRoot(st)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
