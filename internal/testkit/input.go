package testkit

import (
	"errors"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/require"
)

// RequireInputError stops the test unless err is the SDK's error for bad
// input: an *nodeaccess.OpError whose chain is *nodeaccess.InputError naming
// arg, matching nodeaccess.ErrInvalidInput. It returns both for further
// checks.
func RequireInputError(t testing.TB, err error, arg string) (*nodeaccess.OpError, *nodeaccess.InputError) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	require.Equal(t, arg, ie.Arg, "InputError.Arg of %q", err)
	var oe *nodeaccess.OpError
	require.True(t, errors.As(err, &oe), "not an *OpError: %T %v", err, err)
	return oe, ie
}
