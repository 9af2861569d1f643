package evmtest_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneErrorPattern: no type of the package (or of the node under it)
// has an Is or As method; ErrClosed says what it matches through Unwrap.
func TestOneErrorPattern(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && (fn.Name.Name == "Is" || fn.Name.Name == "As") {
				t.Errorf("%s: method %s: match sentinels through Unwrap instead", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, nodeaccess.ErrUnavailable, errors.Unwrap(evmtest.ErrClosed))
}
