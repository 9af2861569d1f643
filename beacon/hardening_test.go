package beacon_test

// Tests of the fixes from the review of issue 5: repeated JSON keys, lists
// beyond a 32-bit int, a lying size hint, downloads into files that held
// data, a whole input shorter than the fixed part, the zero Preset, the
// 406 hint, cuts at rune boundaries, and the field docs. The helpers here
// are this file's own (prefixed hard), so the file stands alone.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nodeaccess/nodeaccess"
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

// A size hint far larger than the input reserves a large validator list;
// the list that came is kept at its exact length, not in that capacity.
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
// the decoder reserves at most 1 GiB before the bytes arrive (it used to
// reserve the whole 3 GiB), and reports the truncation.
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
	if limit := uint64(1<<30 + 16<<20); alloc > limit {
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

// The zero Preset means mainnet everywhere: in a read, in a client, in a
// State.
func TestZeroPresetMeansMainnet(t *testing.T) {
	b, err := marshalSSZ(beacontest.NewState(beacon.Phase0, beacon.MainnetPreset(), 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	st, err := unmarshalSSZ(b, beacon.Phase0, beacon.Preset{})
	if err != nil {
		t.Fatalf("Preset{}: %v", err)
	}
	if st.Preset != beacon.MainnetPreset() {
		t.Fatalf("decoded with preset %+v", st.Preset)
	}
	srv := beacontest.NewT(t, beacontest.WithStates(beacontest.NewState(beacon.Phase0, beacon.MainnetPreset(), 3, 1)))
	c, err := beacon.New(srv.URL, srv.Key(), beacon.WithPreset(beacon.Preset{}))
	if err != nil {
		t.Fatalf("WithPreset(Preset{}): %v", err)
	}
	if st, _, err := c.State(context.Background(), beacon.Head); err != nil || st.Preset != beacon.MainnetPreset() {
		t.Fatalf("client preset: %v", err)
	}
	if _, err := beacon.New("https://node.example", "k3y", beacon.WithPreset(beacon.Preset{Name: "incomplete"})); !errors.Is(err, nodeaccess.ErrInvalidInput) {
		t.Fatalf("incomplete preset: err = %v", err)
	}
	zero := beacontest.NewState(beacon.Phase0, beacon.MainnetPreset(), 3, 1)
	zero.Preset = beacon.Preset{}
	r1, err := beacon.HashTreeRoot(zero)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := beacon.HashTreeRoot(st)
	if err != nil || r1 != r2 {
		t.Fatalf("a State with the zero Preset hashes as mainnet: %s, %s, %v", r1, r2, err)
	}
}

// hardServer serves an SSZ body; the first response breaks off after half
// of it when breakFirst.
func hardServer(t *testing.T, body []byte, breakFirst bool) (*beacon.Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Eth-Consensus-Version", "fulu")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if n.Add(1) == 1 && breakFirst {
			_, _ = w.Write(body[:len(body)/2])
			_ = http.NewResponseController(w).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := beacon.New(srv.URL, "k3y", nodeaccess.WithMaxAttempts(3), nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c, &n
}

// memFile is a writer that could be rewound and truncated, as an *os.File
// can, but has no Stat.
type memFile struct {
	b   []byte
	pos int64
}

func (m *memFile) Write(p []byte) (int, error) {
	if need := m.pos + int64(len(p)); need > int64(len(m.b)) {
		m.b = append(m.b, make([]byte, need-int64(len(m.b)))...)
	}
	copy(m.b[m.pos:], p)
	m.pos += int64(len(p))
	return len(p), nil
}

func (m *memFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += m.pos
	case io.SeekEnd:
		off += int64(len(m.b))
	}
	m.pos = off
	return off, nil
}

func (m *memFile) Truncate(n int64) error { m.b = m.b[:n]; return nil }

// DownloadState never seeks, truncates or rewrites the caller's writer on
// its own: whatever the writer (a new file, a file written from its start
// or at its end, one opened with O_APPEND, any writer that could be
// rewound), a body that breaks off after its first byte ends the call with
// ErrUnavailable after one attempt, and the writer holds what it held and
// then the part of the body that came. (Before issue 22 it truncated files
// back and fetched again, which cut what an O_APPEND file held.)
func TestDownloadNeverRewindsTheWriter(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	prior := []byte("PRE-EXISTING DATA")
	dir := t.TempDir()
	open := func(t *testing.T, name string, flag int, seekEnd bool) *os.File {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, prior, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.Close() })
		if seekEnd {
			if _, err := f.Seek(0, io.SeekEnd); err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	read := func(t *testing.T, f *os.File) []byte {
		got, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, tc := range []struct {
		name string
		w    func(t *testing.T) (io.Writer, func() []byte)
		// before is what the writer holds before the body's part: the
		// prior data, or nothing for a new file and one overwritten from
		// its start (whose prior data the body's part covers).
		before []byte
	}{
		{"new file", func(t *testing.T) (io.Writer, func() []byte) {
			f, err := os.Create(filepath.Join(dir, "new"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = f.Close() })
			return f, func() []byte { return read(t, f) }
		}, nil},
		{"file written from its start", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "overwrite", os.O_RDWR, false)
			return f, func() []byte { return read(t, f) }
		}, nil},
		{"file at its end", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "end", os.O_RDWR, true)
			return f, func() []byte { return read(t, f) }
		}, prior},
		{"O_APPEND file at position 0", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "append", os.O_APPEND|os.O_WRONLY, false)
			return f, func() []byte { return read(t, f) }
		}, prior},
		{"O_APPEND file at its end", func(t *testing.T) (io.Writer, func() []byte) {
			f := open(t, "append-end", os.O_APPEND|os.O_WRONLY, true)
			return f, func() []byte { return read(t, f) }
		}, prior},
		{"seekable writer without Stat, at its end", func(t *testing.T) (io.Writer, func() []byte) {
			m := &memFile{b: bytes.Clone(prior), pos: int64(len(prior))}
			return m, func() []byte { return m.b }
		}, prior},
		{"buffer", func(t *testing.T) (io.Writer, func() []byte) {
			b := bytes.NewBuffer(bytes.Clone(prior))
			return b, func() []byte { return b.Bytes() }
		}, prior},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, contents := tc.w(t)
			c, n := hardServer(t, body, true)
			_, err := c.DownloadState(context.Background(), beacon.Head, w)
			if !errors.Is(err, nodeaccess.ErrUnavailable) || n.Load() != 1 {
				t.Fatalf("err = %v after %d attempts, want ErrUnavailable after 1", err, n.Load())
			}
			if !strings.Contains(err.Error(), "the body broke off after") || !strings.Contains(err.Error(), "(WithRestart lets the call fetch it again)") {
				t.Fatalf("err = %v", err)
			}
			got := contents()
			if len(got) <= len(tc.before) || !bytes.Equal(got[:len(tc.before)], tc.before) {
				t.Fatalf("writer holds %d bytes starting %q, want %q first", len(got), got[:min(len(got), 20)], tc.before)
			}
			part := got[len(tc.before):]
			if len(part) == 0 || len(part) >= len(body) || !bytes.Equal(part, body[:len(part)]) {
				t.Fatalf("writer holds %d bytes of the body after what it held, want part of it, written once", len(part))
			}
		})
	}
}

