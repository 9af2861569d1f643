package beacon_test

// No read allocates more than its input can hold. Files that claim more
// than they hold (a Body.Bytes far above their size, offsets that give the
// validator registry 10 million validators, a saved state cut short) are
// read through every reader of the package that takes a length from its
// input, over readers that tell their size, one that tells a wrong one and
// one that hides it: each read returns an error (or, where it reads only
// bytes that are there, the right value) and allocates no more than
// boundsLimit of the bytes the file really holds.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// boundsClaim is the size the file claimed.
const boundsClaim = 1_390_010_761

// boundsLimit is the most a read may allocate over an input that holds n
// bytes: a small multiple of n, and 1 MiB for the buffers of any read. The
// multiple is what a list that doubles as its bytes arrive costs at worst,
// just after it doubled (4 times its bytes), for validators, which take
// 128 bytes in memory for 121 in SSZ.
func boundsLimit(n int) uint64 { return 17*uint64(n)/4 + 1<<20 }

// boundsInput is a file's bytes and the size its Body claims.
type boundsInput struct {
	name    string
	data    []byte
	claimed int64
}

// boundsSSZ returns a minimal fulu state of n validators in SSZ.
func boundsSSZ(t *testing.T, n int) []byte {
	t.Helper()
	b, err := marshalSSZ(beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), n, 1))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// boundsTenMillion returns b with its offsets moved so that the validator
// registry and the balances hold 10 million elements each, and the size
// that the offsets then give the state.
func boundsTenMillion(t *testing.T, b []byte, n int) ([]byte, int64) {
	t.Helper()
	out := bytes.Clone(b)
	names, at := beacon.VarOffsetAt(beacon.Fulu, beacon.MinimalPreset())
	const want = 10_000_000
	shift := int64(0)
	for i, name := range names {
		off := int64(binary.LittleEndian.Uint32(out[at[i]:])) + shift
		binary.LittleEndian.PutUint32(out[at[i]:], uint32(off))
		switch name {
		case "validators":
			shift += 121 * (want - int64(n))
		case "balances":
			shift += 8 * (want - int64(n))
		}
	}
	return out, int64(len(b)) + shift
}

// boundsInputs are the hostile SSZ files: the claim, offsets for
// 10 million validators, and a saved state cut at several points (its
// Body still says its whole size).
func boundsInputs(t *testing.T) (inputs []boundsInput, whole []byte) {
	t.Helper()
	const n = 8
	whole = boundsSSZ(t, n)
	ten, tenSize := boundsTenMillion(t, whole, n)
	inputs = []boundsInput{
		{"claims 1.39 GB", whole, boundsClaim},
		{"offsets claim 10M validators", ten, tenSize},
	}
	for _, cut := range []int{1000, len(whole) / 2, len(whole) - 200, len(whole) - 1} {
		inputs = append(inputs, boundsInput{fmt.Sprintf("cut at %d of %d", cut, len(whole)), whole[:cut], int64(len(whole))})
	}
	return inputs, whole
}

// boundsFile writes data to a file and returns it open.
func boundsFile(t *testing.T, data []byte) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.ssz")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// boundsAtKinds are the io.ReaderAt a file is read through: a file and a
// bytes.Reader tell its size, a SectionReader the size claimed, and a
// plain wrapper none.
var boundsAtKinds = []struct {
	name  string
	tells bool // the reader tells the size it really holds
	at    func(t *testing.T, data []byte, claimed int64) io.ReaderAt
}{
	{"file", true, func(t *testing.T, data []byte, _ int64) io.ReaderAt { return boundsFile(t, data) }},
	{"bytes.Reader", true, func(_ *testing.T, data []byte, _ int64) io.ReaderAt { return bytes.NewReader(data) }},
	{"SectionReader of the claimed size", false, func(_ *testing.T, data []byte, claimed int64) io.ReaderAt {
		return io.NewSectionReader(bytes.NewReader(data), 0, claimed)
	}},
	{"hidden size", false, func(_ *testing.T, data []byte, _ int64) io.ReaderAt { return onlyReaderAt{bytes.NewReader(data)} }},
}

// boundsStreamKinds are the io.Reader a file is read from.
var boundsStreamKinds = []struct {
	name  string
	tells bool
	r     func(t *testing.T, data []byte) io.Reader
}{
	{"file", true, func(t *testing.T, data []byte) io.Reader { return boundsFile(t, data) }},
	{"bytes.Reader", true, func(_ *testing.T, data []byte) io.Reader { return bytes.NewReader(data) }},
	{"hidden size", false, func(_ *testing.T, data []byte) io.Reader { return hardReader{bytes.NewReader(data)} }},
}

