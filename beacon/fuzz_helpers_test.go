package beacon_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// What the decoder fuzz targets share. A fuzzer mutates each input
// thousands of times and minimises every new one, so the targets keep
// their inputs small: their seeds are states of a few validators in a tiny
// preset (a few KB) beside the minimal one, and inputs over fuzzMaxInput
// are skipped, except the recorded body and its prefixes, which every run
// (plain `go test` and fuzzing alike) decodes in full. Minimising a state
// of a few KB still takes as long as it is allowed to, so run them with a
// small -fuzzminimizetime (.ci/fuzz uses 100x): Go's default of 60 s per
// new input leaves a short run no time to fuzz.

// fuzzMaxInput is the largest input the fuzz targets decode, other than
// the recorded body: a minimal-preset state of a few validators is about
// 15 KB, a mainnet-preset one at least 2.5 MB (its vectors alone).
const fuzzMaxInput = 256 << 10

// recordedGenesis returns the recorded Sepolia genesis (SSZ, mainnet
// preset; see testdata/SOURCES.md).
func recordedGenesis(tb testing.TB) []byte {
	tb.Helper()
	b, err := os.ReadFile("testdata/sepolia-genesis.ssz")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// fuzzSkip reports whether a fuzz target should skip data: it is over
// fuzzMaxInput and not a prefix of the recorded body rec.
func fuzzSkip(data, rec []byte) bool {
	return len(data) > fuzzMaxInput && !bytes.HasPrefix(rec, data)
}

// fuzzTinyPreset is a valid preset with the shortest vectors, so fuzz inputs
// stay a few kilobytes.
func fuzzTinyPreset() beacon.Preset {
	p := beacon.MinimalPreset()
	p.Name = "tiny"
	p.SlotsPerEpoch, p.EpochsPerEth1VotingPeriod = 1, 1
	p.SlotsPerHistoricalRoot, p.EpochsPerHistoricalVector, p.EpochsPerSlashingsVector = 2, 2, 2
	p.SyncCommitteeSize, p.MaxValidatorsPerCommittee, p.MaxAttestations = 2, 16, 2
	return p
}

// The presets a fuzz input selects (its preset byte modulo 3).
const (
	fuzzMainnet uint8 = iota
	fuzzMinimal
	fuzzTiny
)

// fuzzPreset returns the preset that sel selects.
func fuzzPreset(sel uint8) beacon.Preset {
	switch sel % 3 {
	case fuzzMinimal:
		return beacon.MinimalPreset()
	case fuzzTiny:
		return fuzzTinyPreset()
	}
	return beacon.MainnetPreset()
}

func TestTinyPresetValid(t *testing.T) {
	if _, err := beacon.New("https://node.example", "k3y", beacon.WithPreset(fuzzTinyPreset())); err != nil {
		t.Fatal(err)
	}
}
