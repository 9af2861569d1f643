package beacon_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// countingReaderAt counts the bytes and calls that reach an io.ReaderAt.
type countingReaderAt struct {
	r            io.ReaderAt
	bytes, calls atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.bytes.Add(int64(n))
	c.calls.Add(1)
	return n, err
}

// sszBody is the Body of an SSZ state of fork v and size n.
func sszBody(v beacon.Version, n int) beacon.Body {
	return beacon.Body{Encoding: beacon.EncodingSSZ, Fork: v.String(), Bytes: int64(n)}
}

// stateField returns the field of st that name (the specs' spelling)
// names: "ptc_window" is PTCWindow.
func stateField(st *beacon.State, name string) reflect.Value {
	want := strings.ReplaceAll(name, "_", "")
	return reflect.ValueOf(st).Elem().FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, want) })
}

// checkReaderAgrees opens data (a state of fork v, preset p) in place and
// checks every read against the full decoder's state.
func checkReaderAgrees(t *testing.T, data []byte, v beacon.Version, p beacon.Preset) {
	t.Helper()
	full, _, err := beacon.ReadState(bytes.NewReader(data), sszBody(v, len(data)), p)
	require.NoError(t, err)
	sr, err := beacon.OpenState(bytes.NewReader(data), sszBody(v, len(data)), p)
	require.NoError(t, err)

	n, err := sr.Len("validators")
	require.NoError(t, err)
	require.Equal(t, uint64(len(full.Validators)), n)
	vals, err := sr.Validators(0, beacon.ValidatorIndex(n))
	require.NoError(t, err)
	require.Equal(t, full.Validators, vals)
	bals, err := sr.Balances(0, beacon.ValidatorIndex(n))
	require.NoError(t, err)
	require.Equal(t, full.Balances, bals)
	for i := range beacon.ValidatorIndex(n) {
		one, err := sr.Validators(i, i+1)
		require.NoError(t, err)
		require.Equal(t, full.Validators[i:i+1], one)
		b, err := sr.Balances(i, i+1)
		require.NoError(t, err)
		require.Equal(t, full.Balances[i], b[0])
	}
	if n > 2 {
		mid, err := sr.Validators(1, beacon.ValidatorIndex(n-1))
		require.NoError(t, err)
		require.Equal(t, full.Validators[1:n-1], mid)
	}

	names := beacon.FieldNames(v, p)
	for _, name := range names {
		one, err := sr.Fields(name)
		require.NoError(t, err, name)
		require.Equal(t, stateField(full, name).Interface(), stateField(one, name).Interface(), name)
		l, err := sr.Len(name)
		if fv := stateField(full, name); fv.Kind() == reflect.Slice {
			require.NoError(t, err, name)
			want := uint64(fv.Len())
			if name == "execution_payload_availability" {
				want *= 8 // a bitvector's length is its bits
			}
			require.Equal(t, want, l, name)
		} else {
			require.ErrorAs(t, err, new(*nodeaccess.InputError), name)
		}
	}
	all, err := sr.Fields(names...)
	require.NoError(t, err)
	require.Equal(t, full, all)
}

// TestStateReaderAgreesWithDecoder opens random states of every fork and
// both presets in place and reads each validator, balance, range and
// top-level field, which must equal what ReadState decodes.
func TestStateReaderAgreesWithDecoder(t *testing.T) {
	for _, p := range []beacon.Preset{beacon.MainnetPreset(), beacon.MinimalPreset()} {
		for _, v := range allForks() {
			t.Run(v.String()+"/"+p.Name, func(t *testing.T) {
				st := beacontest.NewState(v, p, 37, uint64(v)+7)
				data, err := marshalSSZ(st)
				require.NoError(t, err)
				checkReaderAgrees(t, data, v, p)
			})
		}
	}
}

