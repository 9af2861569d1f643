package hyper

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
)

// metaServer is a public API that answers the metadata requests from the
// recorded bodies (perpDexs lists xyz only), records each request's body,
// and fails the requests of a type while fail holds it.
type metaServer struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []string
	fail atomic.Value // string: the type to answer 422
}

func newMetaServer(t *testing.T) *metaServer {
	t.Helper()
	ms := &metaServer{}
	ms.fail.Store("")
	answers := map[string][]byte{
		`{"type":"spotMeta"}`:            readFixture(t, "spotMeta_2025-08.json"),
		`{"type":"perpDexs"}`:            []byte(`[null,{"name":"xyz","fullName":"XYZ","deployer":"0x88806a71d74ad0a510b350545c9ae490912f0888"}]`),
		`{"type":"outcomeMeta"}`:         readFixture(t, "outcomeMeta_handbuilt.json"),
		`{"type":"meta"}`:                readFixture(t, "meta_2025-12.json"),
		`{"type":"meta","dex":"xyz"}`:    elementZero(t, readFixture(t, "metaAndAssetCtxs_xyz_2026-02.json")),
		`{"type":"allMids"}`:             readFixture(t, "allMids_2025-12.json"),
		`{"type":"meta","dex":"absent"}`: []byte(`null`),
	}
	ms.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ms.mu.Lock()
		ms.got = append(ms.got, string(body))
		ms.mu.Unlock()
		var typ struct{ Type string }
		_ = json.Unmarshal(body, &typ)
		if typ.Type == ms.fail.Load().(string) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusUnprocessableEntity)
			_, _ = io.WriteString(w, "Failed to deserialize the JSON body into the target type")
			return
		}
		a, ok := answers[string(body)]
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(a)
	}))
	t.Cleanup(ms.srv.Close)
	return ms
}

// take returns the request bodies received since the last take, sorted.
func (ms *metaServer) take() []string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	got := ms.got
	ms.got = nil
	slices.Sort(got)
	return got
}

// clock is a settable time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func metaClient(t *testing.T, ms *metaServer, opts ...nodeaccess.Option) (*Client, *clock) {
	t.Helper()
	opts = append([]nodeaccess.Option{WithPublicURL(ms.srv.URL), WithPublicBudget(nil), nodeaccess.WithMaxAttempts(1)}, opts...)
	c, err := New("https://node.example", "k3y", opts...)
	require.NoError(t, err)
	clk := &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	c.markets.now = clk.now
	return c, clk
}

var fullRefresh = []string{`{"type":"meta","dex":"xyz"}`, `{"type":"meta"}`, `{"type":"outcomeMeta"}`, `{"type":"perpDexs"}`, `{"type":"spotMeta"}`}

// The first call fetches every metadata request once, the builder dex's
// meta included; later calls reuse the snapshot until it is 10 minutes old,
// or 1 minute old once a key it does not know was asked for.
func TestMarketsFetchOnceAndRefresh(t *testing.T) {
	ms := newMetaServer(t)
	c, clk := metaClient(t, ms)
	ctx := context.Background()

	m, err := c.Markets(ctx)
	require.NoError(t, err)
	assert.Equal(t, fullRefresh, ms.take())
	assert.Equal(t, clk.now(), m.Time)
	gold, ok := m.Market("xyz:GOLD")
	require.True(t, ok)
	assert.Equal(t, 110003, gold.Asset)

	clk.add(9*time.Minute + 59*time.Second)
	again, err := c.Markets(ctx)
	require.NoError(t, err)
	assert.Same(t, m, again)
	assert.Empty(t, ms.take())

	clk.add(time.Second)
	newer, err := c.Markets(ctx)
	require.NoError(t, err)
	assert.NotSame(t, m, newer)
	assert.Equal(t, fullRefresh, ms.take())

	// A key the snapshot does not cover: kept for a minute, then fetched
	// again.
	_, ok = newer.Market("@71")
	require.False(t, ok)
	clk.add(59 * time.Second)
	same, err := c.Markets(ctx)
	require.NoError(t, err)
	assert.Same(t, newer, same)
	assert.Empty(t, ms.take())
	clk.add(time.Second)
	third, err := c.Markets(ctx)
	require.NoError(t, err)
	assert.NotSame(t, newer, third)
	assert.Equal(t, fullRefresh, ms.take())
	assert.False(t, third.missed.Load())

	// A clock that went back: fetched again rather than trusted.
	clk.add(-time.Hour)
	_, err = c.Markets(ctx)
	require.NoError(t, err)
	assert.Equal(t, fullRefresh, ms.take())
}

// Goroutines that ask at once share one fetch.
func TestMarketsConcurrentCallsShareOneFetch(t *testing.T) {
	ms := newMetaServer(t)
	c, _ := metaClient(t, ms)
	var wg sync.WaitGroup
	got := make([]*Markets, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := c.Markets(context.Background())
			assert.NoError(t, err)
			got[i] = m
		}()
	}
	wg.Wait()
	for _, m := range got {
		assert.Same(t, got[0], m)
	}
	assert.Equal(t, fullRefresh, ms.take())
}

// A failed request fails the call with that request's error; the previous
// snapshot stays, and the next call tries again.
func TestMarketsFetchFailure(t *testing.T) {
	for _, typ := range []string{"spotMeta", "perpDexs", "outcomeMeta", "meta"} {
		t.Run(typ, func(t *testing.T) {
			ms := newMetaServer(t)
			c, clk := metaClient(t, ms)
			ctx := context.Background()
			first, err := c.Markets(ctx)
			require.NoError(t, err)
			ms.take()

			clk.add(marketsMaxAge)
			ms.fail.Store(typ)
			m, err := c.Markets(ctx)
			assert.Nil(t, m)
			require.ErrorIs(t, err, ErrUnsupportedRequest)
			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, []string{"hyper", typ}, []string{op.Chain, op.Op})
			assert.Same(t, first, c.markets.cur)

			ms.fail.Store("")
			m, err = c.Markets(ctx)
			require.NoError(t, err)
			assert.NotSame(t, first, m)
		})
	}

	// A body that is not metadata is an invalid response, named.
	ms := newMetaServer(t)
	c, _ := metaClient(t, ms)
	ms.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `[1]`)
	})
	_, err := c.Markets(context.Background())
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)

	// A cancelled context: the context's error, nothing kept.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Markets(ctx)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	assert.Nil(t, c.markets.cur)
}
