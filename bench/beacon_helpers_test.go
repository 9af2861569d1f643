package bench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Shorthands over beacon.ReadState, WriteState and HashTreeRoot, each the
// public call with its Body spelled out.

// unmarshalSSZ decodes an SSZ state of fork v from b in place (ReadState's
// *bytes.Buffer path: the validators on all cores, the size known).
func unmarshalSSZ(b []byte, v beacon.Version, preset ...beacon.Preset) (*beacon.State, error) {
	st, _, err := beacon.ReadState(bytes.NewBuffer(b), beacon.Body{Encoding: beacon.EncodingSSZ, Fork: v.String()}, readOptions(preset))
	return st, err
}

// decodeSSZ decodes an SSZ state of fork v from a stream of size n (0:
// unknown).
func decodeSSZ(r io.Reader, v beacon.Version, n int64, preset ...beacon.Preset) (*beacon.State, error) {
	st, _, err := beacon.ReadState(r, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: v.String(), Bytes: n}, readOptions(preset))
	return st, err
}

// decodeJSON decodes a JSON state body of size n (0: unknown): the beacon
// API's envelope, or with fork ("" otherwise) a bare data object.
func decodeJSON(r io.Reader, fork string, n int64, preset ...beacon.Preset) (*beacon.State, *beacon.Flags, error) {
	return beacon.ReadState(r, beacon.Body{Encoding: beacon.EncodingJSON, Fork: fork, Bytes: n}, readOptions(preset))
}

// readOptions reads with the preset given, if any (the mainnet one
// otherwise).
func readOptions(preset []beacon.Preset) beacon.ReadOptions {
	var o beacon.ReadOptions
	if len(preset) > 0 {
		o.Preset = preset[0]
	}
	return o
}

// marshalSSZ returns st in SSZ.
func marshalSSZ(st *beacon.State) ([]byte, error) {
	var b bytes.Buffer
	err := beacon.WriteState(&b, st, beacon.EncodingSSZ, nil)
	return b.Bytes(), err
}

// encodeJSONData writes st's JSON "data" object: WriteState's envelope
// without flags, less its "version" and its last byte.
func encodeJSONData(w io.Writer, st *beacon.State) error {
	var b bytes.Buffer
	if err := beacon.WriteState(&b, st, beacon.EncodingJSON, nil); err != nil {
		return err
	}
	prefix := `{"version":"` + st.Version.String() + `","data":`
	out := b.Bytes()
	if !bytes.HasPrefix(out, []byte(prefix)) {
		return fmt.Errorf("unexpected envelope %.80q", out)
	}
	_, err := w.Write(out[len(prefix) : len(out)-1])
	return err
}

// stateMember returns st's JSON member name, as WriteState writes it.
func stateMember(st *beacon.State, name string) ([]byte, error) {
	var b bytes.Buffer
	if err := encodeJSONData(&b, st); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		return nil, err
	}
	return m[name], nil
}

// rootOrPanic returns root, panicking on err.
func rootOrPanic(root beacon.Root, err error) beacon.Root {
	if err != nil {
		panic(err)
	}
	return root
}

// allForks is every fork the package decodes, oldest first.
func allForks() []beacon.Version {
	var out []beacon.Version
	for v := beacon.Phase0; v <= beacon.Gloas; v++ {
		out = append(out, v)
	}
	return out
}

// concatGIndices is the specs' concat_generalized_indices.
func concatGIndices(gs ...beacon.GIndex) (beacon.GIndex, error) {
	o := beacon.GIndex(1)
	for _, g := range gs {
		if g == 0 {
			return 0, fmt.Errorf("generalized index 0")
		}
		d := bits.Len64(uint64(g)) - 1
		o = o<<d | (g - 1<<d)
	}
	return o, nil
}

// prove proves the node path names: Prove of GIndexOf, as users do.
func prove(p *beacon.Prover, path ...any) (beacon.Proof, error) {
	g, err := p.GIndexOf(path...)
	if err != nil {
		return beacon.Proof{}, err
	}
	return p.Prove(g)
}