// TestStateReaderRealStates reads states this package did not write: the
// Sepolia genesis state and Lodestar's gloas states.
func TestStateReaderRealStates(t *testing.T) {
	sepolia, err := os.ReadFile("testdata/sepolia-genesis.ssz")
	require.NoError(t, err)
	checkReaderAgrees(t, sepolia, beacon.Phase0, beacon.MainnetPreset())
	for _, name := range []string{"minimal-1", "minimal-3"} {
		b, err := os.ReadFile("testdata/gloas/" + name + ".ssz")
		require.NoError(t, err)
		checkReaderAgrees(t, b, beacon.Gloas, beacon.MinimalPreset())
	}
	checkReaderAgrees(t, gunzipFile(t, "testdata/gloas/mainnet-2.ssz.gz"), beacon.Gloas, beacon.MainnetPreset())
}

func gunzipFile(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	b, err := io.ReadAll(z)
	require.NoError(t, err)
	return b
}

// TestStateReaderFromFile opens a saved file without its size: the file
// tells it.
func TestStateReaderFromFile(t *testing.T) {
	st := beacontest.NewState(beacon.Electra, beacon.MinimalPreset(), 9, 3)
	data, err := marshalSSZ(st)
	require.NoError(t, err)
	path := t.TempDir() + "/state.ssz"
	require.NoError(t, os.WriteFile(path, data, 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sr, err := beacon.OpenState(f, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "electra"}, beacon.MinimalPreset())
	require.NoError(t, err)
	v, err := sr.Validators(8, 9)
	require.NoError(t, err)
	require.Equal(t, st.Validators[8], v[0])
}

// TestStateReaderReadsOnlyItsBytes holds opening a state and reading one
// validator and one balance to a bound of bytes that does not depend on
// the validator count: under 64 KiB (in fact a few hundred bytes), the
// same at 1,000 and at 100,000 validators, in every fork.
func TestStateReaderReadsOnlyItsBytes(t *testing.T) {
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Fulu, beacon.Gloas} {
		var read []int64
		for _, n := range []int{1000, 100_000} {
			st := beacontest.NewState(v, beacon.MainnetPreset(), n, 1)
			data, err := marshalSSZ(st)
			require.NoError(t, err)
			c := &countingReaderAt{r: bytes.NewReader(data)}
			sr, err := beacon.OpenState(c, sszBody(v, len(data)))
			require.NoError(t, err)
			i := beacon.ValidatorIndex(n / 2)
			val, err := sr.Validators(i, i+1)
			require.NoError(t, err)
			require.Equal(t, st.Validators[i], val[0])
			bal, err := sr.Balances(i, i+1)
			require.NoError(t, err)
			require.Equal(t, st.Balances[i], bal[0])
			require.Less(t, c.bytes.Load(), int64(64<<10), "%s, %d validators", v, n)
			read = append(read, c.bytes.Load())
		}
		require.Equal(t, read[0], read[1], "%s: bytes read depend on the validator count", v)
		t.Logf("%s: %d bytes read for the offsets, a validator and a balance", v, read[0])
	}
}

