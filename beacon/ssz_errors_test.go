package beacon_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// fieldPos returns where field i of the state type starts in the fixed
// part (its value, or its offset for a variable field).
func fieldPos(t containerT, i int) int { return t[:i].fixedPartSize() }

func offsetOf(b []byte, t containerT, i int) int {
	return int(binary.LittleEndian.Uint32(b[fieldPos(t, i):]))
}

func put32(b []byte, at, v int) { binary.LittleEndian.PutUint32(b[at:], uint32(v)) }

func mustMarshal(t *testing.T, s *beacon.State) []byte {
	t.Helper()
	b, err := marshalSSZ(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantDecodeError checks that err is a *DecodeError with the path and a
// reason containing reason.
func wantDecodeError(t *testing.T, err error, path, reason string) {
	t.Helper()
	var de *beacon.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v, want a *DecodeError", err)
	}
	if !errors.Is(err, beacon.ErrInvalidState) || de.Format != "ssz" {
		t.Fatalf("err = %v: not ErrInvalidState or not ssz", err)
	}
	if de.Path != path || !strings.Contains(de.Reason, reason) {
		t.Fatalf("err = %v (path %q, reason %q), want path %q and a reason with %q", err, de.Path, de.Reason, path, reason)
	}
}

// decodeBoth decodes b from a slice and from a stream of unknown size and
// checks that both fail with the same error.
func decodeBoth(t *testing.T, b []byte, v beacon.Version, p beacon.Preset) error {
	t.Helper()
	_, err1 := unmarshalSSZ(b, v, p)
	_, err2 := decodeSSZ(&choppyReader{b: b}, v, p)
	if err1 == nil || err2 == nil {
		t.Fatalf("decoded: slice err %v, stream err %v", err1, err2)
	}
	return err1
}

func TestSSZDecodeErrorsFulu(t *testing.T) {
	p := beacon.MinimalPreset()
	typ := refStateType(beacon.Fulu, p)
	const (
		iHistRoots  = 7
		iVotes      = 9
		iValidators = 11
		iBalances   = 12
		iJustBits   = 17
		iHeader     = 24
	)
	orig := mustMarshal(t, beacontest.NewState(beacon.Fulu, p, 37, 3))
	tests := []struct {
		name   string
		mutate func(b []byte) []byte
		path   string
		reason string
	}{
		{"first offset", func(b []byte) []byte { put32(b, fieldPos(typ, iHistRoots), offsetOf(b, typ, iHistRoots)+32); return b },
			"historical_roots", "the first offset must be"},
		{"decreasing offset", func(b []byte) []byte {
			put32(b, fieldPos(typ, iValidators), offsetOf(b, typ, iVotes)-1)
			return b
		}, "validators", "before the previous field's offset"},
		{"offset beyond the input", func(b []byte) []byte { put32(b, fieldPos(typ, iBalances), len(b)+1); return b },
			"balances", "beyond the end of the input"},
		{"validators not whole", func(b []byte) []byte { put32(b, fieldPos(typ, iBalances), offsetOf(b, typ, iBalances)+8); return b },
			"validators", "not a whole number of 121-byte elements"},
		{"bad bool", func(b []byte) []byte { b[offsetOf(b, typ, iValidators)+3*121+88] = 2; return b },
			"validators[3]", "slashed: 0x2 is not a boolean"},
		{"justification bits", func(b []byte) []byte { b[fieldPos(typ, iJustBits)] = 0x1f; return b },
			"justification_bits", "beyond the 4 of a Bitvector[4]"},
		{"extra_data offset", func(b []byte) []byte { put32(b, offsetOf(b, typ, iHeader)+436, 0); return b },
			"latest_execution_payload_header.extra_data", "offset 0, want 584"},
		{"one trailing byte", func(b []byte) []byte { return append(b, 0) },
			"pending_consolidations", "not a whole number of 16-byte elements"},
		{"header shorter than its fixed part", func(b []byte) []byte {
			put32(b, fieldPos(typ, iHeader+1+2), offsetOf(b, typ, iHeader)+100) // historical_summaries
			return b
		}, "latest_execution_payload_header", "fewer than the header's fixed 584"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.mutate(bytes.Clone(orig))
			wantDecodeError(t, decodeBoth(t, b, beacon.Fulu, p), tc.path, tc.reason)
		})
	}
}