// boundsRead is one read of an open StateReader.
type boundsRead struct {
	name string
	read func(sr *beacon.StateReader) (any, error)
}

// boundsReads are the reads of a StateReader: the ranges of the issue, a
// field of every name, and the lengths.
func boundsReads() []boundsRead {
	reads := []boundsRead{
		{"Validators(0, Len)", func(sr *beacon.StateReader) (any, error) {
			n, err := sr.Len("validators")
			if err != nil {
				return nil, err
			}
			return sr.Validators(0, beacon.ValidatorIndex(n))
		}},
		{"Validators(0, 1<<20)", func(sr *beacon.StateReader) (any, error) { return sr.Validators(0, 1<<20) }},
		{"Balances(0, Len)", func(sr *beacon.StateReader) (any, error) {
			n, err := sr.Len("balances")
			if err != nil {
				return nil, err
			}
			return sr.Balances(0, beacon.ValidatorIndex(n))
		}},
	}
	for _, name := range beacon.FieldNames(beacon.Fulu, beacon.MinimalPreset()) {
		reads = append(reads, boundsRead{"Fields(" + name + ")", func(sr *beacon.StateReader) (any, error) { return sr.Fields(name) }})
	}
	return reads
}

// boundsCheck fails the test when a read of an input of n real bytes
// allocated more than boundsLimit(n).
func boundsCheck(t *testing.T, what string, alloc uint64, n int) {
	t.Helper()
	if limit := boundsLimit(n); alloc > limit {
		t.Errorf("%s: allocated %d bytes over a file of %d bytes (limit %d)", what, alloc, n, limit)
	}
}

// boundsNoPanic runs fn, failing the test if it panics.
func boundsNoPanic(t *testing.T, what string, fn func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: panic: %v", what, r)
		}
	}()
	fn()
}

// boundsClaimError checks the error of an input that claims more than it
// holds: a *DecodeError, a truncation, that names the size claimed and,
// when the reader tells it, the size it holds.
func boundsClaimError(t *testing.T, what string, err error, in boundsInput, tells bool) {
	t.Helper()
	var de *beacon.DecodeError
	if !errors.As(err, &de) || !errors.Is(err, beacon.ErrInvalidState) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("%s: err = %v, want a *DecodeError matching ErrInvalidState and io.ErrUnexpectedEOF", what, err)
		return
	}
	if !tells {
		return
	}
	for _, n := range []int64{int64(len(in.data)), in.claimed} {
		if !strings.Contains(de.Reason, strconv.FormatInt(n, 10)) {
			t.Errorf("%s: err = %v, want it to say %d (held %d, claimed %d)", what, err, n, len(in.data), in.claimed)
		}
	}
}

// TestHostileClaimsStateReader: OpenState refuses a file that holds less
// than its Body says, with both sizes when the reader tells its own; no
// read allocates more than a small multiple of what the file holds.
func TestHostileClaimsStateReader(t *testing.T) {
	inputs, whole := boundsInputs(t)
	wholeBody := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: int64(len(whole))}
	ref, err := beacon.OpenState(bytes.NewReader(whole), wholeBody, beacon.MinimalPreset())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: in.claimed}
		for _, kind := range boundsAtKinds {
			t.Run(in.name+"/"+kind.name, func(t *testing.T) {
				at := kind.at(t, in.data, in.claimed)
				var sr *beacon.StateReader
				var err error
				boundsNoPanic(t, "OpenState", func() {
					alloc := hardAllocated(func() { sr, err = beacon.OpenState(at, body, beacon.MinimalPreset()) })
					boundsCheck(t, "OpenState", alloc, len(in.data))
				})
				if err == nil {
					t.Errorf("OpenState: no error for %d bytes that claim %d", len(in.data), in.claimed)
					boundsReadAll(t, sr, ref, len(in.data))
					return
				}
				boundsClaimError(t, "OpenState", err, in, kind.tells)
			})
		}
	}
}

// boundsReadAll runs every read of sr, an input of n real bytes: each
// fails or gives what it gives over the whole state (ref), and allocates
// at most boundsLimit(n).
func boundsReadAll(t *testing.T, sr, ref *beacon.StateReader, n int) {
	t.Helper()
	for _, rd := range boundsReads() {
		var got any
		var err error
		boundsNoPanic(t, rd.name, func() {
			alloc := hardAllocated(func() { got, err = rd.read(sr) })
			boundsCheck(t, rd.name, alloc, n)
		})
		if err != nil {
			continue
		}
		want, werr := rd.read(ref)
		if werr != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: no error, and a value the whole state does not have (its read: %v)", rd.name, werr)
		}
	}
}

