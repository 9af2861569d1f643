package nodeaccess_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

// chainOptions are an option of each chain package, by package.
func chainOptions() map[string]nodeaccess.Option {
	return map[string]nodeaccess.Option{
		"evm":    evm.WithMaxBatchSize(10),
		"hyper":  hyper.WithPublicURL(hyper.TestnetAPIURL),
		"ton":    ton.WithJSONRPC(),
		"beacon": beacon.WithEncoding(beacon.EncodingSSZ),
	}
}

// newOf makes a client of chain with opts.
func newOf(chain string, opts ...nodeaccess.Option) error {
	var err error
	switch chain {
	case "evm":
		_, err = evm.New("https://node.example", "k3y", opts...)
	case "hyper":
		_, err = hyper.New("https://node.example", "k3y", opts...)
	case "ton":
		_, err = ton.New("https://node.example", "k3y", opts...)
	case "beacon":
		_, err = beacon.New("https://node.example", "k3y", opts...)
	}
	return err
}

// TestOptionsOneTypeRefusedWhereTheyDoNotApply: every package's options are
// one type, so one slice of shared options spreads into every New; an
// option of one chain package given to another's New is refused, naming
// the option and both packages (hypercore.New takes evm's, for HyperEVM,
// and refuses any other chain's).
func TestOptionsOneTypeRefusedWhereTheyDoNotApply(t *testing.T) {
	t.Parallel()
	common := []nodeaccess.Option{nodeaccess.WithMaxAttempts(2), nodeaccess.WithTimeout(time.Second)}
	var evmOpts []evm.Option = common
	require.NoError(t, newOf("evm", append(evmOpts, evm.WithMaxBatchSize(10))...))
	for owner, opt := range chainOptions() {
		require.NoError(t, newOf(owner, append(common, opt)...), owner)
		for chain := range chainOptions() {
			if chain == owner {
				continue
			}
			err := newOf(chain, append(common, opt)...)
			var ie *nodeaccess.InputError
			require.ErrorAs(t, err, &ie, "%s option to %s.New", owner, chain)
			assert.Equal(t, "option", ie.Arg)
			assert.Contains(t, err.Error(), "is an option of package "+owner+", not of "+chain)
			assert.Contains(t, err.Error(), owner+".With")
		}
	}
	_, err := hypercore.New("https://node.example", "k3y", evm.WithMaxBatchSize(10), hypercore.WithHistory(), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = hypercore.New("https://node.example", "k3y", ton.WithJSONRPC())
	require.ErrorContains(t, err, "ton.WithJSONRPC, is an option of package ton, not of evm")
}

// testkit.Bundle applies the options it bundles in order (a later one wins, as
// among New's own arguments), and a bad one among them fails the
// constructor as it would alone.
func TestOptionsBundle(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	fast := nodeaccess.WithBackoff(time.Millisecond, time.Millisecond)
	for _, tc := range []struct {
		opt  nodeaccess.Option
		want int64
	}{
		{testkit.Bundle(fast, nodeaccess.WithMaxAttempts(1), nodeaccess.WithMaxAttempts(3)), 3},
		{testkit.Bundle(fast, nodeaccess.WithMaxAttempts(3), nodeaccess.WithMaxAttempts(1)), 1},
		{testkit.Bundle(testkit.Bundle(fast, nodeaccess.WithMaxAttempts(2)), nodeaccess.Option{}), 2},
	} {
		n.Store(0)
		c, err := evm.New(srv.URL, "k3y", tc.opt)
		require.NoError(t, err)
		_, err = c.Call(context.Background(), evm.CallMsg{}, evm.Latest)
		require.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		assert.Equal(t, tc.want, n.Load())
	}

	_, err := evm.New(srv.URL, "k3y", testkit.Bundle(nodeaccess.WithMaxAttempts(2), nodeaccess.WithMaxAttempts(0)))
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Contains(t, err.Error(), "WithMaxAttempts: 0 is outside 1..20")

	c, err := hyper.New(srv.URL, "k3y", testkit.Bundle(), nodeaccess.Option{}, testkit.Bundle(nodeaccess.Option{}))
	require.NoError(t, err)
	assert.NotNil(t, c)
	_, err = ton.New(srv.URL, "k3y", testkit.Bundle(nodeaccess.WithTimeout(time.Second), nodeaccess.WithMaxAttempts(1)))
	require.NoError(t, err)
}
