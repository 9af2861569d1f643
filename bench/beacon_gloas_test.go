package bench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// gloasgen is the Lodestar generator (tools/gloasgen, @lodestar/types
// 1.50.0 pinned by its package-lock.json).
const gloasgen = "tools/gloasgen"

// lodestar returns a function that runs gen.mjs with Node under the given
// preset, or skips t when Node is not installed. When the generator's
// packages are not installed yet it installs them with `npm ci` (the lock
// file's exact versions), and skips when that fails (no registry).
func lodestar(t *testing.T) func(preset string, args ...string) []byte {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the live Lodestar differential is skipped (the committed vectors in beacon/testdata/gloas still run)")
	}
	if _, err := os.Stat(filepath.Join(gloasgen, "node_modules", "@lodestar", "types")); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Skip("npm is not installed to install the generator's packages")
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = gloasgen
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("npm ci in %s failed (no registry?): %v\n%s", gloasgen, err, out)
		}
	}
	return func(preset string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(node, append([]string{"gen.mjs"}, args...)...)
		cmd.Dir = gloasgen
		cmd.Env = append(os.Environ(), "LODESTAR_PRESET="+preset)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node gen.mjs %v: %v\n%s", args, err, stderr.String())
		}
		return out
	}
}

func gloasPreset(name string) beacon.Preset {
	if name == "minimal" {
		return beacon.MinimalPreset()
	}
	return beacon.MainnetPreset()
}

// TestDifferentialGloasLodestar runs Lodestar live, both ways, on both
// presets:
//
//   - Lodestar makes random Gloas states (seeds other than the committed
//     vectors'); nodeaccess decodes its SSZ and its JSON body to its root,
//     re-encodes the same SSZ bytes, and writes the same JSON body (but for
//     the case of execution addresses, which Lodestar checksums);
//   - nodeaccess encodes a state of beacontest.NewState (its uint64s kept
//     below 2^53, which Lodestar holds as JS numbers); Lodestar decodes it
//     to the same root and re-serializes the same bytes.
func TestDifferentialGloasLodestar(t *testing.T) {
	run := lodestar(t)
	dir := t.TempDir()
	for _, c := range []struct {
		preset           string
		seed, vals, blds int
	}{{"minimal", 101, 70, 9}, {"mainnet", 102, 17, 65}} {
		p := gloasPreset(c.preset)
		t.Run(c.preset+"/lodestar-to-nodeaccess", func(t *testing.T) {
			name := fmt.Sprintf("%s-%d", c.preset, c.seed)
			run(c.preset, "-out", dir, "-seed", fmt.Sprint(c.seed), "-validators", fmt.Sprint(c.vals), "-builders", fmt.Sprint(c.blds), "-name", name)
			raw := readFile(t, filepath.Join(dir, name+".ssz"))
			body := readFile(t, filepath.Join(dir, name+".json"))
			want := strings.TrimSpace(string(readFile(t, filepath.Join(dir, name+".root"))))
			st, err := unmarshalSSZ(raw, beacon.Gloas, p)
			if err != nil {
				t.Fatal(err)
			}
			if got := gloasRoot(t, st); got.String() != want {
				t.Fatalf("SSZ: root %s, Lodestar's %s", got, want)
			}
			if out, err := marshalSSZ(st); err != nil || !bytes.Equal(out, raw) {
				t.Fatalf("re-encoded SSZ differs from Lodestar's (%v)", err)
			}
			js, flags, err := decodeJSON(bytes.NewReader(body), "", 0, p)
			if err != nil {
				t.Fatal(err)
			}
			if got := gloasRoot(t, js); got.String() != want {
				t.Fatalf("JSON: root %s, Lodestar's %s", got, want)
			}
			var ours bytes.Buffer
			if err := beacon.WriteState(&ours, js, beacon.EncodingJSON, flags); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ours.Bytes(), bytes.ToLower(body)) {
				t.Fatal("WriteState differs from Lodestar's body")
			}
		})
		t.Run(c.preset+"/nodeaccess-to-lodestar", func(t *testing.T) {
			st := beacontest.NewState(beacon.Gloas, p, c.vals, uint64(c.seed))
			below53(st)
			raw, err := marshalSSZ(st)
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, "ours-"+c.preset+".ssz")
			if err := os.WriteFile(f, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(f)
			var got struct {
				Preset           string `json:"preset"`
				Root             string `json:"root"`
				ReserializedSame bool   `json:"reserialized_same"`
			}
			if err := json.Unmarshal(run(c.preset, "-check", abs), &got); err != nil {
				t.Fatal(err)
			}
			if got.Preset != c.preset || !got.ReserializedSame {
				t.Fatalf("Lodestar: %+v", got)
			}
			if want := gloasRoot(t, st); got.Root != want.String() {
				t.Fatalf("Lodestar's root %s, ours %s", got.Root, want)
			}
		})
	}
}

