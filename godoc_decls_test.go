package nodeaccess_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGodocDeclsNameNoUnexported: what go doc shows of each exported
// declaration of the packages users read (an exported type's definition,
// but the unexported fields and methods go doc hides; an exported
// function's or method's signature) names no unexported type of the
// package. Such a name is a type users cannot write, read or look up, as
// a `type Option func(*settings) error` shows.
func TestGodocDeclsNameNoUnexported(t *testing.T) {
	for _, dir := range docPackages {
		t.Run(dir, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join(dir, "*.go"))
			require.NoError(t, err)
			fset := token.NewFileSet()
			var parsed []*ast.File
			unexported := map[string]bool{}
			for _, f := range files {
				if strings.HasSuffix(f, "_test.go") {
					continue
				}
				af, err := parser.ParseFile(fset, f, nil, 0)
				require.NoError(t, err)
				parsed = append(parsed, af)
				for _, d := range af.Decls {
					if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
						for _, s := range g.Specs {
							if n := s.(*ast.TypeSpec).Name; !n.IsExported() {
								unexported[n.Name] = true
							}
						}
					}
				}
			}
			var check func(where string, n ast.Node)
			check = func(where string, n ast.Node) {
				ast.Inspect(n, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.SelectorExpr:
						return false // another package's name
					case *ast.Field:
						check(where, n.Type) // not its names: a parameter's name is no type
						return false
					case *ast.Ident:
						if unexported[n.Name] {
							t.Errorf("%s: %s shows the unexported type %s", fset.Position(n.Pos()), where, n.Name)
						}
					}
					return true
				})
			}
			for _, af := range parsed {
				for _, d := range af.Decls {
					switch d := d.(type) {
					case *ast.FuncDecl:
						if !d.Name.IsExported() || (d.Recv != nil && !ast.IsExported(receiverType(d.Recv.List[0].Type))) {
							continue
						}
						check(d.Name.Name, d.Type)
					case *ast.GenDecl:
						for _, s := range d.Specs {
							ts, ok := s.(*ast.TypeSpec)
							if !ok || !ts.Name.IsExported() {
								continue
							}
							checkShown(ts, check)
						}
					}
				}
			}
		})
	}
	assert.NotEmpty(t, docPackages)
}

// checkShown checks the parts of an exported type's definition go doc
// shows: of a struct its exported fields, of an interface its exported
// methods, of any other type all of it.
func checkShown(ts *ast.TypeSpec, check func(string, ast.Node)) {
	var fields *ast.FieldList
	switch tt := ts.Type.(type) {
	case *ast.StructType:
		fields = tt.Fields
	case *ast.InterfaceType:
		fields = tt.Methods
	default:
		check(ts.Name.Name, ts.Type)
		return
	}
	for _, f := range fields.List {
		shown := len(f.Names) == 0 // an embedded type: shown when exported
		for _, n := range f.Names {
			shown = shown || n.IsExported()
		}
		if len(f.Names) == 0 {
			typ := f.Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X // an embedded *T is named T
			}
			if id, ok := typ.(*ast.Ident); ok && !id.IsExported() {
				shown = false // go doc hides an unexported embedded type, T or *T
			}
		}
		if shown {
			check(ts.Name.Name, f.Type)
		}
	}
}
