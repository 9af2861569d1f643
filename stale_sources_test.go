package nodeaccess_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The texts TestNoStaleNames reads: godoc, error texts, the CHANGELOG's
// current section (the rules are in stale_names_test.go).

// textSource is one text the check reads: where it is, and its package.
type textSource struct {
	where string
	home  *types.Package
	text  string
	whole bool // a code span
}

// homePackage returns the exported package of dir, or nil.
func (api moduleAPI) homePackage(dir string) *types.Package {
	path := "github.com/nodeaccess/nodeaccess"
	if dir != "." {
		path += "/" + filepath.ToSlash(dir)
	}
	for _, p := range api.pkgs {
		if p.Path() == path {
			return p
		}
	}
	return nil
}

// godocTexts returns the doc comments of docPackages.
func (api moduleAPI) godocTexts(t *testing.T) []textSource {
	var out []textSource
	for _, dir := range docPackages {
		for _, c := range readPkgDocs(t, dir).comments {
			out = append(out, textSource{where: fmt.Sprintf("%s: doc of %s", c.pos, c.name), home: api.homePackage(dir), text: c.text})
		}
	}
	return out
}

// errorTexts returns the error texts of the module's packages under root,
// examples/, bench/ and testdata left out: the string literals in the
// arguments of a function whose name says it makes an error (errors.New,
// fmt.Errorf, a decoder's errAt), and in the value of a composite
// literal's Reason field.
func (api moduleAPI) errorTexts(t *testing.T, root string) []textSource {
	var out []textSource
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "examples" || d.Name() == "bench" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		home := api.homePackage(rel)
		lits := func(where string, n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
					if s, err := strconv.Unquote(bl.Value); err == nil {
						out = append(out, textSource{where: fmt.Sprintf("%s: %s", fset.Position(bl.Pos()), where), home: home, text: s})
					}
				}
				return true
			})
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
					if x, ok := fn.X.(*ast.Ident); ok {
						name = x.Name + "." + name // errors.New
					}
				}
				if strings.Contains(strings.ToLower(name), "err") {
					for _, a := range n.Args {
						lits("error text", a)
					}
					return false
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "Reason" {
					lits("error reason", n.Value)
					return false
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	return out
}

// codeSpanRE finds a Markdown code span.
var codeSpanRE = regexp.MustCompile("`([^`\n]+)`")

// writeRE finds where a **Breaking** entry starts to say what to write.
var writeRE = regexp.MustCompile(`\b[Ww]rite `)

// clauseEndRE finds where what a **Breaking** entry tells users to write
// ends.
var clauseEndRE = regexp.MustCompile(` for | where you |[;:)]|\.(\s|$)`)

// changelogTexts returns the code spans of the CHANGELOG's current section
// (## [Unreleased]), each entry's apart: those that must name what the
// module exports, and gone, those of its **Breaking** entries that name
// what went away. In a **Breaking** entry the code it tells users to write
// (from a "write" to the next " for ") must name what the module exports;
// its other spans are what went away. A span of any other entry may name
// what a **Breaking** entry of the section says went away (an entry of an
// earlier issue, before the removal), or what the module exports.
func changelogTexts(t *testing.T, md string) (texts []textSource, gone []string) {
	start := strings.Index(md, "\n## [Unreleased]")
	require.GreaterOrEqual(t, start, 0, "the CHANGELOG has no current section")
	section := md[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+2]
	}
	line0 := strings.Count(md[:start+1], "\n") + 1
	// The entries: a "- " line at the margin starts one (its sub-entries
	// are part of it); a heading ends it.
	type entry struct {
		line int
		text string
	}
	var entries []entry
	for i, l := range strings.Split(section, "\n") {
		switch {
		case strings.HasPrefix(l, "- "):
			entries = append(entries, entry{line0 + i, l})
		case strings.HasPrefix(l, "#"):
			entries = append(entries, entry{line0 + i, ""})
		case len(entries) > 0:
			entries[len(entries)-1].text += "\n" + l
		}
	}
	for _, e := range entries {
		text := strings.ReplaceAll(e.text, "\n", " ")
		breaking := strings.HasPrefix(text, "- **Breaking")
		// What to write runs to the next " for ", or to the end of its
		// clause, read outside the code spans.
		masked := codeSpanRE.ReplaceAllStringFunc(text, func(s string) string { return strings.Repeat("x", len(s)) })
		var write [][2]int
		for _, m := range writeRE.FindAllStringIndex(masked, -1) {
			end := len(masked)
			if i := clauseEndRE.FindStringIndex(masked[m[1]:]); i != nil {
				end = m[1] + i[0]
			}
			write = append(write, [2]int{m[1], end})
		}
		for _, span := range codeSpanRE.FindAllStringSubmatchIndex(text, -1) {
			code := text[span[2]:span[3]]
			if breaking && !slices.ContainsFunc(write, func(w [2]int) bool { return span[0] >= w[0] && span[1] <= w[1] }) {
				gone = append(gone, code)
				continue
			}
			texts = append(texts, textSource{where: fmt.Sprintf("CHANGELOG.md:%d: entry", e.line), text: code, whole: true})
		}
	}
	return texts, gone
}