// below53 keeps the uint64 fields that Lodestar holds as JS numbers below
// 2^53 (2^64-1, its Infinity, stays), so that Lodestar reads them exactly.
func below53(st *beacon.State) {
	const m = 1<<53 - 1
	for i := range st.Builders {
		st.Builders[i].Balance &= m
	}
	st.LatestExecutionPayloadBid.BuilderIndex &= m
}

func gloasRoot(t *testing.T, st *beacon.State) beacon.Root {
	t.Helper()
	r, err := beacon.HashTreeRoot(st)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// gloasBuilders is the builder count of the Gloas benchmark state: a
// registry of a size the builder market may reach (mainnet has none yet).
const gloasBuilders = 2_000

// bigGloasState is a generated mainnet-size gloas state (mainnetValidators
// validators, gloasBuilders builders) and its SSZ, made once per process.
var bigGloasState = sync.OnceValue(func() (f struct {
	st  *beacon.State
	ssz []byte
}) {
	f.st = beacontest.NewState(beacon.Gloas, beacon.MainnetPreset(), mainnetValidators, 42)
	b := f.st.Builders[0]
	for len(f.st.Builders) < gloasBuilders {
		b.Balance++
		f.st.Builders = append(f.st.Builders, b)
	}
	var err error
	if f.ssz, err = marshalSSZ(f.st); err != nil {
		panic(err)
	}
	return f
})

// BenchmarkBeaconGloas decodes (SSZ, from a slice) and hashes a
// mainnet-size gloas state next to the same for fulu (bigState), with
// SetBytes on both so that their MB/s compare: gloas's progressive lists
// should cost no more per byte than fulu's binary ones. It also reports
// cpu-ns/B, the process's CPU time (user + system, all goroutines) per
// input byte, which a machine shared with other work disturbs less than
// the wall time.
func BenchmarkBeaconGloas(b *testing.B) {
	forks := []struct {
		v beacon.Version
		f func() (st *beacon.State, raw []byte)
	}{
		{beacon.Fulu, func() (*beacon.State, []byte) { f := bigState(); return f.st, f.ssz }},
		{beacon.Gloas, func() (*beacon.State, []byte) { f := bigGloasState(); return f.st, f.ssz }},
	}
	for _, fk := range forks {
		b.Run("SSZDecode/"+fk.v.String(), func(b *testing.B) {
			_, raw := fk.f()
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			var cpu int64
			for b.Loop() {
				settle(b)
				c := cpuTime()
				st, err := unmarshalSSZ(raw, fk.v)
				cpu += cpuTime() - c
				if err != nil || len(st.Validators) != mainnetValidators {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, len(raw))
		})
		b.Run("HashTreeRoot/"+fk.v.String(), func(b *testing.B) {
			st, raw := fk.f()
			want, err := beacon.HashTreeRoot(st)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			var cpu int64
			for b.Loop() {
				settle(b)
				c := cpuTime()
				r, err := beacon.HashTreeRoot(st)
				cpu += cpuTime() - c
				if err != nil || r != want {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, len(raw))
		})
	}
}

// reportCPU reports cpu-ns/B: CPU time per iteration and input byte.
func reportCPU(b *testing.B, cpu int64, size int) {
	if cpuTime() < 0 || b.N == 0 {
		return
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/float64(size), "cpu-ns/B")
}

// BenchmarkBeaconHashTreeRootGloas is BenchmarkBeaconHashTreeRoot on the
// mainnet-size gloas state (bigGloasState): nodeaccess against
// go-eth2-client v0.30.1's generated gloas hasher, the roots compared on
// every call; cpu-ns/B as in BenchmarkBeaconGloas.
func BenchmarkBeaconHashTreeRootGloas(b *testing.B) {
	f := bigGloasState()
	want, err := beacon.HashTreeRoot(f.st)
	if err != nil {
		b.Fatal(err)
	}
	peer := newPeerState(beacon.Gloas)
	if err := peer.UnmarshalSSZ(f.ssz); err != nil {
		b.Fatal(err)
	}
	b.Run("nodeaccess", func(b *testing.B) {
		b.ReportAllocs()
		var cpu int64
		for b.Loop() {
			settle(b)
			c := cpuTime()
			r, err := beacon.HashTreeRoot(f.st)
			cpu += cpuTime() - c
			if err != nil || r != want {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu, len(f.ssz))
	})
	b.Run("go-eth2-client", func(b *testing.B) {
		b.ReportAllocs()
		var cpu int64
		for b.Loop() {
			settle(b)
			c := cpuTime()
			r, err := peer.HashTreeRoot()
			cpu += cpuTime() - c
			if err != nil || beacon.Root(r) != want {
				b.Fatal("root differs", err)
			}
		}
		reportCPU(b, cpu, len(f.ssz))
	})
}
