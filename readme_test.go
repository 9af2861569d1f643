package nodeaccess_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// The README's Go blocks are type-checked as a program a reader would write
// around them (TestReadmeGoBlocksCompile). The convention, which the README
// follows:
//
//   - A block whose first line of code is "package" is a whole file: it
//     must compile as it is, imports included, as the program a reader
//     pastes and runs (the README's first one is run by
//     TestReadmeProgramRuns).
//   - A block that starts with "func" is whole declarations: it must compile
//     as it is, with only its imports added.
//   - Any other block is statements from the middle of a function. The names
//     it uses without declaring them are the reader's own values, declared
//     as the function's parameters with the types in readmeValues (ctx, key,
//     holder, …); a block that declares one of them again with := gets Go's
//     "no new variables" error, as it would in the reader's program. What
//     the block declares at its top level is what the program goes on to
//     use, so it may stay unused in the block; a variable of an inner scope
//     (a loop's, an if's) must be used inside the block.
//   - "{ ... }" or "{ … }" as the whole body of a statement stands for the
//     reader's code there: it may use the variables that statement declares.
//     Anywhere else (a comment, a string) "…" is text.
//   - Imports are added for the package names in readmeImports.

// readmeValues are the reader's own values a statement block may use.
var readmeValues = map[string]string{
	"ctx":      "context.Context",
	"key":      "string",
	"evmURL":   "string",
	"tonURL":   "string",
	"holder":   "common.Address",
	"usdc":     "common.Address",
	"user":     "common.Address",
	"token":    "common.Address",
	"calldata": "[]byte",
	"txHash":   "common.Hash",
	"block":    "ton.BlockRef",
	"acct":     "string",
	"root":     "beacon.Root",
	"st":       "*beacon.State",
	"i":        "beacon.ValidatorIndex",
	"r":        "io.Reader",
	"err":      "error",
	"anchor":   "verified.Anchor",
	"slot":     "common.Hash",
}

// readmeImports are the packages a block may name, by the name it uses.
var readmeImports = map[string]string{
	"beacon":         "github.com/nodeaccess/nodeaccess/beacon",
	"beacontest":     "github.com/nodeaccess/nodeaccess/beacon/beacontest",
	"common":         "github.com/ethereum/go-ethereum/common",
	"context":        "context",
	"erc20":          "github.com/nodeaccess/nodeaccess/examples/erc20/erc20",
	"errors":         "errors",
	"evm":            "github.com/nodeaccess/nodeaccess/evm",
	"evmtest":        "github.com/nodeaccess/nodeaccess/evm/evmtest",
	"fmt":            "fmt",
	"hexutil":        "github.com/ethereum/go-ethereum/common/hexutil",
	"hyper":          "github.com/nodeaccess/nodeaccess/hyper",
	"hypertest":      "github.com/nodeaccess/nodeaccess/hyper/hypertest",
	"hypercore":      "github.com/nodeaccess/nodeaccess/hyper/hypercore",
	"io":             "io",
	"light":          "github.com/nodeaccess/nodeaccess/beacon/light",
	"log":            "log",
	"nodeaccess":     "github.com/nodeaccess/nodeaccess",
	"nodeaccesstest": "github.com/nodeaccess/nodeaccess/nodeaccesstest",
	"os":             "os",
	"testing":        "testing",
	"time":           "time",
	"ton":            "github.com/nodeaccess/nodeaccess/ton",
	"tontest":        "github.com/nodeaccess/nodeaccess/ton/tontest",
	"verified":       "github.com/nodeaccess/nodeaccess/evm/verified",
}

// readmeBlock is one fenced block of a Markdown file.
type readmeBlock struct {
	line int    // line of the opening fence, from 1
	lang string // the fence's language ("go", "text", "" for none)
	text string
}

var fenceRE = regexp.MustCompile("^```([a-z]*)\\s*$")

// mdBlocks returns the fenced blocks of a Markdown text, in order.
func mdBlocks(md string) []readmeBlock {
	var out []readmeBlock
	var cur *readmeBlock
	var body strings.Builder
	for i, l := range strings.Split(md, "\n") {
		m := fenceRE.FindStringSubmatch(l)
		switch {
		case cur == nil && m != nil:
			cur = &readmeBlock{line: i + 1, lang: m[1]}
			body.Reset()
		case cur != nil && m != nil && m[1] == "":
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(l + "\n")
		}
	}
	return out
}

// goBlocks returns the ```go blocks of a Markdown text.
func goBlocks(md string) []readmeBlock {
	return slices.DeleteFunc(mdBlocks(md), func(b readmeBlock) bool { return b.lang != "go" })
}

// placeholderRE is "{ ... }" or "{ … }": a statement's body left to the
// reader.
var placeholderRE = regexp.MustCompile(`\{\s*(\.\.\.|…)\s*\}`)

const placeholderFunc = "readmePlaceholder"

// readmeProgram is a block made into a file.
type readmeProgram struct {
	src   string
	start int // line of the file where the block's first line is
}

