package evmtest_test

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NewT starts a server that the test's end closes.
func TestNewT(t *testing.T) {
	t.Parallel()
	var s *evmtest.Server
	t.Run("inner", func(t *testing.T) {
		s = evmtest.NewT(t, evmtest.WithKey(testKey), evmtest.WithoutScenario())
		status, _, body := post(t, s, "/"+testKey, rpcBody("eth_blockNumber", `[]`))
		assert.Equal(t, 200, status)
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"0x0"}`, body)
	})
	require.NotNil(t, s)
	// The inner test's cleanup closed it.
	acc := evmtest.Accounts()
	to := acc[1].Address
	_, err := s.Transact(t.Context(), acc[0], &to, big.NewInt(1), nil)
	assert.ErrorIs(t, err, evmtest.ErrClosed)
}

// fakeTB records what NewT asks of a testing.TB; its Fatalf returns, as
// testing's does not.
type fakeTB struct {
	testing.TB
	fatal    string
	cleanups int
}

func (f *fakeTB) Helper()                           {}
func (f *fakeTB) Fatalf(format string, args ...any) { f.fatal = fmt.Sprintf(format, args...) }
func (f *fakeTB) Cleanup(func())                    { f.cleanups++ }

// NewT fails the test when the server cannot start, and registers nothing.
func TestNewTFails(t *testing.T) {
	t.Parallel()
	var tb fakeTB
	s := evmtest.NewT(&tb, evmtest.WithKey("a/b"))
	assert.Nil(t, s)
	assert.Equal(t, `evmtest: nodeaccesstest: the access key may hold only ASCII letters, digits and ._~- (byte 1 is '/')`, tb.fatal)
	assert.Zero(t, tb.cleanups)
}

// A server prints without its key, with every verb, also inside another
// value.
func TestServerString(t *testing.T) {
	t.Parallel()
	s := shared(t)
	want := "evmtest.Server{" + s.URL + "/REDACTED}"
	assert.Equal(t, want, s.String())
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		got := fmt.Sprintf(verb, s)
		assert.Equal(t, want, got, verb)
		assert.NotContains(t, got, testKey, verb)
	}
	nested := fmt.Sprintf("%+v %#v", struct{ S *evmtest.Server }{s}, []*evmtest.Server{s})
	assert.Equal(t, "{S:"+want+"} []*evmtest.Server{"+want+"}", nested)
	assert.Equal(t, "<nil>", (*evmtest.Server)(nil).String())
	assert.Equal(t, "<nil>", fmt.Sprint((*evmtest.Server)(nil)))
}

// After Close, what would change the chain fails clearly: ErrClosed, and a
// panic from Commit, which has no error to return.
func TestUseAfterClose(t *testing.T) {
	t.Parallel()
	s, err := evmtest.New(evmtest.WithKey(testKey))
	require.NoError(t, err)
	snap := s.Snapshot()
	s.Close()

	assert.PanicsWithValue(t, "evmtest: Commit on a closed Server", func() { s.Commit() })
	acc := evmtest.Accounts()
	to := acc[1].Address
	r, err := s.Transact(t.Context(), acc[0], &to, big.NewInt(1), nil)
	assert.Nil(t, r)
	assert.ErrorIs(t, err, evmtest.ErrClosed)
	assert.EqualError(t, err, "evmtest: Server closed: service unavailable")
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	tx, err := types.SignNewTx(acc[0].Key, types.LatestSignerForChainID(big.NewInt(evmtest.ChainID)), &types.LegacyTx{
		Nonce: 5, GasPrice: big.NewInt(10_000_000_000), Gas: 21000, To: &to, Value: big.NewInt(1),
	})
	require.NoError(t, err)
	assert.ErrorIs(t, s.SendTransaction(t.Context(), tx), evmtest.ErrClosed)
	assert.ErrorIs(t, s.AdjustTime(0), evmtest.ErrClosed)
	assert.ErrorIs(t, s.Revert(snap), evmtest.ErrClosed)

	// What only reads still answers.
	assert.Equal(t, uint64(5), snap.Block())
	assert.Equal(t, uint64(5), s.Scenario().TokenTransfer.Block)
	assert.True(t, strings.HasPrefix(s.String(), "evmtest.Server{http://127.0.0.1:"))
}
