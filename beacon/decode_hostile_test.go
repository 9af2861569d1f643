package beacon_test

// The decoders against hostile input: repeated JSON keys, list lengths
// beyond a 32-bit int, a size hint that lies, and an input shorter than the
// SSZ fixed part. Allocation stays bounded by the input, and each refusal is
// a DecodeError naming the field. The helpers are prefixed hard.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// hardReader hides a reader's size (only Read), so the decoders cannot
// find it by themselves.
type hardReader struct{ r io.Reader }

func (h hardReader) Read(p []byte) (int, error) { return h.r.Read(p) }

// hardAllocated returns the bytes allocated while fn runs.
func hardAllocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// hardDecodeError returns err as a *DecodeError or fails the test.
func hardDecodeError(t *testing.T, err error) *beacon.DecodeError {
	t.Helper()
	var de *beacon.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v (%T), want a *beacon.DecodeError", err, err)
	}
	return de
}

// hardJSON is a fulu state with 3 validators as a beacon API response.
func hardJSON(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := beacon.WriteState(&b, beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 3, 7), beacon.EncodingJSON, &beacon.Flags{Finalized: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func hardReplace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("%q not in the input", old)
	}
	return strings.Replace(s, old, new, 1)
}

// A key repeated in the state object, the envelope, a small object or a
// validator is refused with a DecodeError naming it.
func TestJSONRepeatedKeys(t *testing.T) {
	js := hardJSON(t)
	mini := beacon.MinimalPreset()
	if _, _, err := decodeJSON(strings.NewReader(js), mini); err != nil {
		t.Fatalf("the unchanged input: %v", err)
	}
	for _, tc := range []struct {
		name, in, path, reason string
	}{
		{"envelope flag", `{"finalized":false,` + js[1:], "", "finalized given twice"},
		{"envelope version", `{"version":"fulu",` + js[1:], "", "version given twice"},
		{"state scalar", hardReplace(t, js, `"genesis_validators_root":`, `"slot":"1","genesis_validators_root":`), "slot", "given twice"},
		{"state list", hardReplace(t, js, `"validators":[`, `"validators":[],"validators":[`), "validators", "given twice"},
		{"small object", hardReplace(t, js, `"fork":{`, `"fork":{"epoch":"1",`), "fork.epoch", "given twice (a field may come once in a fork)"},
		{"validator", hardReplace(t, js, `"validators":[{`, `"validators":[{"slashed":false,`), "validators[0].slashed", "given twice (a field may come once in a validator)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := decodeJSON(strings.NewReader(tc.in), mini)
			de := hardDecodeError(t, err)
			if de.Path != tc.path || !strings.Contains(de.Reason, tc.reason) || de.Offset < 0 {
				t.Fatalf("err = %v (path %q), want path %q and %q", err, de.Path, tc.path, tc.reason)
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("%v matches io.ErrUnexpectedEOF", err)
			}
		})
	}
}