// shrinkingAt is an io.ReaderAt whose bytes can be cut short.
type shrinkingAt struct{ b []byte }

func (s *shrinkingAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(s.b)) {
		return 0, io.EOF
	}
	n := copy(p, s.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestHostileClaimsCutAfterOpen: a file cut after OpenState opened it (the
// state changed, which StateReader does not allow) still costs no read
// more than a small multiple of what the file holds.
func TestHostileClaimsCutAfterOpen(t *testing.T) {
	whole := boundsSSZ(t, 20_000)
	body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: int64(len(whole))}
	ref, err := beacon.OpenState(bytes.NewReader(whole), body, beacon.MinimalPreset())
	if err != nil {
		t.Fatal(err)
	}
	start := validatorsStart(t, whole)
	for _, cut := range []int{start + 100, start + 121*10_000 + 7} {
		for _, kind := range []string{"file", "hidden size"} {
			t.Run(fmt.Sprintf("cut at %d of %d/%s", cut, len(whole), kind), func(t *testing.T) {
				var at io.ReaderAt
				var shrink func()
				if kind == "file" {
					f := boundsFile(t, whole)
					at, shrink = f, func() {
						if err := os.Truncate(f.Name(), int64(cut)); err != nil {
							t.Fatal(err)
						}
					}
				} else {
					s := &shrinkingAt{b: whole}
					at, shrink = onlyReaderAt{s}, func() { s.b = s.b[:cut] }
				}
				sr, err := beacon.OpenState(at, body, beacon.MinimalPreset())
				if err != nil {
					t.Fatal(err)
				}
				shrink()
				boundsReadAll(t, sr, ref, cut)
			})
		}
	}
}

// TestHostileClaimsReadState: ReadState and ReadProver refuse a stream
// that tells it holds less than its Body says before they decode, and
// over one that hides its size allocate as the bytes arrive.
func TestHostileClaimsReadState(t *testing.T) {
	inputs, _ := boundsInputs(t)
	for _, in := range inputs {
		body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: in.claimed}
		for _, kind := range boundsStreamKinds {
			t.Run(in.name+"/"+kind.name, func(t *testing.T) {
				var err error
				boundsNoPanic(t, "ReadState", func() {
					r := kind.r(t, in.data)
					alloc := hardAllocated(func() { _, _, err = beacon.ReadState(r, body, beacon.MinimalPreset()) })
					boundsCheck(t, "ReadState", alloc, len(in.data))
				})
				boundsStreamError(t, "ReadState", err, in, kind.tells)
				boundsNoPanic(t, "ReadProver", func() {
					r := kind.r(t, in.data)
					alloc := hardAllocated(func() { _, err = beacon.ReadProver(r, body, bytes.NewReader(in.data), beacon.MinimalPreset()) })
					boundsCheck(t, "ReadProver", alloc, len(in.data))
				})
				boundsStreamError(t, "ReadProver", err, in, kind.tells)
			})
		}
	}
}

// TestHostileClaimsLargeCut: a saved state of 50,000 validators cut just
// after the validator list doubled, read from a stream that hides its
// size (its Body still says the whole size): the list grows as its bytes
// arrive, and ReadState and ReadProver stay within boundsLimit of what the
// stream held, however large.
func TestHostileClaimsLargeCut(t *testing.T) {
	const n = 50_000
	whole := boundsSSZ(t, n)
	start := validatorsStart(t, whole)
	body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu", Bytes: int64(len(whole))}
	first := (64 << 10) / 121 // the validators the list starts with room for
	for c := first; c < n; c *= 2 {
		cut := start + 121*(c+1) // one validator past a full list: it has just doubled
		t.Run(fmt.Sprintf("cut after %d validators", c+1), func(t *testing.T) {
			for name, read := range map[string]func() error{
				"ReadState": func() error {
					_, _, err := beacon.ReadState(hardReader{bytes.NewReader(whole[:cut])}, body, beacon.MinimalPreset())
					return err
				},
				"ReadProver": func() error {
					_, err := beacon.ReadProver(hardReader{bytes.NewReader(whole[:cut])}, body, bytes.NewReader(whole[:cut]), beacon.MinimalPreset())
					return err
				},
			} {
				var err error
				alloc := hardAllocated(func() { err = read() })
				boundsCheck(t, name, alloc, cut)
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("%s: err = %v, want a truncation", name, err)
				}
			}
		})
	}
}

