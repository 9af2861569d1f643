package beacon_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// FuzzStateReader opens any bytes as a minimal-preset state of any fork
// and reads every field, validator and balance: nothing panics, every
// failure is a *DecodeError (or an InputError for a range the lengths
// rule out), and whatever ReadState decodes, the reader reads the same.
// Seeds: a generated state of every fork, and Lodestar's gloas states.
func FuzzStateReader(f *testing.F) {
	p := beacon.MinimalPreset()
	for _, v := range allForks() {
		b, err := marshalSSZ(beacontest.NewState(v, p, 3, uint64(v)))
		require.NoError(f, err)
		f.Add(b, byte(v))
	}
	for _, name := range []string{"minimal-1", "minimal-3"} {
		b, err := os.ReadFile("testdata/gloas/" + name + ".ssz")
		require.NoError(f, err)
		f.Add(b, byte(beacon.Gloas))
	}
	f.Fuzz(checkStateReaderInput)
}

// TestStateReaderCorruptStates runs FuzzStateReader's check over 1,600
// states with random bytes changed, some cut short, each opened as a
// random fork: what the fuzzer does, in every test run.
func TestStateReaderCorruptStates(t *testing.T) {
	p := beacon.MinimalPreset()
	r := rand.New(rand.NewPCG(1, 2))
	for _, v := range allForks() {
		b, err := marshalSSZ(beacontest.NewState(v, p, 3, uint64(v)))
		require.NoError(t, err)
		for range 200 {
			d := bytes.Clone(b)
			for range 1 + r.IntN(4) {
				d[r.IntN(len(d))] = byte(r.IntN(256))
			}
			if r.IntN(4) == 0 {
				d = d[:r.IntN(len(d))]
			}
			checkStateReaderInput(t, d, byte(r.IntN(256)))
		}
	}
}

// checkStateReaderInput opens data as a minimal state of fork fork (mod
// the number of forks) and reads everything, holding the reads to
// ReadState's decoding.
func checkStateReaderInput(t *testing.T, data []byte, fork byte) {
	p := beacon.MinimalPreset()
	v := beacon.Version(fork % byte(beacon.Gloas+1))
	typed := func(err error) {
		if err == nil {
			return
		}
		var de *beacon.DecodeError
		var ie *nodeaccess.InputError
		if !errors.As(err, &de) && !errors.As(err, &ie) {
			t.Fatalf("untyped error: %v", err)
		}
	}
	full, _, fullErr := beacon.ReadState(bytes.NewReader(data), sszBody(v, len(data)), beacon.ReadOptions{Preset: p})
	sr, err := beacon.OpenState(bytes.NewReader(data), sszBody(v, len(data)), p)
	typed(err)
	if err != nil {
		if fullErr == nil {
			t.Fatalf("OpenState fails where ReadState succeeds: %v", err)
		}
		return
	}
	names := beacon.FieldNames(v, p)
	for _, name := range names {
		_, err := sr.Fields(name)
		typed(err)
		_, err = sr.Len(name)
		typed(err)
	}
	for _, list := range []string{"validators", "balances"} {
		n, err := sr.Len(list)
		require.NoError(t, err)
		if list == "validators" {
			_, err = sr.Validators(0, beacon.ValidatorIndex(n))
		} else {
			_, err = sr.Balances(0, beacon.ValidatorIndex(n))
		}
		typed(err)
	}
	all, err := sr.Fields(names...)
	typed(err)
	if fullErr == nil {
		require.NoError(t, err)
		require.Equal(t, full, all)
	}
}