// The reviewer's input: "validators":[] a thousand times, then 20 MB of an
// unknown field, with its size known. Each repeat used to reserve room for
// the rest of the input anew (gigabytes); now the second one is an error,
// after a bounded allocation.
func TestJSONRepeatedValidatorsBoundedAllocation(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"version":"fulu","execution_optimistic":false,"finalized":false,"data":{`)
	for range 1000 {
		b.WriteString(`"validators":[],`)
	}
	b.WriteString(`"x":"` + strings.Repeat("a", 20<<20) + `"}}`)
	in := b.String()
	var err error
	start := time.Now()
	alloc := hardAllocated(func() {
		_, _, err = decodeJSON(hardReader{strings.NewReader(in)}, sizeHint(int64(len(in))))
	})
	de := hardDecodeError(t, err)
	if de.Path != "validators" || !strings.Contains(de.Reason, "given twice") {
		t.Fatalf("err = %v, want validators given twice", err)
	}
	if limit := 2 * uint64(len(in)); alloc > limit {
		t.Fatalf("allocated %d bytes for a %d-byte input (limit %d)", alloc, len(in), limit)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
}

// A size hint far larger than the input, over a stream that cannot tell
// its size, reserves nothing: the lists that came are kept at their exact
// length.
func TestJSONLyingHintExactCapacity(t *testing.T) {
	js := hardJSON(t)
	st, _, err := decodeJSON(hardReader{strings.NewReader(js)}, beacon.MinimalPreset(), sizeHint(int64(len(js))+100<<20))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Validators) != 3 || cap(st.Validators) != 3 {
		t.Fatalf("validators: len %d cap %d, want 3 and 3", len(st.Validators), cap(st.Validators))
	}
	if cap(st.Balances) != 3 || cap(st.InactivityScores) != 3 {
		t.Fatalf("per-validator lists: cap %d and %d, want 3", cap(st.Balances), cap(st.InactivityScores))
	}
}

// hardFixedLayout returns where a phase0 or altair state's variable-size
// fields have their offsets in the fixed part, and the fixed part's size,
// from the consensus specs' field order and the preset.
func hardFixedLayout(v beacon.Version, p beacon.Preset) (offsets map[string]int, fixed int) {
	offsets = map[string]int{}
	pos := 0
	fixedField := func(n uint64) { pos += int(n) }
	varField := func(name string) { offsets[name] = pos; pos += 4 }
	fixedField(8 + 32 + 8 + 16 + 112) // genesis_time … latest_block_header
	fixedField(2 * p.SlotsPerHistoricalRoot * 32)
	varField("historical_roots")
	fixedField(72) // eth1_data
	varField("eth1_data_votes")
	fixedField(8) // eth1_deposit_index
	varField("validators")
	varField("balances")
	fixedField(p.EpochsPerHistoricalVector*32 + p.EpochsPerSlashingsVector*8)
	if v == beacon.Phase0 {
		varField("previous_epoch_attestations")
		varField("current_epoch_attestations")
	} else {
		varField("previous_epoch_participation")
		varField("current_epoch_participation")
	}
	fixedField(1 + 3*40) // justification_bits, the three checkpoints
	if v == beacon.Altair {
		varField("inactivity_scores")
		fixedField(2 * (p.SyncCommitteeSize*48 + 48))
	}
	return offsets, pos
}

// A participation list that claims more than 2^31 bytes (3 GB): a
// DecodeError on every platform, never a panic (on 32-bit platforms the
// count used to overflow an int into a negative length).
func TestSSZListOverIntClaim(t *testing.T) {
	p := beacon.MinimalPreset()
	b, err := marshalSSZ(beacontest.NewState(beacon.Altair, p, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	offs, fixed := hardFixedLayout(beacon.Altair, p)
	if got := binary.LittleEndian.Uint32(b[offs["historical_roots"]:]); got != uint32(fixed) {
		t.Fatalf("layout: first offset %d, fixed part %d", got, fixed)
	}
	claim := binary.LittleEndian.Uint32(b[offs["previous_epoch_participation"]:]) + 3_000_000_000
	binary.LittleEndian.PutUint32(b[offs["current_epoch_participation"]:], claim)
	binary.LittleEndian.PutUint32(b[offs["inactivity_scores"]:], claim)
	for name, decode := range map[string]func() error{
		"stream": func() error {
			_, err := decodeSSZ(hardReader{bytes.NewReader(b)}, beacon.Altair, p)
			return err
		},
		"hint": func() error {
			_, err := decodeSSZ(hardReader{bytes.NewReader(b)}, beacon.Altair, p, sizeHint(int64(claim)+100))
			return err
		},
	} {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: panic: %v", name, r)
				}
			}()
			err = decode()
		}()
		de := hardDecodeError(t, err)
		if de.Path != "previous_epoch_participation" && !strings.HasPrefix(de.Path, "previous_epoch_participation[") {
			t.Fatalf("%s: err = %v, want it in previous_epoch_participation", name, err)
		}
		if strconv.IntSize == 32 && !strings.Contains(de.Reason, "more than this platform can hold") {
			t.Fatalf("%s: err = %v, want the 32-bit refusal", name, err)
		}
	}
}

// A hint of 3 GiB (a server's Content-Length) over a body that stops after
// the fixed part, whose offsets give the validator list nearly all of it:
// the hint is a claim, and the decoder reserves nothing for it before the
// bytes arrive (it used to reserve the whole 3 GiB, then 1 GiB); it
// reports the truncation.
func TestSSZHostileSizeHint(t *testing.T) {
	p := beacon.MinimalPreset()
	b, err := marshalSSZ(beacontest.NewState(beacon.Phase0, p, 4, 1))
	if err != nil {
		t.Fatal(err)
	}
	offs, fixed := hardFixedLayout(beacon.Phase0, p)
	const hint = int64(3 << 30)
	end := uint32(int64(fixed) + 121*((hint-int64(fixed))/121)) // validators: fixed..end
	for name, o := range map[string]uint32{"historical_roots": uint32(fixed), "eth1_data_votes": uint32(fixed), "validators": uint32(fixed),
		"balances": end, "previous_epoch_attestations": end, "current_epoch_attestations": end} {
		binary.LittleEndian.PutUint32(b[offs[name]:], o)
	}
	in := b[:fixed]
	alloc := hardAllocated(func() {
		_, err = decodeSSZ(hardReader{bytes.NewReader(in)}, beacon.Phase0, p, sizeHint(hint))
	})
	de := hardDecodeError(t, err)
	switch {
	case !strings.HasPrefix(de.Path, "validators"):
		t.Fatalf("err = %v, want it in validators", err)
	case strconv.IntSize == 32:
		// 3 GiB of validators do not fit a 32-bit address space.
		if !strings.Contains(de.Reason, "more than this platform can hold") {
			t.Fatalf("err = %v, want the 32-bit refusal", err)
		}
	case !errors.Is(err, io.ErrUnexpectedEOF):
		t.Fatalf("err = %v, want a truncation", err)
	}
	if limit := boundsLimit(len(in)); alloc > limit {
		t.Fatalf("allocated %d bytes for a %d-byte input with a hint of %d (limit %d)", alloc, len(in), hint, limit)
	}
}

// A whole input (its size known) shorter than the fork's fixed part, here
// a state of another preset, is reported as truncated with both sizes, and
// the reason says that another fork or preset looks the same; it does not
// match io.ErrUnexpectedEOF, which invites a retry.
func TestSSZShorterThanFixedPart(t *testing.T) {
	minimal, err := marshalSSZ(beacontest.NewState(beacon.Altair, beacon.MinimalPreset(), 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	for name, decode := range map[string]func() error{
		"slice": func() error { _, err := unmarshalSSZ(minimal, beacon.Altair); return err },
		"reader": func() error {
			_, err := decodeSSZ(bytes.NewReader(minimal), beacon.Altair)
			return err
		},
		"hint": func() error {
			_, err := decodeSSZ(hardReader{bytes.NewReader(minimal)}, beacon.Altair, sizeHint(int64(len(minimal))))
			return err
		},
	} {
		err := decode()
		de := hardDecodeError(t, err)
		want := "truncated: its " + strconv.Itoa(len(minimal)) + " bytes (its whole size) end inside the fixed part of an altair state with the mainnet preset, which is "
		if !strings.Contains(de.Reason, want) || !strings.Contains(de.Reason, "or it is a state of another fork or preset") {
			t.Fatalf("%s: err = %v, want %q", name, err, want)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, beacon.ErrInvalidState) {
			t.Fatalf("%s: err = %v matches io.ErrUnexpectedEOF or not ErrInvalidState", name, err)
		}
	}
	// Without a known size, the same bytes end early: a truncation.
	_, err = decodeSSZ(hardReader{bytes.NewReader(minimal)}, beacon.Altair)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("unsized: err = %v, want io.ErrUnexpectedEOF", err)
	}
}