// TestSSZDecodeOverLimits encodes states with a preset whose limits are
// wider (same layout) and decodes them with the minimal preset.
func TestSSZDecodeOverLimits(t *testing.T) {
	wide := beacon.MinimalPreset()
	wide.Name = "wide"
	wide.EpochsPerEth1VotingPeriod *= 2 // eth1_data_votes limit 64
	wide.MaxExtraDataBytes = 40
	wide.MaxValidatorsPerCommittee = 4096
	p := beacon.MinimalPreset()

	s := beacontest.NewState(beacon.Deneb, wide, 5, 1)
	s.Eth1DataVotes = make([]beacon.Eth1Data, p.EpochsPerEth1VotingPeriod*p.SlotsPerEpoch+1)
	wantDecodeError(t, decodeBoth(t, mustMarshal(t, s), beacon.Deneb, p), "eth1_data_votes", "33 elements, over the list's limit of 32")

	s = beacontest.NewState(beacon.Deneb, wide, 5, 1)
	s.LatestExecutionPayloadHeader.ExtraData = make([]byte, 33)
	b := mustMarshal(t, s)
	wantDecodeError(t, decodeBoth(t, b, beacon.Deneb, p), "latest_execution_payload_header.extra_data", "33 bytes, over MAX_EXTRA_DATA_BYTES (32)")

	// Bellatrix: the header is the last field, read to the end of a
	// stream of unknown size.
	s = beacontest.NewState(beacon.Bellatrix, wide, 5, 1)
	s.LatestExecutionPayloadHeader.ExtraData = make([]byte, 33)
	b = mustMarshal(t, s)
	_, err := decodeSSZ(&choppyReader{b: b}, beacon.Bellatrix, p)
	wantDecodeError(t, err, "latest_execution_payload_header.extra_data", "more than 32 bytes")

	s = beacontest.NewState(beacon.Phase0, wide, 5, 1)
	bits := make(beacon.Bitlist, 3000/8+1)
	bits[len(bits)-1] = 1 << (3000 % 8)
	s.PreviousEpochAttestations = []beacon.PendingAttestation{}
	s.CurrentEpochAttestations[0].AggregationBits = bits
	wantDecodeError(t, decodeBoth(t, mustMarshal(t, s), beacon.Phase0, p), "current_epoch_attestations[0].aggregation_bits", "longer than a bitlist of at most 2048 bits")
}

func TestSSZDecodeErrorsPhase0(t *testing.T) {
	p := beacon.MinimalPreset()
	typ := refStateType(beacon.Phase0, p)
	const iCurrent = 16
	s := beacontest.NewState(beacon.Phase0, p, 9, 4)
	orig := mustMarshal(t, s)
	n := len(s.CurrentEpochAttestations)

	b := bytes.Clone(orig)
	b[len(b)-1] = 0 // the last bitlist loses its length bit
	wantDecodeError(t, decodeBoth(t, b, beacon.Phase0, p), "current_epoch_attestations["+strconv.Itoa(n-1)+"].aggregation_bits", "no length bit")

	b = bytes.Clone(orig)
	put32(b, offsetOf(b, typ, iCurrent), 3)
	wantDecodeError(t, decodeBoth(t, b, beacon.Phase0, p), "current_epoch_attestations", "first offset 3 is not a positive multiple of 4")

	b = bytes.Clone(orig)
	at := offsetOf(b, typ, iCurrent)
	put32(b, at+4*n-4, len(b)) // the last element's offset beyond the list
	if n > 1 {
		wantDecodeError(t, decodeBoth(t, b, beacon.Phase0, p), "current_epoch_attestations["+strconv.Itoa(n-1)+"]", "out of order or beyond")
	}

	b = bytes.Clone(orig)
	put32(b, at+4*n, 147) // the first element's own aggregation_bits offset
	wantDecodeError(t, decodeBoth(t, b, beacon.Phase0, p), "current_epoch_attestations[0].aggregation_bits", "offset 147, want 148")
}

// TestSSZTruncation cuts a state at many points: with the full size
// hinted, every cut is a truncation (io.ErrUnexpectedEOF); without a size,
// every cut before the last field is one too; from a slice, every cut is
// an error or (inside the last list, at an element boundary) a shorter
// state.
func TestSSZTruncation(t *testing.T) {
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Bellatrix, beacon.Fulu} {
		p := beacon.MinimalPreset()
		typ := refStateType(v, p)
		b := mustMarshal(t, beacontest.NewState(v, p, 21, 5))
		lastStart := offsetOf(b, typ, lastVariable(typ))
		for cut := 0; cut < len(b); cut += 1 + cut/50 {
			_, err := decodeSSZ(onlyReader{bytes.NewReader(b[:cut])}, v, p, sizeHint(int64(len(b))))
			if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, beacon.ErrInvalidState) {
				t.Fatalf("%s: cut %d with hint: err = %v, want truncation", v, cut, err)
			}
			_, err = decodeSSZ(onlyReader{bytes.NewReader(b[:cut])}, v, p)
			if cut < lastStart && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%s: cut %d without hint: err = %v, want truncation", v, cut, err)
			}
			s, err := unmarshalSSZ(b[:cut], v, p)
			if err == nil {
				if cut < lastStart {
					t.Fatalf("%s: cut %d before the last field decoded", v, cut)
				}
				if again := mustMarshal(t, s); !bytes.Equal(again, b[:cut]) {
					t.Fatalf("%s: cut %d decoded to a state that does not re-encode to the input", v, cut)
				}
			} else if !errors.Is(err, beacon.ErrInvalidState) {
				t.Fatalf("%s: cut %d: err = %v, want ErrInvalidState", v, cut, err)
			}
		}
	}
}

