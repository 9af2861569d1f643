package testkit

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
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

// Bundle makes one option of opts, applied in order: for tests that pass
// a set of options where one option goes. An option a chain package owns
// is applied whatever client takes the bundle, so bundle shared ones.
func Bundle(opts ...nodeaccess.Option) nodeaccess.Option {
	opts = slices.Clone(opts)
	return config.Make("", "testkit.Bundle", func(c *config.Config) error {
		for _, o := range opts {
			if _, _, f, _ := config.Open(o); f != nil {
				if err := f(c); err != nil {
					return err
				}
			}
		}
		return nil
	}).(nodeaccess.Option)
}