// program makes a block into a Go file. params are the reader's values it
// receives (statement blocks only).
func program(b readmeBlock, params []string) readmeProgram {
	body := placeholderRE.ReplaceAllString(b.text, "{ "+placeholderFunc+"() }")
	var names []string
	for name := range readmeImports {
		if regexp.MustCompile(`\b` + name + `\.`).MatchString(body) {
			names = append(names, name)
		}
	}
	for _, p := range params {
		t := readmeValues[p]
		if i := strings.Index(t, "."); i > 0 {
			names = append(names, strings.TrimLeft(t[:i], "[]*"))
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	var src strings.Builder
	src.WriteString("package readme\n\nimport (\n")
	for _, n := range names {
		fmt.Fprintf(&src, "\t%s %q\n", n, readmeImports[n])
	}
	src.WriteString(")\n\nfunc " + placeholderFunc + "() {}\n\n")
	if isFile(b.text) {
		return readmeProgram{src: b.text, start: 1}
	}
	if isDecls(b.text) {
		start := strings.Count(src.String(), "\n") + 1
		src.WriteString(body)
		return readmeProgram{src: src.String(), start: start}
	}
	var ps []string
	for _, p := range params {
		ps = append(ps, p+" "+readmeValues[p])
	}
	src.WriteString("func readmeBlock(" + strings.Join(ps, ", ") + ") {\n")
	start := strings.Count(src.String(), "\n") + 1
	src.WriteString(body)
	src.WriteString("}\n")
	return readmeProgram{src: src.String(), start: start}
}

// isDecls reports whether a block is whole declarations (or a whole
// file).
func isDecls(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "func ") || isFile(text)
}

// isFile reports whether a block is a whole Go file: its first line that is
// neither blank nor a comment is a package clause.
func isFile(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		return strings.HasPrefix(l, "package ")
	}
	return false
}

// exportData builds the packages the blocks may import and returns the
// files of their export data, by import path (what go/types reads).
func exportData(t *testing.T) map[string]string {
	t.Helper()
	var pkgs []string
	for _, p := range readmeImports {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	// go test puts its own go first in PATH.
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-json=ImportPath,Export"}, pkgs...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		exports[p.ImportPath] = p.Export
	}
	return exports
}

// check type-checks a program and returns its errors, each with the README
// line it comes from, leaving out the unused variables the convention
// allows.
func check(fset *token.FileSet, imp types.Importer, name string, b readmeBlock, p readmeProgram) (errs []types.Error, parseErr error) {
	f, err := parser.ParseFile(fset, fmt.Sprintf("%s:%d", name, b.line), p.src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{Importer: imp, Error: func(err error) { errs = append(errs, err.(types.Error)) }}
	pkg, _ := conf.Check("readme", fset, []*ast.File{f}, info)

	// The block's top-level scope (statement blocks) and the scopes of its
	// placeholders.
	var top *types.Scope
	var holes []*types.Scope
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Name.Name == "readmeBlock" {
				top = info.Scopes[n.Type]
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == placeholderFunc {
				holes = append(holes, pkg.Scope().Innermost(n.Pos()))
			}
		}
		return true
	})
	allowed := func(e types.Error) bool {
		if !strings.HasPrefix(e.Msg, "declared and not used") {
			return false
		}
		for id, obj := range info.Defs {
			if id.Pos() != e.Pos || obj == nil {
				continue
			}
			s := obj.Parent()
			if s == top {
				return true
			}
			for _, h := range holes {
				if h == s || (h != nil && h.Parent() == s) {
					return true
				}
			}
		}
		return false
	}
	errs = slices.DeleteFunc(errs, allowed)
	return errs, nil
}

// readmeLine turns a position in a program into the README's line.
func readmeLine(fset *token.FileSet, b readmeBlock, p readmeProgram, pos token.Pos) int {
	return b.line + fset.Position(pos).Line - p.start + 1
}

// compileBlocks checks every Go block of md, the Markdown file name, and
// returns one message per error, naming the file's line.
func compileBlocks(t *testing.T, name, md string, imp types.Importer) []string {
	t.Helper()
	var msgs []string
	for _, b := range goBlocks(md) {
		fset := token.NewFileSet()
		var params []string
		p := program(b, nil)
		errs, perr := check(fset, imp, name, b, p)
		if perr != nil {
			msgs = append(msgs, fmt.Sprintf("block at %s:%d does not parse: %v", name, b.line, perr))
			continue
		}
		if !isDecls(b.text) {
			// The reader's own values: the names the block uses undeclared.
			for _, e := range errs {
				if name, ok := strings.CutPrefix(e.Msg, "undefined: "); ok {
					if _, known := readmeValues[name]; known && !slices.Contains(params, name) {
						params = append(params, name)
					}
				}
			}
			slices.Sort(params)
			p = program(b, params)
			errs, perr = check(fset, imp, name, b, p)
			require.NoError(t, perr)
		}
		for _, e := range errs {
			msgs = append(msgs, fmt.Sprintf("%s:%d: %s", name, readmeLine(fset, b, p, e.Pos), e.Msg))
		}
	}
	return msgs
}