// With WithRestart the caller says how to start again: reset runs before
// each attempt that writes after one that wrote, and only then; what it
// leaves is where the next attempt writes. An error from it ends the call.
func TestDownloadWithRestart(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	prior := []byte("PRE-EXISTING DATA")

	t.Run("file kept up to its size before the call", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state")
		if err := os.WriteFile(path, prior, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		resets := 0
		c, n := hardServer(t, body, true)
		d, err := c.DownloadState(context.Background(), beacon.Head, f, beacon.WithRestart(func() error {
			resets++
			return f.Truncate(int64(len(prior))) // O_APPEND: writes go to the end
		}))
		if err != nil || n.Load() != 2 || resets != 1 || d.Bytes != int64(len(body)) {
			t.Fatalf("err = %v after %d attempts and %d resets, %d bytes", err, n.Load(), resets, d.Bytes)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append(bytes.Clone(prior), body...)) {
			t.Fatalf("file holds %d bytes, want the prior data and the body", len(got))
		}
	})
	t.Run("no reset when nothing was written", func(t *testing.T) {
		c, n := hardServer(t, body, false)
		var buf bytes.Buffer
		if _, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.WithRestart(func() error {
			t.Error("reset called")
			return nil
		})); err != nil || n.Load() != 1 || !bytes.Equal(buf.Bytes(), body) {
			t.Fatalf("err = %v after %d attempts", err, n.Load())
		}
	})
	t.Run("reset fails", func(t *testing.T) {
		c, n := hardServer(t, body, true)
		var buf bytes.Buffer
		_, err := c.DownloadState(context.Background(), beacon.Head, &buf, beacon.WithRestart(func() error {
			return errors.New("read-only file")
		}))
		if err == nil || err.Error() != "beacon: getStateV2: WithRestart: read-only file" || n.Load() != 2 {
			t.Fatalf("err = %v after %d attempts", err, n.Load())
		}
	})
}

