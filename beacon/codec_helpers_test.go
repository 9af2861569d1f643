package beacon_test

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Shorthands over ReadState, WriteState and HashTreeRoot for the tests,
// which read and write states in many ways: each one is the public call
// with its Body spelled out.

// sizeHint gives decodeSSZ and decodeJSON the input's size (Body.Bytes).
type sizeHint int64

// assumeVersion gives decodeJSON the fork (Body.Fork): that of a bare data
// object, or the one the envelope must name.
type assumeVersion beacon.Version

// body returns the Body and the ReadOptions that opts (a beacon.Preset, a
// progress func(read, total int64), sizeHint or assumeVersion) stand for.
func body(enc beacon.Encoding, fork string, opts []any) (beacon.Body, beacon.ReadOptions) {
	b := beacon.Body{Encoding: enc, Fork: fork}
	var ro beacon.ReadOptions
	for _, o := range opts {
		switch o := o.(type) {
		case sizeHint:
			b.Bytes = int64(o) // 0: unknown
		case assumeVersion:
			b.Fork = forkName(beacon.Version(o))
		case beacon.Preset:
			ro.Preset = o
		case func(read, total int64):
			ro.Progress = o
		case nil:
		default:
			panic(fmt.Sprintf("not a read option: %T", o))
		}
	}
	return b, ro
}

// forkName is the Body.Fork of v: its name, or the String of a Version this
// package does not know (which ReadState refuses as unsupported).
func forkName(v beacon.Version) string { return v.String() }

// decodeSSZ reads an SSZ state of fork v from r.
func decodeSSZ(r io.Reader, v beacon.Version, opts ...any) (*beacon.State, error) {
	b, ro := body(beacon.EncodingSSZ, forkName(v), opts)
	st, _, err := beacon.ReadState(r, b, ro)
	return st, err
}

// unmarshalSSZ reads an SSZ state of fork v from b, in place.
func unmarshalSSZ(b []byte, v beacon.Version, opts ...any) (*beacon.State, error) {
	return decodeSSZ(bytes.NewBuffer(b), v, opts...)
}

// decodeJSON reads a JSON state (an envelope, or with assumeVersion a bare
// data object) from r.
func decodeJSON(r io.Reader, opts ...any) (*beacon.State, *beacon.Flags, error) {
	b, ro := body(beacon.EncodingJSON, "", opts)
	return beacon.ReadState(r, b, ro)
}

// marshalSSZ returns st in SSZ.
func marshalSSZ(st *beacon.State) ([]byte, error) {
	var b bytes.Buffer
	if err := beacon.WriteState(&b, st, beacon.EncodingSSZ, nil); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sizeSSZ returns the length of st in SSZ, counted as it streams by (so
// that the JSON benchmarks' peak heap measures the decoder alone).
func sizeSSZ(st *beacon.State) (int, error) {
	var c byteCounter
	err := beacon.WriteState(&c, st, beacon.EncodingSSZ, nil)
	return int(c), err
}

// byteCounter is a writer that counts what it is given.
type byteCounter int

func (c *byteCounter) Write(p []byte) (int, error) { *c += byteCounter(len(p)); return len(p), nil }

// validateState reports what WriteState refuses in st.
func validateState(st *beacon.State) error {
	return beacon.WriteState(io.Discard, st, beacon.EncodingSSZ, nil)
}

// encodeJSONData writes st's JSON "data" object to w: the envelope that
// WriteState writes without flags, {"version":"…","data":…}, less its
// first and last bytes.
func encodeJSONData(w io.Writer, st *beacon.State) error {
	var b bytes.Buffer
	if err := beacon.WriteState(&b, st, beacon.EncodingJSON, nil); err != nil {
		return err
	}
	prefix := `{"version":"` + st.Version.String() + `","data":`
	out := b.Bytes()
	if !bytes.HasPrefix(out, []byte(prefix)) || out[len(out)-1] != '}' {
		return fmt.Errorf("unexpected envelope %.80q", out)
	}
	_, err := w.Write(out[len(prefix) : len(out)-1])
	return err
}

// mustRoot returns root, panicking on err: for the containers whose root
// cannot fail.
func mustRoot(root beacon.Root, err error) beacon.Root {
	if err != nil {
		panic(err)
	}
	return root
}

// latestBlockRoot is the root of the block that produced st: its latest
// block header with a zero state_root filled in with st's root, as the
// specs' process_slot does.
func latestBlockRoot(st *beacon.State) (beacon.Root, error) {
	h := st.LatestBlockHeader
	if h.StateRoot == (beacon.Root{}) {
		r, err := beacon.HashTreeRoot(st)
		if err != nil {
			return beacon.Root{}, err
		}
		h.StateRoot = r
	}
	return beacon.HashTreeRoot(h)
}

// allForks is every fork the package decodes, oldest first.
func allForks() []beacon.Version {
	var out []beacon.Version
	for v := beacon.Phase0; v <= beacon.Gloas; v++ {
		out = append(out, v)
	}
	return out
}

// The documented defaults and steps the tests hold the package to.
const (
	progressStep  = 1 << 20          // Progress is called every MiB
	stateTimeout  = 15 * time.Minute // the state calls' per-attempt timeout
	maxStateBytes = 4 << 30          // the state calls' body cap
)