// readmeImporter returns an importer of the packages in readmeImports
// (and what they import), from their export data.
func readmeImporter(t *testing.T) types.Importer {
	if testing.Short() {
		t.Skip("builds the export data of every package the README names")
	}
	exports := exportData(t)
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(f)
	})
}

// TestReadmeGoBlocksCompile: every Go block of the README compiles when
// copied into a program with the reader's values filled in (the convention
// above), so no snippet can drift from the API.
func TestReadmeGoBlocksCompile(t *testing.T) {
	md, err := os.ReadFile("README.md")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(goBlocks(string(md))), 6, "the README's Go blocks")
	for _, m := range compileBlocks(t, "README.md", string(md), readmeImporter(t)) {
		t.Error(m)
	}
}

// TestDocsGoBlocksCompile: the Go blocks of the guides under docs/ follow
// the README's convention and compile the same way, so the longer material
// moved out of the README cannot drift from the API either.
func TestDocsGoBlocksCompile(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	imp := readmeImporter(t)
	blocks := 0
	for _, f := range files {
		md, err := os.ReadFile(f)
		require.NoError(t, err)
		blocks += len(goBlocks(string(md)))
		for _, m := range compileBlocks(t, f, string(md), imp) {
			t.Error(m)
		}
	}
	require.GreaterOrEqual(t, blocks, 6, "the Go blocks of docs/*.md")
}

// TestReadmeCheckCatches: the check finds each kind of error the README's
// blocks once had (an unused variable of an inner scope, := with no new
// variable, a name a whole declaration does not define, a wrong type), at
// its README line, and accepts what the convention allows; a whole file
// gets nothing added (no reader's values, no imports) and no unused
// variable.
func TestReadmeCheckCatches(t *testing.T) {
	md := "# t\n\n" +
		"```sh\ngo test ./...\n```\n\n" + // line 3: not Go
		"```go\n" + // line 7: all allowed
		"c, err := ton.New(\"https://ton.example\", key)\n" +
		"if err != nil { ... }\n" +
		"for tx, err := range c.AllPendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{acct}}) { … }\n" +
		"page, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: block}) // \"…\" in a comment\n" +
		"fmt.Println(\"EQ…\")\n" +
		"```\n\n" +
		"```go\n" + // line 15
		"n := 1\n" +
		"if next, more := n, true; more { /* … */ }\n" + // line 17: next unused
		"for i, v := range []int{n} {\n\t_ = v\n}\n" + // line 18: i unused
		"fmt.Println(root)\n" +
		"root, n := beacon.Root{}, 2\n" + // line 22: no new variables
		"var s string = n\n" + // line 23: wrong type (s, of the top level, may stay unused)
		"```\n\n" +
		"```go\n" + // line 26
		"func TestX(t *testing.T) {\n" +
		"\tfmt.Println(ctx)\n" + // line 28: undefined in a declaration
		"}\n" +
		"```\n\n" +
		"```go\n" + // line 32: a whole file, its own imports only
		"// Package main is a program.\n" +
		"package main\n\n" +
		"import \"fmt\"\n\n" +
		"func main() {\n" +
		"\tn := 1\n" + // line 39: unused, in a program
		"\tfmt.Println(key, time.Second)\n" + // line 40: no reader's values, no added imports
		"}\n" +
		"```\n"
	got := compileBlocks(t, "README.md", md, readmeImporter(t))
	slices.Sort(got)
	require.Equal(t, []string{
		"README.md:17: declared and not used: next",
		"README.md:18: declared and not used: i",
		"README.md:22: no new variables on left side of :=",
		"README.md:23: cannot use n (variable of type int) as string value in variable declaration",
		"README.md:28: undefined: ctx",
		"README.md:39: declared and not used: n",
		"README.md:40: undefined: key",
		"README.md:40: undefined: time",
	}, got)
}

// mdLinkRE finds a Markdown link's target: [text](target).
var mdLinkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// headingSlug is the anchor GitHub gives a heading: lower case, spaces as
// hyphens, punctuation other than hyphens and underscores dropped.
func headingSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a Markdown file.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	inFence := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(l, "#") {
			out[headingSlug(strings.TrimLeft(l, "#"))] = true
		}
	}
	return out
}

// TestDocsLinksResolve: every relative link of the README, the guides, the
// bench pages and the project's other Markdown files names a file that
// exists, and an anchor names a heading of its file, so that moving a
// section leaves no dead link behind.
func TestDocsLinksResolve(t *testing.T) {
	files := []string{"README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "examples/README.md", "bench/README.md", "bench/RESULTS.md", "bench/HISTORY.md"}
	more, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	files = append(files, more...)
	for _, f := range files {
		md, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range mdLinkRE.FindAllStringSubmatch(string(md), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link to %s: no such file", f, target)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			body, err := os.ReadFile(file)
			require.NoError(t, err)
			if !anchors(string(body))[anchor] {
				t.Errorf("%s: link to %s: no heading #%s in %s", f, target, anchor, file)
			}
		}
	}
}
