package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot is where the README tells users to run the quickstart, and so
// where the paths it prints start.
const repoRoot = "../.."

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown file (lower case, spaces as hyphens, other punctuation than
// hyphens and underscores dropped), and the headings' own text.
func headingAnchors(t *testing.T, file string) (anchors, titles map[string]bool) {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(repoRoot, file))
	require.NoError(t, err)
	anchors, titles = map[string]bool{}, map[string]bool{}
	fence := false
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		titles[h] = true
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchors[b.String()] = true
	}
	return anchors, titles
}

// pointerGroupRE finds a parenthesized group of the last words that names
// a document: "(README.md#testing-your-code, docs/local-servers.md)".
var pointerGroupRE = regexp.MustCompile(`\(([^()]*\.md[^()]*)\)`)

// The last words send users only where something is: every document they
// point to exists from the repository root (a file, a file's #anchor, or
// a "Heading" of the file named before it), every example they name is a
// program and every program under examples/ is named, and the command
// they give for the tests is the README's, exactly.
func TestNextPointersResolve(t *testing.T) {
	next := nextSteps(func(string) string { return "" })

	groups := pointerGroupRE.FindAllStringSubmatch(next, -1)
	require.Len(t, groups, 2, "the local servers' and the examples' pointers:\n%s", next)
	for _, g := range groups {
		file := ""
		for _, p := range strings.Split(g[1], ", ") {
			if title, ok := strings.CutPrefix(p, `"`); ok {
				_, titles := headingAnchors(t, file)
				assert.True(t, titles[strings.TrimSuffix(title, `"`)], "%s has no heading %s", file, p)
				continue
			}
			path, anchor, _ := strings.Cut(p, "#")
			file = path
			if _, err := os.Stat(filepath.Join(repoRoot, path)); err != nil {
				t.Errorf("pointer %s: %v", p, err)
				continue
			}
			if anchor != "" {
				anchors, _ := headingAnchors(t, path)
				assert.True(t, anchors[anchor], "pointer %s: %s has no heading #%s", p, path, anchor)
			}
		}
	}

	// The examples: each named is a program, and each program is named.
	_, item, ok := strings.Cut(next, "  - Run the other examples: ")
	require.True(t, ok, next)
	item, _, _ = strings.Cut(item, "\n  - ")
	var named []string
	for _, m := range regexp.MustCompile(`\./examples/([a-z0-9]+)`).FindAllStringSubmatch(item, -1) {
		named = append(named, m[1])
	}
	mains, err := filepath.Glob(filepath.Join(repoRoot, "examples", "*", "main.go"))
	require.NoError(t, err)
	var programs []string
	for _, m := range mains {
		if name := filepath.Base(filepath.Dir(m)); name != "quickstart" {
			programs = append(programs, name)
		}
	}
	slices.Sort(named)
	assert.Equal(t, programs, named, "the other examples' programs")

	// The tests: the README's second command, as CI runs them.
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	var cmd string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "go test ") {
			before, _, _ := strings.Cut(l, "#")
			cmd = strings.TrimSpace(before)
			break
		}
	}
	require.NotEmpty(t, cmd, "the README's test command")
	assert.Contains(t, next, "\n  - Run the tests: "+cmd+"\n")
}
