package nodeaccess_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No package of the module exports a variable other than an Err sentinel
// (errors stay variables, as in Go's own packages, so that errors.Is works
// on them): a default, a selector or an address any code could reassign
// would change what every other caller in the process sees. Selectors and
// defaults are constants or functions instead (evm.Latest, beacon.Head,
// evmtest.Token(), tontest.DefaultBlock().ID.BlockRef, …). internal/ is not API, and
// abigen's generated bindings keep their own form.
func TestNoExportedVariables(t *testing.T) {
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "internal", "testdata", "bench", "redisbudget", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) || f.Name.Name == "main" {
			return nil
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, n := range spec.(*ast.ValueSpec).Names {
					if n.IsExported() && !strings.HasPrefix(n.Name, "Err") {
						found = append(found, fset.Position(n.Pos()).String()+": "+f.Name.Name+"."+n.Name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("exported variables that any code could reassign:\n%s", strings.Join(found, "\n"))
	}
}
