package nodeaccess_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

// TestKeyAsInputKeepsTheErrorType is the case: a caller who passes
// the key where an address or an account goes gets an error that matches
// ErrInvalidInput and *InputError, names the argument, sends nothing, and
// shows no key.
func TestKeyAsInputKeepsTheErrorType(t *testing.T) {
	t.Parallel()
	for _, key := range testkit.LeakKeys {
		srv, cnt := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { w.WriteHeader(500) })
		h, err := hyper.New(srv.URL, key, hyper.WithPublicURL(srv.URL))
		require.NoError(t, err)
		o, err := ton.New(srv.URL, key)
		require.NoError(t, err)
		for name, call := range map[string]func() error{
			"hyper PublicInfo": func() error {
				return h.PublicInfo(context.Background(), nil, map[string]string{"type": "userRole", "user": key})
			},
			"ton AccountStates": func() error {
				_, err := o.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{key}})
				return err
			},
			"ton PendingTransactions": func() error {
				_, err := o.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{key}})
				return err
			},
		} {
			err := call()
			require.Error(t, err, name)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, "%s: %v", name, err)
			var ie *nodeaccess.InputError
			if assert.True(t, errors.As(err, &ie), "%s: errors.As *InputError: %v", name, err) {
				assert.NotEmpty(t, ie.Arg, name)
				testkit.AssertNoKey(t, key, name+": InputError", ie.Arg+" "+ie.Reason)
			}
			testkit.AssertErrNoKey(t, key, err)
		}
		assert.Zero(t, cnt.Get(), "a request was sent")
	}
}
