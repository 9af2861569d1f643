package beacon

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// progressiveVectors is testdata/gloas/progressive.json: @chainsafe/ssz's
// roots of progressive lists and containers whose values follow from the
// index (the formulas are in bench/tools/gloasgen/gen.mjs and below).
type progressiveVectors struct {
	Lists []struct {
		Length      int    `json:"length"`
		Uint64Root  string `json:"uint64_root"`
		Uint8Root   string `json:"uint8_root"`
		Bytes32Root string `json:"bytes32_root"`
	} `json:"lists"`
	Containers []struct {
		ActiveFields []int  `json:"active_fields"`
		Root         string `json:"root"`
	} `json:"containers"`
}

func hexRoot(t *testing.T, s string) Root {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != 32 {
		t.Fatalf("bad root %q", s)
	}
	return Root(b)
}

// TestProgressiveMerkleizationLodestar checks the hashing rule on its own,
// for lists whose lengths cross the subtree boundaries (1, 4, 16, 64, 256,
// 1024 leaves: lengths 0-6, 15-22, 63-87, 300-342, 1000-1367) in three
// packings (32 uint8s, 4 uint64s or one Bytes32 per chunk), and for
// progressive containers with gaps in active_fields.
func TestProgressiveMerkleizationLodestar(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "gloas", "progressive.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v progressiveVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Lists) < 20 || len(v.Containers) < 5 {
		t.Fatalf("progressive.json has %d lists and %d containers", len(v.Lists), len(v.Containers))
	}
	for _, l := range v.Lists {
		n := l.Length
		u64 := make([]uint64, n)
		u8 := make([]uint8, n)
		b32 := make([]Root, n)
		for i := range n {
			u64[i] = uint64(i+1)*0x01010101 + 7
			u8[i] = uint8((i*37 + 5) & 0xff)
			for j := range b32[i] {
				b32[i][j] = byte((i + 1) & 0xff)
			}
			b32[i][0], b32[i][31] = byte(i>>8), 0xa5
		}
		if got, want := progressiveListRoot(n, (n+3)/4, fillUint64s(u64)), hexRoot(t, l.Uint64Root); got != want {
			t.Errorf("uint64 list of %d: %s, want %s", n, got, want)
		}
		if got, want := progressiveListRoot(n, (n+31)/32, fillUint8s(u8)), hexRoot(t, l.Uint8Root); got != want {
			t.Errorf("uint8 list of %d: %s, want %s", n, got, want)
		}
		if got, want := progressiveListRoot(n, n, fillRoots(b32)), hexRoot(t, l.Bytes32Root); got != want {
			t.Errorf("Bytes32 list of %d: %s, want %s", n, got, want)
		}
	}
	for _, c := range v.Containers {
		active := make([]bool, len(c.ActiveFields))
		var roots []Root
		for i, a := range c.ActiveFields {
			active[i] = a == 1
			if active[i] {
				roots = append(roots, u64Chunk(uint64(i+1)))
			}
		}
		if got, want := progressiveContainerRootActive(roots, active), hexRoot(t, c.Root); got != want {
			t.Errorf("container %v: %s, want %s", c.ActiveFields, got, want)
		}
	}
}