// TestStateReaderErrors: every bad input is a typed error naming what is
// wrong, and a corrupt state a *DecodeError at the byte.
func TestStateReaderErrors(t *testing.T) {
	p := beacon.MinimalPreset()
	st := beacontest.NewState(beacon.Deneb, p, 5, 2)
	data, err := marshalSSZ(st)
	require.NoError(t, err)
	open := func(b []byte, body beacon.Body) (*beacon.StateReader, error) {
		return beacon.OpenState(bytes.NewReader(b), body, p)
	}
	body := sszBody(beacon.Deneb, len(data))

	_, err = open(data, beacon.Body{Encoding: beacon.EncodingJSON, Fork: "deneb"})
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	_, err = open(data, beacon.Body{Encoding: beacon.EncodingSSZ})
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	_, err = open(data, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "heze"})
	require.ErrorIs(t, err, beacon.ErrUnsupportedVersion)
	_, err = beacon.OpenState(nil, body)
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	_, err = beacon.OpenState(onlyReaderAt{bytes.NewReader(data)}, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "deneb"}, p)
	require.ErrorAs(t, err, new(*nodeaccess.InputError), "a size nobody can tell")

	// A size shorter than the fixed part, or than the offsets say.
	_, err = open(data[:100], sszBody(beacon.Deneb, 100))
	var de *beacon.DecodeError
	require.ErrorAs(t, err, &de)
	require.ErrorIs(t, err, beacon.ErrInvalidState)
	// A reader shorter than its claimed size is refused when it is
	// opened, as a truncation: with both sizes when the reader tells its
	// own, by reading the claimed last byte when it does not.
	_, err = open(data[:len(data)-10], body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.ErrorAs(t, err, &de)
	require.ErrorContains(t, err, fmt.Sprintf("it holds %d bytes, and Body.Bytes says %d", len(data)-10, len(data)))
	_, err = beacon.OpenState(onlyReaderAt{bytes.NewReader(data[:len(data)-10])}, body, p)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.ErrorAs(t, err, &de)
	require.ErrorContains(t, err, fmt.Sprintf("it holds fewer than the %d bytes Body.Bytes gives the state", len(data)))

	sr, err := open(data, body)
	require.NoError(t, err)
	_, err = sr.Validators(3, 2)
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	_, err = sr.Validators(0, 6)
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	_, err = sr.Balances(5, 6)
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	_, err = sr.Fields("slot", "no_such_field")
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	require.ErrorContains(t, err, "no_such_field")
	_, err = sr.Fields("inactivity_score") // altair's name is plural
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	_, err = sr.Len("slot")
	require.ErrorAs(t, err, new(*nodeaccess.InputError))

	// The validators' offset (fixed part: 4360 in the minimal preset) out
	// of order, and then beyond the end.
	validatorsAt := 4360
	bad := bytes.Clone(data)
	bad[validatorsAt] = 0
	bad[validatorsAt+1] = 0
	_, err = open(bad, body)
	require.ErrorAs(t, err, &de)
	require.Equal(t, "validators", de.Path)
	require.Equal(t, int64(validatorsAt), de.Offset)
	bad = bytes.Clone(data)
	bad[validatorsAt+3] = 0x7f
	_, err = open(bad, body)
	require.ErrorAs(t, err, &de)
	require.Equal(t, "validators", de.Path)

	// A validator whose slashed byte is not a boolean: the read of it
	// fails at its byte, the others still read.
	start := validatorsStart(t, data)
	bad = bytes.Clone(data)
	bad[start+2*121+88] = 2
	sr, err = open(bad, body)
	require.NoError(t, err)
	_, err = sr.Validators(0, 5)
	require.ErrorAs(t, err, &de)
	require.Equal(t, "validators[2]", de.Path)
	require.Equal(t, int64(start+2*121), de.Offset)
	_, err = sr.Validators(3, 5)
	require.NoError(t, err)
	_, err = sr.Fields("validators")
	require.ErrorAs(t, err, &de)
	require.Equal(t, "validators[2]", de.Path)
	require.Equal(t, int64(start+2*121), de.Offset)
}

// validatorsStart returns the validators' offset in a minimal state.
func validatorsStart(t *testing.T, data []byte) int {
	t.Helper()
	return int(uint32(data[4360]) | uint32(data[4361])<<8 | uint32(data[4362])<<16 | uint32(data[4363])<<24)
}

// onlyReaderAt hides the size of an io.ReaderAt.
type onlyReaderAt struct{ r io.ReaderAt }

func (o onlyReaderAt) ReadAt(p []byte, off int64) (int, error) { return o.r.ReadAt(p, off) }

// failingReaderAt fails every read.
type failingReaderAt struct{}

var errDisk = errors.New("disk on fire")

func (failingReaderAt) ReadAt([]byte, int64) (int, error) { return 0, errDisk }

// TestStateReaderReaderFails: a failure of the reader itself is returned
// wrapped, not as a DecodeError.
func TestStateReaderReaderFails(t *testing.T) {
	_, err := beacon.OpenState(failingReaderAt{}, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: 3 << 20})
	require.ErrorIs(t, err, errDisk)
	require.NotErrorAs(t, err, new(*beacon.DecodeError))
	require.Contains(t, err.Error(), fmt.Sprint(3<<20-1), "the byte the read was at (the claimed last one, read first)")
}