// lastVariable returns the index of the last variable-size field.
func lastVariable(t containerT) int {
	last := -1
	for i, f := range t {
		if f.size() < 0 {
			last = i
		}
	}
	return last
}

func TestSSZTrailingBytesWithHint(t *testing.T) {
	p := beacon.MinimalPreset()
	b := mustMarshal(t, beacontest.NewState(beacon.Electra, p, 3, 2))
	long := append(bytes.Clone(b), make([]byte, 16)...)
	_, err := decodeSSZ(onlyReader{bytes.NewReader(long)}, beacon.Electra, p, sizeHint(int64(len(b))))
	wantDecodeError(t, err, "", "trailing bytes after the state")
}

func TestSSZReaderFailure(t *testing.T) {
	p := beacon.MinimalPreset()
	b := mustMarshal(t, beacontest.NewState(beacon.Capella, p, 3, 2))
	boom := errors.New("connection reset")
	_, err := decodeSSZ(&failingReader{b: b[:1000], err: boom}, beacon.Capella, p)
	if !errors.Is(err, boom) || errors.Is(err, beacon.ErrInvalidState) {
		t.Fatalf("err = %v, want the reader's error, not ErrInvalidState", err)
	}
}

func TestSSZBadArguments(t *testing.T) {
	b := readSepolia(t)
	if _, err := unmarshalSSZ(b, beacon.Version(9)); !errors.Is(err, beacon.ErrUnsupportedVersion) {
		t.Fatalf("unknown version: err = %v", err)
	}
	if _, err := decodeSSZ(bytes.NewReader(b), beacon.Phase0, beacon.Preset{Name: "empty"}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("bad preset: err = %v", err)
	}
	_, err := unmarshalSSZ(b[:100], beacon.Phase0)
	if errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "its 100 bytes (its whole size) end inside the fixed part of a phase0 state with the mainnet preset, which is 2687377 bytes") {
		t.Fatalf("short input: err = %v", err)
	}
}

// TestSSZRefusesInvalidStates: a field the fork does not have, a vector of
// the wrong length, or justification bits beyond 4 are refused by every
// encoder and by HashTreeRoot, and nothing is written.
func TestSSZRefusesInvalidStates(t *testing.T) {
	p := beacon.MinimalPreset()
	bad := map[string]*beacon.State{}
	s := beacontest.NewState(beacon.Phase0, p, 3, 1)
	s.InactivityScores = []uint64{1, 2, 3}
	bad["inactivity_scores in phase0"] = s
	s = beacontest.NewState(beacon.Capella, p, 3, 1)
	s.LatestExecutionPayloadHeader.BlobGasUsed = 1
	bad["blob gas in capella"] = s
	s = beacontest.NewState(beacon.Fulu, p, 3, 1)
	s.BlockRoots = s.BlockRoots[1:]
	bad["short block_roots"] = s
	s = beacontest.NewState(beacon.Altair, p, 3, 1)
	s.JustificationBits = 0x10
	bad["justification bits"] = s
	s = beacontest.NewState(beacon.Altair, p, 3, 1)
	s.Version = beacon.Version(12)
	bad["unknown version"] = s
	for name, s := range bad {
		var w bytes.Buffer
		if err := beacon.WriteState(&w, s, beacon.EncodingSSZ, nil); err == nil || w.Len() != 0 {
			t.Errorf("%s: EncodeSSZ err %v, wrote %d bytes", name, err, w.Len())
		}
		if _, err := marshalSSZ(s); err == nil {
			t.Errorf("%s: MarshalSSZ encoded", name)
		}
		if _, err := sizeSSZ(s); err == nil {
			t.Errorf("%s: SizeSSZ succeeded", name)
		}
		if _, err := beacon.HashTreeRoot(s); err == nil {
			t.Errorf("%s: HashTreeRoot succeeded", name)
		}
	}
}

// errWriter fails after n bytes.
type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return w.n, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestSSZEncodeWriterFailure(t *testing.T) {
	s := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), 3000, 1)
	err := beacon.WriteState(&errWriter{n: 100_000}, s, beacon.EncodingSSZ, nil)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
}
