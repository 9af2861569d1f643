package verified_test

import (
	"context"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every lie evmtest can tell is an error matching nodeaccess.ErrUnverified
// that says what was wrong, through every verified read it reaches; never
// a wrong value.
func TestLiesRefused(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t) // its own: it lies
	v := client(t, srv, nodeaccess.WithMaxAttempts(1))
	ctx := context.Background()
	holder := evmtest.Holder()
	slot := balanceSlot(holder)
	call := evm.CallMsg{To: evmtest.Token(), Data: balanceOf(holder)}
	reads := map[string]func() error{
		"Balance":   func() error { _, err := v.Balance(ctx, holder, evm.Latest); return err },
		"StorageAt": func() error { _, err := v.StorageAt(ctx, evmtest.Token(), slot, evm.Latest); return err },
		"Code":      func() error { _, err := v.Code(ctx, evmtest.Token(), evm.Latest); return err },
		"Call":      func() error { _, err := v.Call(ctx, call, evm.Latest); return err },
		"Number":    func() error { _, err := v.Balance(ctx, holder, evm.BlockNumber(3)); return err },
	}
	for _, tc := range []struct {
		name string
		lie  evmtest.Lie
		want map[string]string // read: what the error says; reads left out are not lied to
	}{
		{"altered balance", evmtest.Lie{Balance: true}, map[string]string{"Balance": "balance", "StorageAt": "balance", "Code": "balance", "Call": "balance", "Number": "balance"}},
		{"altered slot", evmtest.Lie{Slot: true}, map[string]string{"StorageAt": "value 1200000001, the storage trie says 1200000000", "Call": "the storage trie says"}},
		{"altered code", evmtest.Lie{Code: true}, map[string]string{"Code": "not to the proven code hash", "Call": "not to the proven code hash"}},
		{"a node missing", evmtest.Lie{DropNode: true}, map[string]string{"Balance": "missing", "StorageAt": "missing", "Code": "missing", "Call": "missing", "Number": "missing"}},
		{"a node extra", evmtest.Lie{ExtraNode: true}, map[string]string{"Balance": "given twice", "StorageAt": "given twice", "Code": "given twice", "Call": "given twice", "Number": "given twice"}},
		{"a proof for another block's root", evmtest.Lie{OtherRoot: true}, map[string]string{"Balance": "a proof for another root", "StorageAt": "a proof for another root", "Code": "a proof for another root", "Call": "a proof for another root", "Number": "a proof for another root"}},
		{"a header of another block", evmtest.Lie{Header: true}, map[string]string{"Balance": "a header of another block", "StorageAt": "a header of another block", "Code": "a header of another block", "Call": "a header of another block", "Number": "a header of another block"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.Lie(tc.lie)
			defer srv.Lie(evmtest.Lie{})
			for name, read := range reads {
				err := read()
				want, lied := tc.want[name]
				if !lied {
					assert.NoError(t, err, name)
					continue
				}
				require.ErrorIs(t, err, nodeaccess.ErrUnverified, name)
				var oe *nodeaccess.OpError
				assert.ErrorAs(t, err, &oe, name)
				assert.Contains(t, err.Error(), want, name)
			}
		})
	}
}

// An access list that leaves out a slot the call reads is not believed:
// the slot is fetched with a proof and the call run again (one round trip
// more), and the result is the chain's.
func TestCallAccessListLeftOut(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t)
	v := client(t, srv)
	ctx := context.Background()
	call := evm.CallMsg{To: evmtest.Token(), Data: balanceOf(evmtest.Holder())}
	want, err := v.Call(ctx, call, evm.Latest)
	require.NoError(t, err)
	srv.Lie(evmtest.Lie{AccessList: true})
	before := srv.RequestCount()
	got, err := v.Call(ctx, call, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, 3, srv.RequestCount()-before, "the slot left out costs one batch more")
	// An account left out (the ten accounts' call names no slot).
	srv.Lie(evmtest.Lie{})
	want, err = v.Call(ctx, tenAccounts(), evm.Latest)
	require.NoError(t, err)
	srv.Lie(evmtest.Lie{AccessList: true})
	before = srv.RequestCount()
	got, err = v.Call(ctx, tenAccounts(), evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, 3, srv.RequestCount()-before, "the account left out costs one batch more")
}

// The access key appears in no error of a verified read, lie or refusal.
func TestErrorsHoldNoKey(t *testing.T) {
	t.Parallel()
	const key = "v3rifiedS3cretKey"
	srv := evmtest.NewT(t, evmtest.WithKey(key))
	v := client(t, srv, nodeaccess.WithMaxAttempts(1))
	ctx := context.Background()
	for _, lie := range []evmtest.Lie{{Balance: true}, {Header: true}, {Code: true}, {DropNode: true}} {
		srv.Lie(lie)
		_, err := v.Call(ctx, evm.CallMsg{To: evmtest.Token(), Data: balanceOf(evmtest.Holder())}, evm.Latest)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), key)
		_, err = v.Code(ctx, evmtest.Token(), evm.Latest)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), key)
	}
	_, err := v.Balance(ctx, evmtest.Holder(), evm.Pending)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), key)
}
