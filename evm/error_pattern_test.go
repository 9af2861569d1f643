package evm_test

import (
	"errors"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneErrorPattern: the package's errors say what they match through
// Unwrap alone. No type has an Is or As method (a sentinel is errors.New,
// or fmt.Errorf wrapping the root sentinel it refines), so that errors.Is
// and errors.As answer from the chain of causes a reader can follow.
func TestOneErrorPattern(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := gotoken.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && (fn.Name.Name == "Is" || fn.Name.Name == "As") {
				t.Errorf("%s: method %s on an error type: match sentinels through Unwrap instead", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}

	// What the errors match, through Unwrap.
	assert.Equal(t, nodeaccess.ErrNotFound, errors.Unwrap(evm.ErrMulticallNotDeployed))
	rev := &evm.RevertError{RPC: &nodeaccess.RPCError{Code: 3, Message: "execution reverted"}}
	assert.Equal(t, []error{evm.ErrReverted, rev.RPC}, rev.Unwrap())
	assert.Equal(t, []error{evm.ErrReverted}, (&evm.RevertError{}).Unwrap())
	me := &evm.MulticallError{Index: 1, Revert: &evm.RevertError{}, Aggregate: rev}
	assert.ErrorIs(t, me, evm.ErrReverted)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, me, &re)
	assert.Same(t, rev.RPC, re)
}
