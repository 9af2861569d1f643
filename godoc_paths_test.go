package nodeaccess_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libraryPackages are the packages users import for their work. Their godoc
// is read on pkg.go.dev and in go doc, away from this repository: it says
// what a name does, and sends no reader to the repository's files.
var libraryPackages = []string{".", "beacon", "beacon/light", "evm", "evm/verified", "hyper", "hyper/hypercore", "ton"}

var (
	// urlRE is a URL, which a reader can follow wherever they read.
	urlRE = regexp.MustCompile(`[a-z][a-z0-9+.-]*://\S+`)
	// repoDirRE is a path into one of the repository's directories of
	// material other than packages (an import path, such as
	// github.com/nodeaccess/nodeaccess/examples/quickstart, is not one).
	repoDirRE = regexp.MustCompile(`(?:^|[^\w./-])(?:\.\.?/)*((?:bench|docs|examples|testdata|\.ci)/[\w./-]*)`)
	// repoPhraseRE sends the reader to the repository.
	repoPhraseRE = regexp.MustCompile(`(?i)\b(?:in|of|from|see) (?:the|this) repository\b|\bthis repo\b`)
	// fileTokenRE is a word that may be a file name.
	fileTokenRE = regexp.MustCompile(`[\w-]+(?:\.[\w-]+)+`)
)

// repoFileNames returns the base names of the repository's files that have
// an extension (go.mod and go.sum left out: they are what every module has,
// and a reader's own).
func repoFileNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.Contains(d.Name(), ".") && !strings.HasPrefix(d.Name(), ".") {
			names[d.Name()] = true
		}
		return nil
	})
	require.NoError(t, err)
	delete(names, "go.mod")
	delete(names, "go.sum")
	return names
}

// repoCitations lists the doc comments of dir that cite the repository: a
// path into bench/, docs/, examples/, testdata/ or .ci/, the name of one of
// its files (files, the repository's base names), or "in the repository".
// URLs are left out: a reader can follow them.
func repoCitations(t *testing.T, dir string, files map[string]bool) []string {
	t.Helper()
	var out []string
	for _, c := range readPkgDocs(t, dir).comments {
		text := urlRE.ReplaceAllString(c.text, "")
		var found []string
		for _, m := range repoDirRE.FindAllStringSubmatch(text, -1) {
			found = append(found, strings.TrimRight(m[1], ".-"))
		}
		found = append(found, repoPhraseRE.FindAllString(text, -1)...)
		for _, w := range fileTokenRE.FindAllString(text, -1) {
			if w = strings.TrimRight(w, ".-"); files[w] {
				found = append(found, w)
			}
		}
		for _, f := range slices.Compact(found) {
			out = append(out, fmt.Sprintf("%s: doc of %s cites the repository: %q", c.pos, c.name, f))
		}
	}
	return out
}

// TestGodocCitesNoRepositoryFile: no godoc of a library package cites a
// file or directory of this repository (bench/RESULTS.md, testdata/…,
// docs/…, a .go file's name) or says "in the repository": godoc states the
// contract, and the background and the measurements live in the guides,
// which the README links.
func TestGodocCitesNoRepositoryFile(t *testing.T) {
	files := repoFileNames(t)
	for _, dir := range libraryPackages {
		t.Run(dir, func(t *testing.T) {
			for _, p := range repoCitations(t, dir, files) {
				t.Error(p)
			}
		})
	}
}

// TestGodocCitesNoRepositoryFileCatches: the check finds each kind of
// citation in a package written for the purpose, and leaves URLs, upstream
// specifications' file names and package paths alone.
func TestGodocCitesNoRepositoryFileCatches(t *testing.T) {
	dir := t.TempDir()
	src := `// Package p is measured in bench/RESULTS.md, two processes sharing a plan.
package p

// A is read as testdata/SOURCES.md says, and as the guide
// (docs/ton.md) explains.
type A struct {
	// F is kept (latest.go).
	F int
}

// B is documented in the repository; see ../examples/quickstart and .ci/run.
func B() {}

// C follows ssz/simple-serialize.md, evm/evmtest,
// github.com/nodeaccess/nodeaccess/examples/quickstart and
// https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint,
// https://github.com/nodeaccess/nodeaccess/blob/main/docs/ton.md and go.mod.
func C() {}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o600))
	got := repoCitations(t, dir, repoFileNames(t))
	for i, p := range got {
		got[i] = p[strings.Index(p, "doc of"):]
	}
	want := []string{
		`doc of package p cites the repository: "bench/RESULTS.md"`,
		`doc of A cites the repository: "testdata/SOURCES.md"`,
		`doc of A cites the repository: "docs/ton.md"`,
		`doc of A cites the repository: "SOURCES.md"`,
		`doc of A cites the repository: "ton.md"`,
		`doc of A.F cites the repository: "latest.go"`,
		`doc of B cites the repository: "examples/quickstart"`,
		`doc of B cites the repository: ".ci/run"`,
		`doc of B cites the repository: "in the repository"`,
		`doc of package p cites the repository: "RESULTS.md"`,
	}
	assert.ElementsMatch(t, want, got, strings.Join(got, "\n"))
}
