package ton_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The package's sentinels refine a root sentinel by wrapping it (issue 22,
// one error pattern): each unwraps to its root, so errors.Is finds the root
// through the standard chain, without an Is method.
func TestSentinelsWrapTheirRoot(t *testing.T) {
	for _, tc := range []struct {
		name           string
		sentinel, root error
	}{
		{"ErrNotYetAvailable", ton.ErrNotYetAvailable, nodeaccess.ErrUnavailable},
		{"ErrUnreadableTransaction", ton.ErrUnreadableTransaction, nodeaccess.ErrUnavailable},
		{"ErrRepeatedPage", ton.ErrRepeatedPage, nodeaccess.ErrInvalidResponse},
	} {
		assert.Same(t, tc.root, errors.Unwrap(tc.sentinel), tc.name)
		assert.ErrorIs(t, tc.sentinel, tc.root, tc.name)
		assert.True(t, strings.HasPrefix(tc.sentinel.Error(), tc.root.Error()+": "), tc.name)
	}
}

// No type of the package says what it matches by an Is or an As method:
// typed errors unwrap to their sentinels, classified causes are wrapped
// (fmt.Errorf("%w: %w", …)).
func TestNoIsOrAsMethods(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && (fn.Name.Name == "Is" || fn.Name.Name == "As") {
				t.Errorf("%s: method %s at %s", name, fn.Name.Name, fset.Position(fn.Pos()))
			}
		}
	}
}