// The 406 hint matches the encoding the call asked for.
func TestNotAcceptableHint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotAcceptable)
		_, _ = io.WriteString(w, `{"code":406,"message":"Accepted media type not supported"}`)
	}))
	defer srv.Close()
	for enc, want := range map[beacon.Encoding]string{
		beacon.EncodingAuto: " (the node serves the state in neither SSZ nor JSON, though the request accepted both)",
		beacon.EncodingSSZ:  " (the node cannot serve SSZ, which WithEncoding(EncodingSSZ) asked for; WithEncoding(EncodingAuto) accepts JSON too)",
		beacon.EncodingJSON: " (the node cannot serve JSON, which WithEncoding(EncodingJSON) asked for; WithEncoding(EncodingAuto) accepts SSZ too)",
	} {
		c, err := beacon.New(srv.URL, "k3y", beacon.WithEncoding(enc), nodeaccess.WithMaxAttempts(1))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.State(context.Background(), beacon.Head)
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Fatalf("%s: err = %v, want the suffix %q", enc, err, want)
		}
		_, err = c.DownloadState(context.Background(), beacon.Head, io.Discard)
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Fatalf("%s: download: err = %v, want the suffix %q", enc, err, want)
		}
	}
}

// A rejected state id is quoted cut at a rune boundary: valid UTF-8, no
// broken character.
func TestStateIDCutAtRune(t *testing.T) {
	_, err := beacon.ParseStateID("a" + strings.Repeat("é", 100))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !utf8.ValidString(msg) || strings.Contains(msg, `\x`) || !strings.Contains(msg, `é…"`) {
		t.Fatalf("err = %q", msg)
	}
}

// Every field of the state and of its containers has a doc comment, and a
// field whose Go name is not its consensus-specs name in Go case names the
// specs' name.
func TestFieldDocs(t *testing.T) {
	specName := map[string]string{"PublicKey": "`pubkey`", "PublicKeys": "`pubkeys`", "AggregatePublicKey": "`aggregate_pubkey`"}
	fset := token.NewFileSet()
	for _, file := range []string{"types.go", "state.go"} {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				for _, name := range fl.Names {
					doc := fl.Doc.Text()
					if doc == "" {
						t.Errorf("%s: %s.%s has no doc comment", file, ts.Name.Name, name.Name)
					}
					if want, ok := specName[name.Name]; ok && !strings.Contains(doc, want) {
						t.Errorf("%s: %s.%s: the doc does not name %s", file, ts.Name.Name, name.Name, want)
					}
				}
			}
			return false
		})
	}
}
