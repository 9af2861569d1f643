package beacon_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// FuzzReadProver streams any bytes into a Prover as a minimal-preset
// state of any fork: nothing panics, it fails exactly as ReadState fails
// (the same error), and where ReadState decodes a state the Prover's root
// is that state's hash tree root. Seeds: a generated state of every fork,
// and Lodestar's gloas states.
func FuzzReadProver(f *testing.F) {
	for _, v := range allForks() {
		b, err := marshalSSZ(beacontest.NewState(v, beacon.MinimalPreset(), 3, uint64(v)))
		require.NoError(f, err)
		f.Add(b, byte(v), true)
	}
	for _, name := range []string{"minimal-1", "minimal-3"} {
		b, err := os.ReadFile("testdata/gloas/" + name + ".ssz")
		require.NoError(f, err)
		f.Add(b, byte(beacon.Gloas), false)
	}
	f.Fuzz(checkReadProverInput)
}

// TestReadProverCorruptStates runs FuzzReadProver's check over 800 states
// with random bytes changed, some cut short, each read as a random fork,
// sized or not.
func TestReadProverCorruptStates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, v := range allForks() {
		b, err := marshalSSZ(beacontest.NewState(v, beacon.MinimalPreset(), 40, uint64(v)))
		require.NoError(t, err)
		for range 100 {
			d := bytes.Clone(b)
			for range 1 + r.IntN(4) {
				d[r.IntN(len(d))] = byte(r.IntN(256))
			}
			if r.IntN(4) == 0 {
				d = d[:r.IntN(len(d))]
			}
			checkReadProverInput(t, d, byte(r.IntN(256)), r.IntN(2) == 0)
		}
	}
}

// checkReadProverInput streams data into ReadProver and ReadState as a
// minimal state of fork fork (mod the number of forks), with its size
// given or not, and holds the one to the other.
func checkReadProverInput(t *testing.T, data []byte, fork byte, sized bool) {
	v := beacon.Version(fork % byte(beacon.Gloas+1))
	body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: v.String()}
	if sized {
		body.Bytes = int64(len(data))
	}
	st, _, want := beacon.ReadState(onlyReader{bytes.NewReader(data)}, body, beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	p, err := beacon.ReadProver(onlyReader{bytes.NewReader(data)}, body, bytes.NewReader(data), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	if want != nil {
		require.EqualError(t, err, want.Error())
		return
	}
	require.NoError(t, err)
	root, err := beacon.HashTreeRoot(st)
	require.NoError(t, err)
	require.Equal(t, root, p.StateRoot())
}
