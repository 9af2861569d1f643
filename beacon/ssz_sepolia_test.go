package beacon_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"testing"
	"testing/iotest"

	"github.com/nodeaccess/nodeaccess/beacon"
)

const sepoliaGenesisRoot = "fb9afe32150fa39f4b346be2519a67e2a4f5efcd50a1dc192c3f6b3d013d2798"

func readSepolia(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/sepolia-genesis.ssz")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 2889907 {
		t.Fatalf("testdata/sepolia-genesis.ssz has %d bytes, want 2889907", len(b))
	}
	return b
}

// checkSepolia checks the decoded Sepolia genesis against values read off
// the bytes and the published chain parameters.
func checkSepolia(t *testing.T, s *beacon.State) {
	t.Helper()
	if s.Version != beacon.Phase0 || s.Preset.Name != "mainnet" {
		t.Fatalf("version %s preset %q, want phase0 mainnet", s.Version, s.Preset.Name)
	}
	if len(s.Validators) != 1570 || len(s.Balances) != 1570 {
		t.Fatalf("%d validators and %d balances, want 1570", len(s.Validators), len(s.Balances))
	}
	if s.GenesisTime != 1655733600 || s.Slot != 0 {
		t.Errorf("genesis_time %d slot %d, want 1655733600 (MIN_GENESIS_TIME 1655647200 + GENESIS_DELAY 86400) and 0", s.GenesisTime, s.Slot)
	}
	if s.Fork.CurrentVersion != (beacon.ForkVersion{0x90, 0x00, 0x00, 0x69}) {
		t.Errorf("fork version %x, want 90000069", s.Fork.CurrentVersion)
	}
	v := s.Validators[0]
	if v.EffectiveBalance != 32_000_000_000 || v.Slashed || v.ActivationEpoch != 0 || v.ExitEpoch != beacon.FarFutureEpoch {
		t.Errorf("validator 0 = %+v, want an active 32 ETH genesis validator", v)
	}
	if len(s.BlockRoots) != 8192 || len(s.RandaoMixes) != 65536 || len(s.Slashings) != 8192 {
		t.Errorf("vector lengths %d %d %d", len(s.BlockRoots), len(s.RandaoMixes), len(s.Slashings))
	}
	if len(s.PreviousEpochAttestations) != 0 || s.CurrentEpochParticipation != nil || s.InactivityScores != nil {
		t.Errorf("phase0 genesis has attestations or altair fields")
	}
}

func TestSSZSepoliaGenesis(t *testing.T) {
	b := readSepolia(t)
	decoders := map[string]func() (*beacon.State, error){
		"UnmarshalSSZ": func() (*beacon.State, error) { return unmarshalSSZ(b, beacon.Phase0) },
		"DecodeSSZ/bytes.Reader": func() (*beacon.State, error) {
			return decodeSSZ(bytes.NewReader(b), beacon.Phase0)
		},
		"DecodeSSZ/file": func() (*beacon.State, error) {
			f, err := os.Open("testdata/sepolia-genesis.ssz")
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return decodeSSZ(f, beacon.Phase0)
		},
		"DecodeSSZ/half-reader-no-hint": func() (*beacon.State, error) {
			return decodeSSZ(iotest.HalfReader(bytes.NewReader(b)), beacon.Phase0)
		},
		"DecodeSSZ/half-reader-hint": func() (*beacon.State, error) {
			return decodeSSZ(iotest.HalfReader(bytes.NewReader(b)), beacon.Phase0, sizeHint(int64(len(b))))
		},
		"DecodeSSZ/choppy": func() (*beacon.State, error) {
			return decodeSSZ(&choppyReader{b: b}, beacon.Phase0)
		},
	}
	for name, dec := range decoders {
		t.Run(name, func(t *testing.T) {
			s, err := dec()
			if err != nil {
				t.Fatal(err)
			}
			checkSepolia(t, s)
			out, err := marshalSSZ(s)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, b) {
				t.Fatal("MarshalSSZ does not reproduce the genesis bytes")
			}
			var w bytes.Buffer
			if err := beacon.WriteState(&w, s, beacon.EncodingSSZ, nil); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w.Bytes(), b) {
				t.Fatal("EncodeSSZ does not reproduce the genesis bytes")
			}
			if n, err := sizeSSZ(s); err != nil || n != len(b) {
				t.Fatalf("SizeSSZ = %d, %v; want %d", n, err, len(b))
			}
			root, err := beacon.HashTreeRoot(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(root[:]); got != sepoliaGenesisRoot {
				t.Fatalf("HashTreeRoot = %s, want %s", got, sepoliaGenesisRoot)
			}
		})
	}
}

// TestSSZSepoliaReference checks the reference merkleizer itself against
// the published Sepolia root, so that agreeing with it means something.
func TestSSZSepoliaReference(t *testing.T) {
	b := readSepolia(t)
	typ := refStateType(beacon.Phase0, beacon.MainnetPreset())
	if got := hex.EncodeToString(func() []byte { r := typ.root(b); return r[:] }()); got != sepoliaGenesisRoot {
		t.Fatalf("reference root = %s, want %s", got, sepoliaGenesisRoot)
	}
}

// choppyReader returns 1 to 7 bytes per Read.
type choppyReader struct {
	b []byte
	i int
}

func (r *choppyReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	r.i++
	n := min(len(p), len(r.b), 1+r.i%7)
	copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

// failingReader returns its data, then err.
type failingReader struct {
	b   []byte
	err error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, r.err
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func TestSSZSepoliaTruncatedWithHint(t *testing.T) {
	b := readSepolia(t)
	for _, cut := range []int{0, 1, 4, 100, 2_000_000, 2_687_376, 2_687_380, len(b) - 121, len(b) - 1} {
		_, err := decodeSSZ(iotest.HalfReader(bytes.NewReader(b[:cut])), beacon.Phase0, sizeHint(int64(len(b))))
		var de *beacon.DecodeError
		if !errors.As(err, &de) || !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, beacon.ErrInvalidState) {
			t.Fatalf("cut at %d: err = %v, want a DecodeError matching io.ErrUnexpectedEOF", cut, err)
		}
	}
}
