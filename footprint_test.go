package nodeaccess_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// A footprint that fits the import (issue 31): what a program that imports
// one library package brings in, as the programs in testdata/footprint
// (one per package, each calling one operation so that the linker keeps
// it) measure it. docs/build-times.md states these numbers, with the cold
// build time of each, which bench/tools/footprint.sh measures.

// footprintLimit is what a package's program may bring in: non-standard
// packages (the program's own left out) and modules (this one included),
// and the size of its binary built with -ldflags="-s -w".
type footprintLimit struct {
	dir      string // under testdata/footprint
	packages int
	modules  int
	size     int64 // bytes
}

// footprintLimits are the numbers bench/tools/footprint.sh measured on
// 2026-11-28 (go1.26.8, linux/amd64, cgo as the go command defaults) with
// room to grow: two packages, no module, and 10 % of
// the binary. A package that grows past them fails TestFootprint: look for
// the import that brought the growth in before raising a limit.
var footprintLimits = []footprintLimit{
	{"nodeaccess", 3 + 2, 2, 3_809_545 * 11 / 10},
	{"evm", 49 + 2, 9, 8_414_352 * 11 / 10},
	{"hyper", 13 + 2, 6, 6_840_585 * 11 / 10},
	{"hypercore", 53 + 2, 10, 8_476_016 * 11 / 10},
	{"ton", 7 + 2, 2, 6_799_625 * 11 / 10},
	{"beacon", 16 + 2, 7, 7_799_049 * 11 / 10},
	// evm/verified runs the EVM (go-ethereum's core, core/vm, core/state
	// and trie: a verified eth_call is a local one): measured 2026-11-29,
	// the same way.
	{"verified", 147 + 2, 32, 11_978_160 * 11 / 10},
}

// heavyEthereum are packages and modules that a program of /info alone must
// not link: go-ethereum's EVM types and the KZG cryptography they bring.
var heavyEthereum = []string{
	"github.com/ethereum/go-ethereum/core/types",
	"github.com/ethereum/go-ethereum/crypto/kzg4844",
	"github.com/consensys/gnark-crypto",
	"github.com/crate-crypto/go-eth-kzg",
	"github.com/supranational/blst",
	"github.com/ethereum/c-kzg-4844",
}

// goList runs go list -deps with format f over the program in dir and
// returns its non-empty lines.
func goList(t *testing.T, dir, f string) []string {
	t.Helper()
	out, err := exec.Command(goTool(), "list", "-deps", "-f", f, "./"+dir).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", dir, err)
	}
	var lines []string
	for l := range strings.SplitSeq(string(out), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// goTool is the go command: go test puts its own first in PATH.
func goTool() string { return "go" }

// deps returns the non-standard packages a program in testdata/footprint
// brings in (the program left out) and their modules.
func deps(t *testing.T, name string) (pkgs, mods []string) {
	dir := "testdata/footprint/" + name
	for _, l := range goList(t, dir, `{{if not .Standard}}{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}{{end}}`) {
		p, m, _ := strings.Cut(l, " ")
		if strings.HasSuffix(p, "/"+dir) {
			continue
		}
		pkgs = append(pkgs, p)
		if !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	return pkgs, mods
}

// TestFootprint: no library package brings in more packages, modules or
// binary than its limit.
func TestFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program per library package")
	}
	bin := t.TempDir()
	for _, l := range footprintLimits {
		t.Run(l.dir, func(t *testing.T) {
			pkgs, mods := deps(t, l.dir)
			if len(pkgs) > l.packages {
				t.Errorf("a program of %s alone links %d non-standard packages, more than its %d:\n%s", l.dir, len(pkgs), l.packages, strings.Join(pkgs, "\n"))
			}
			if len(mods) > l.modules {
				t.Errorf("a program of %s alone links %d modules, more than its %d: %s", l.dir, len(mods), l.modules, strings.Join(mods, ", "))
			}
			out := filepath.Join(bin, l.dir)
			cmd := exec.Command(goTool(), "build", "-ldflags=-s -w", "-o", out, "./testdata/footprint/"+l.dir)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, b)
			}
			fi, err := os.Stat(out)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d packages, %d modules, %d bytes", l.dir, len(pkgs), len(mods), fi.Size())
			if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && fi.Size() > l.size {
				t.Errorf("a program of %s alone is %d bytes, more than its %d", l.dir, fi.Size(), l.size)
			}
		})
	}
}

// TestFootprintHyperInfo: a program that reads /info with hyper alone links
// no go-ethereum package but common and what common brings (its hex
// helpers, keccak), and none of the EVM types or the KZG cryptography.
func TestFootprintHyperInfo(t *testing.T) {
	pkgs, _ := deps(t, "hyper")
	common := goList(t, "testdata/footprint/hyper", `{{if eq .ImportPath "github.com/ethereum/go-ethereum/common"}}{{join .Deps "\n"}}{{end}}`)
	allowed := append(common, "github.com/ethereum/go-ethereum/common")
	for _, p := range pkgs {
		if strings.HasPrefix(p, "github.com/ethereum/go-ethereum/") && !slices.Contains(allowed, p) {
			t.Errorf("hyper links %s, a go-ethereum package that common does not bring", p)
		}
		for _, h := range heavyEthereum {
			if p == h || strings.HasPrefix(p, h+"/") {
				t.Errorf("hyper links %s", p)
			}
		}
	}
	if !slices.Contains(pkgs, "github.com/ethereum/go-ethereum/common") {
		t.Errorf("hyper no longer links go-ethereum's common: update this test and docs/build-times.md")
	}
	// The check sees what it must refuse: hypercore, the HyperEVM package,
	// links the EVM types.
	core, _ := deps(t, "hypercore")
	if !slices.Contains(core, "github.com/ethereum/go-ethereum/core/types") {
		t.Errorf("hypercore does not link core/types: the check above would see no heavy package")
	}
}
