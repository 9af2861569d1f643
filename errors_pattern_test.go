package nodeaccess_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// errorPatternPackages are the package directories held to issue 22's one
// error pattern. A chain package and its test server join the list once
// they follow it (beacon, beacon/beacontest).
var errorPatternPackages = []string{
	".",
	"beacon",
	"beacon/beacontest",
	"evm",
	"evm/evmtest",
	"hyper",
	"hyper/hypercore",
	"hyper/hypertest",
	"internal/config",
	"internal/jsontext",
	"internal/testkit",
	"internal/transport",
	"nodeaccesstest",
	"ton",
	"ton/tontest",
}

// TestOneErrorPattern holds the library packages and the test servers to
// one way of saying what an error is: a sentinel is a package-level
// errors.New(...) or fmt.Errorf(...) (the latter to refine a root sentinel
// with %w), and a typed error names the sentinels it matches through
// Unwrap. No type has an Is(error) bool or an As(any) bool method, which
// errors.Is and errors.As would consult instead of the chain, and no
// sentinel is a value of a custom type.
func TestOneErrorPattern(t *testing.T) {
	t.Parallel()
	var found []string
	for _, dir := range errorPatternPackages {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, dir)
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			found = append(found, errorPatternViolations(t, path, src)...)
		}
	}
	assert.Empty(t, found, "issue 22's one error pattern is broken:\n%s", strings.Join(found, "\n"))
}

// TestOneErrorPatternCatches: the check finds each kind of violation, and
// passes the forms the pattern allows.
func TestOneErrorPatternCatches(t *testing.T) {
	t.Parallel()
	src := `package p

import (
	"errors"
	"fmt"
)

var ErrGood = errors.New("good")

var (
	ErrAlsoGood       = fmt.Errorf("refined: %w", ErrGood)
	ErrTyped    error = errors.New("typed var")
	ErrCustom   error = &custom{}
	errPrivate        = &custom{}
	ErrA, ErrB        = errors.New("a"), custom{}
)

var ErrNoValue error

type custom struct{}

func (custom) Error() string            { return "custom" }
func (*custom) Is(target error) bool    { return target == ErrGood }
func (custom) As(target any) bool       { return false }
func (custom) Unwrap() error            { return ErrGood }
func (custom) Is2(target error) bool    { return false }
func (custom) As2(target interface{}) bool { return false }

type other struct{}

func (other) As(target interface{}) bool { return false }
func (other) Is(a, b error) bool         { return false }
`
	got := errorPatternViolations(t, "p.go", []byte(src))
	var names []string
	for _, v := range got {
		names = append(names, v[strings.LastIndex(v, ": ")+2:])
	}
	assert.Equal(t, []string{
		"sentinel ErrCustom is not errors.New or fmt.Errorf",
		"sentinel ErrB is not errors.New or fmt.Errorf",
		"sentinel ErrNoValue is not errors.New or fmt.Errorf",
		"method custom.Is(error) bool",
		"method custom.As(any) bool",
		"method other.As(any) bool",
	}, names)
}

// errorPatternViolations lists what in one source file breaks the pattern.
func errorPatternViolations(t *testing.T, path string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	require.NoError(t, err, path)
	var out []string
	at := func(n ast.Node, what string) {
		out = append(out, fset.Position(n.Pos()).String()+": "+what)
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !n.IsExported() || !strings.HasPrefix(n.Name, "Err") {
						continue
					}
					if i >= len(vs.Values) || !isNewError(vs.Values[i]) {
						at(n, "sentinel "+n.Name+" is not errors.New or fmt.Errorf")
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) != 1 {
				continue
			}
			recv := typeName(d.Recv.List[0].Type)
			switch {
			case d.Name.Name == "Is" && hasSignature(d.Type, isErrorType):
				at(d, "method "+recv+".Is(error) bool")
			case d.Name.Name == "As" && hasSignature(d.Type, isAnyType):
				at(d, "method "+recv+".As(any) bool")
			}
		}
	}
	return out
}

// isNewError reports whether e is a call of errors.New or fmt.Errorf.
func isNewError(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}

// hasSignature reports whether ft takes one parameter whose type param
// accepts and returns one bool.
func hasSignature(ft *ast.FuncType, param func(ast.Expr) bool) bool {
	if ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
		return false
	}
	if ft.Results == nil || len(ft.Results.List) != 1 || len(ft.Results.List[0].Names) > 1 {
		return false
	}
	res, ok := ft.Results.List[0].Type.(*ast.Ident)
	return ok && res.Name == "bool" && param(ft.Params.List[0].Type)
}

func isErrorType(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "error"
}

func isAnyType(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "any"
	case *ast.InterfaceType:
		return x.Methods == nil || len(x.Methods.List) == 0
	}
	return false
}

// typeName is the name of a receiver's type, without * or type parameters.
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.IndexExpr:
		return typeName(x.X)
	case *ast.IndexListExpr:
		return typeName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}