// boundsStreamError checks the error of a decoder over an input that holds
// less than its Body says: a *DecodeError; with the reader's size known,
// the refusal that names both sizes.
func boundsStreamError(t *testing.T, what string, err error, in boundsInput, tells bool) {
	t.Helper()
	if tells {
		boundsClaimError(t, what, err, in, true)
		return
	}
	if !errors.As(err, new(*beacon.DecodeError)) {
		t.Errorf("%s: err = %v, want a *DecodeError", what, err)
	}
}

// TestHostileClaimsReadStateJSON: the JSON decoder takes Body.Bytes as
// SSZ's does: refused above a size the reader tells, and no list sized
// from it over a reader that hides its size.
func TestHostileClaimsReadStateJSON(t *testing.T) {
	want := beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 8, 1)
	var js bytes.Buffer
	if err := beacon.WriteState(&js, want, beacon.EncodingJSON, &beacon.Flags{}); err != nil {
		t.Fatal(err)
	}
	whole := js.Bytes()
	for _, in := range []boundsInput{
		{"claims 1.39 GB", whole, boundsClaim},
		{"cut in half", whole[:len(whole)/2], int64(len(whole))},
	} {
		body := beacon.Body{Encoding: beacon.EncodingJSON, Fork: "fulu", Bytes: in.claimed}
		for _, kind := range boundsStreamKinds {
			t.Run(in.name+"/"+kind.name, func(t *testing.T) {
				var st *beacon.State
				var err error
				boundsNoPanic(t, "ReadState", func() {
					r := kind.r(t, in.data)
					alloc := hardAllocated(func() { st, _, err = beacon.ReadState(r, body, beacon.MinimalPreset()) })
					boundsCheck(t, "ReadState", alloc, len(in.data))
				})
				if err == nil && !kind.tells && bytes.Equal(in.data, whole) {
					// A JSON body need not be as long as its Body says
					// when nothing tells that it is not.
					if !reflect.DeepEqual(st, want) {
						t.Error("ReadState: no error, and another state")
					}
					return
				}
				boundsStreamError(t, "ReadState", err, in, kind.tells)
			})
		}
	}
}

// boundsLyingHandler answers with a Content-Length of claimed, sends data,
// and closes the connection.
func boundsLyingHandler(t *testing.T, ctype string, data []byte, claimed int64) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		conn, rw := testkit.Hijack(t, w, r)
		defer conn.Close()
		fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nEth-Consensus-Version: fulu\r\nContent-Length: %d\r\n\r\n", ctype, claimed)
		_, _ = rw.Write(data)
		_ = rw.Flush()
	}
}

// TestHostileClaimsClient: a node whose Content-Length claims far more
// than it sends (offsets that claim 10 million validators) costs State and
// DownloadState with WithProver no more than a small multiple of what it
// sent: a Content-Length is a claim, and nothing is allocated for it
// before the bytes arrive.
func TestHostileClaimsClient(t *testing.T) {
	whole := boundsSSZ(t, 8)
	ten, tenSize := boundsTenMillion(t, whole, 8)
	var js bytes.Buffer
	if err := beacon.WriteState(&js, beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 8, 1), beacon.EncodingJSON, &beacon.Flags{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, ctype string
		data        []byte
		claimed     int64
		call        func(c *beacon.Client) error
	}{
		{"State, SSZ", "application/octet-stream", ten, tenSize, func(c *beacon.Client) error {
			_, _, err := c.State(context.Background(), beacon.Head)
			return err
		}},
		{"State, JSON", "application/json", js.Bytes(), boundsClaim, func(c *beacon.Client) error {
			_, _, err := c.State(context.Background(), beacon.Head)
			return err
		}},
		{"DownloadState, WithProver", "application/octet-stream", ten, tenSize, func(c *beacon.Client) error {
			f, err := os.Create(filepath.Join(t.TempDir(), "state.ssz"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var p beacon.Prover
			_, err = c.DownloadState(context.Background(), beacon.Head, f, beacon.WithProver(&p))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, boundsLyingHandler(t, tc.ctype, tc.data, tc.claimed))
			c := newClient(t, srv.URL, nodeaccess.WithMaxAttempts(1), beacon.WithPreset(beacon.MinimalPreset()))
			var err error
			boundsNoPanic(t, tc.name, func() {
				alloc := hardAllocated(func() { err = tc.call(c) })
				boundsCheck(t, tc.name, alloc, len(tc.data))
			})
			if err == nil {
				t.Fatalf("no error for %d bytes sent under a Content-Length of %d", len(tc.data), tc.claimed)
			}
		})
	}
}
