package nodeaccess_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOptionsAreTypedPerChain: an option of one chain package given to
// another chain's New does not compile, while the nodeaccess options, and
// a bundle of them, go to every chain. Each case is type-checked as a
// program a user would write, against the packages' export data.
func TestOptionsAreTypedPerChain(t *testing.T) {
	imp := readmeImporter(t)
	for _, tc := range []struct {
		call string
		want string // "" compiles; else a part of the compiler's message
	}{
		{`evm.New(u, k, nodeaccess.WithMaxAttempts(2), evm.WithMaxBatchSize(10), evm.WithPathSuffix("evm"))`, ""},
		{`ton.New(u, k, nodeaccess.WithMaxAttempts(2), ton.WithJSONRPC())`, ""},
		{`beacon.New(u, k, nodeaccess.WithTimeout(time.Minute), beacon.WithEncoding(beacon.EncodingSSZ), beacon.WithPreset(beacon.MinimalPreset()))`, ""},
		{`hyper.New(u, k, nodeaccess.WithHook(nil), hyper.WithPublicURL(hyper.TestnetAPIURL), hyper.WithEVM(evm.WithMaxBatchSize(10), nodeaccess.WithMaxAttempts(1)))`, ""},
		{`evm.New(u, k, nodeaccess.Options(nodeaccess.WithMaxAttempts(2), nodeaccess.WithTimeout(time.Second)))`, ""},
		{`ton.New(u, k, evm.WithMaxBatchSize(10))`, "does not implement nodeaccess.TONOption"},
		{`ton.New(u, k, evm.WithPathSuffix("evm"))`, "does not implement nodeaccess.TONOption"},
		{`evm.New(u, k, ton.WithJSONRPC())`, "does not implement nodeaccess.EVMOption"},
		{`evm.New(u, k, hyper.WithPublicURL(hyper.TestnetAPIURL))`, "does not implement nodeaccess.EVMOption"},
		{`evm.New(u, k, beacon.WithEncoding(beacon.EncodingSSZ))`, "does not implement nodeaccess.EVMOption"},
		{`beacon.New(u, k, evm.WithPathSuffix("evm"))`, "does not implement nodeaccess.BeaconOption"},
		{`hyper.New(u, k, evm.WithMaxBatchSize(10))`, "does not implement nodeaccess.HyperOption"},
		{`hyper.New(u, k, ton.WithJSONRPC())`, "does not implement nodeaccess.HyperOption"},
		{`hyper.New(u, k, hyper.WithEVM(ton.WithJSONRPC()))`, "does not implement nodeaccess.EVMOption"},
		{`nodeaccess.Options(evm.WithMaxBatchSize(10))`, "cannot use evm.WithMaxBatchSize"},
	} {
		src := "package p\n\nimport (\n\t\"time\"\n\t\"github.com/nodeaccess/nodeaccess\"\n\t\"github.com/nodeaccess/nodeaccess/beacon\"\n" +
			"\t\"github.com/nodeaccess/nodeaccess/evm\"\n\t\"github.com/nodeaccess/nodeaccess/hyper\"\n\t\"github.com/nodeaccess/nodeaccess/ton\"\n)\n\n" +
			"var _ = time.Second\nvar _ = beacon.EncodingSSZ\nvar _ = evm.Latest\nvar _ = hyper.TestnetAPIURL\nvar _ = ton.MasterchainShard\nvar _ nodeaccess.Option\n\n" +
			"func f(u, k string) { " + tc.call + " }\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		require.NoError(t, err, tc.call)
		var msgs []string
		conf := types.Config{Importer: imp, Error: func(err error) { msgs = append(msgs, err.Error()) }}
		_, _ = conf.Check("p", fset, []*ast.File{f}, nil)
		if tc.want == "" {
			assert.Empty(t, msgs, tc.call)
			continue
		}
		assert.True(t, len(msgs) > 0 && strings.Contains(strings.Join(msgs, "\n"), tc.want), "%s: %q", tc.call, msgs)
	}
}

// Options applies the options it bundles in order (a later one wins, as
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
		{nodeaccess.Options(fast, nodeaccess.WithMaxAttempts(1), nodeaccess.WithMaxAttempts(3)), 3},
		{nodeaccess.Options(fast, nodeaccess.WithMaxAttempts(3), nodeaccess.WithMaxAttempts(1)), 1},
		{nodeaccess.Options(nodeaccess.Options(fast, nodeaccess.WithMaxAttempts(2)), nodeaccess.Option{}), 2},
	} {
		n.Store(0)
		c, err := evm.New(srv.URL, "k3y", tc.opt)
		require.NoError(t, err)
		_, err = c.Call(context.Background(), evm.CallMsg{}, evm.Latest)
		require.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		assert.Equal(t, tc.want, n.Load())
	}

	_, err := evm.New(srv.URL, "k3y", nodeaccess.Options(nodeaccess.WithMaxAttempts(2), nodeaccess.WithMaxAttempts(0)))
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Contains(t, err.Error(), "WithMaxAttempts: 0 is outside 1..20")

	c, err := hyper.New(srv.URL, "k3y", nodeaccess.Options(), nodeaccess.Option{}, nodeaccess.Options(nodeaccess.Option{}))
	require.NoError(t, err)
	assert.NotNil(t, c.EVM())
	_, err = ton.New(srv.URL, "k3y", nodeaccess.Options(nodeaccess.WithTimeout(time.Second), nodeaccess.WithMaxAttempts(1)))
	require.NoError(t, err)
}
