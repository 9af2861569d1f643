package verified_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
	"github.com/stretchr/testify/require"
)

// delayed adds a round-trip time to every HTTP request: evmtest answers
// at once, a provider does not.
type delayed struct{ rtt time.Duration }

func (d delayed) RoundTrip(req *http.Request) (*http.Response, error) {
	time.Sleep(d.rtt)
	return http.DefaultTransport.RoundTrip(req)
}

// BenchmarkCall: a verified eth_call touching 10 accounts (tenAccounts)
// against the plain eth_call of the same message, with a round-trip time
// of 0 and of 5 ms added to every HTTP request. It reports the HTTP
// requests per call (evmtest's RequestCount) and the request units (the
// hooks' Attempt.Units); ns/op is the latency.
//
//	go test -run '^$' -bench BenchmarkCall ./evm/verified/
func BenchmarkCall(b *testing.B) {
	srv := evmtest.NewT(b)
	msg := tenAccounts()
	ctx := context.Background()
	head, _, err := chainAnchor{srv}.ExecutionBlocks(ctx)
	require.NoError(b, err)
	for _, rtt := range []time.Duration{0, 5 * time.Millisecond} {
		var units atomic.Int64
		opts := []nodeaccess.Option{
			nodeaccess.WithRoundTripper(delayed{rtt}),
			nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) { units.Add(int64(a.Units)) }),
		}
		c, err := srv.Client(opts...)
		require.NoError(b, err)
		v, err := verified.New(c, fixedAnchor{head: head, finalized: head})
		require.NoError(b, err)
		_, err = v.Call(ctx, msg, evm.Latest) // learns the chain id
		require.NoError(b, err)
		for _, tc := range []struct {
			name string
			call func() error
		}{
			{"verified", func() error { _, err := v.Call(ctx, msg, evm.Latest); return err }},
			{"plain", func() error { _, err := c.Call(ctx, msg, evm.BlockHash{Hash: head}); return err }},
		} {
			b.Run(tc.name+"/rtt="+rtt.String(), func(b *testing.B) {
				units.Store(0)
				before := srv.RequestCount()
				for b.Loop() {
					if err := tc.call(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(srv.RequestCount()-before)/float64(b.N), "requests/op")
				b.ReportMetric(float64(units.Load())/float64(b.N), "units/op")
			})
		}
	}
}
