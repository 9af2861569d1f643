package hyper

import (
	"context"
	"sync"
	"time"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// How long Client.Markets keeps a snapshot: marketsMaxAge in any case, and
// marketsMissAge once Markets.Market has met a key the snapshot does not
// cover (a market listed since, a new outcome).
const (
	marketsMaxAge  = 10 * time.Minute
	marketsMissAge = time.Minute
	// marketsParallel bounds the metadata requests in flight at once.
	marketsParallel = 4
)

// marketsCache is a Client's metadata snapshot. One fetch runs at a time
// (sem); the callers that wait for it then get its snapshot.
type marketsCache struct {
	sem chan struct{}
	mu  sync.Mutex
	cur *Markets
	now func() time.Time
}

func newMarketsCache() *marketsCache {
	return &marketsCache{sem: make(chan struct{}, 1), now: time.Now}
}

// fresh returns the snapshot while it may be used.
func (mc *marketsCache) fresh() *Markets {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	m := mc.cur
	if m == nil {
		return nil
	}
	age := mc.now().Sub(m.Time)
	if age < 0 || age >= marketsMaxAge || m.missed.Load() && age >= marketsMissAge {
		return nil
	}
	return m
}

// Markets returns Hyperliquid's market metadata, with which Markets.Market
// names every key of allMids ("@107" is HYPE/USDC) and gives its size
// decimals, and which the HyperCore reads take their scales from (see
// Core). The client fetches it from the public API on the first call and
// keeps it: later calls return the same snapshot until it is 10 minutes
// old, or 1 minute old once Markets.Market has been asked for a key it does
// not cover (a market listed since it was fetched), and then fetch it again.
// Calls from many goroutines share one fetch.
//
// A fetch sends these requests to the public API (the node does not serve
// them), each weighing 20 in its weight budget: spotMeta, perpDexs,
// outcomeMeta, meta for the first perp dex, and meta for each builder dex
// perpDexs lists, 80 + 20 per builder dex in all, which the default public
// budget (1200 a minute) spreads over a few seconds when there are many
// dexes. Any of them failing fails the call, with that request's error
// ("hyper: spotMeta: …"), and the client keeps its previous snapshot for the
// next call to try again; keep the *Markets you have to go on using it.
func (c *Client) Markets(ctx context.Context) (*Markets, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.node.Wrap("markets", err)
	}
	mc := c.markets
	if m := mc.fresh(); m != nil {
		return m, nil
	}
	select {
	case mc.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, c.node.Wrap("markets", ctx.Err())
	}
	defer func() { <-mc.sem }()
	if m := mc.fresh(); m != nil { // fetched while this call waited
		return m, nil
	}
	m, err := c.fetchMarkets(ctx)
	if err != nil {
		return nil, err
	}
	mc.mu.Lock()
	mc.cur = m
	mc.mu.Unlock()
	return m, nil
}

// fetchMarkets sends the metadata requests, at most marketsParallel at
// once, and builds the snapshot. The first error cancels the rest.
func (c *Client) fetchMarkets(ctx context.Context) (*Markets, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		pairs    []SpotPair
		tokens   []Token
		dexes    []PerpDex
		outcomes []Outcome
		first    []Perp
		firstCol int
	)
	err := c.parallel(ctx, cancel, []func(context.Context) error{
		func(ctx context.Context) error {
			sm, err := fetchMeta(ctx, c, "spotMeta", `{"type":"spotMeta"}`, decodeSpotMetaPair)
			pairs, tokens = sm.pairs, sm.tokens
			return err
		},
		func(ctx context.Context) (err error) {
			dexes, err = fetchMeta(ctx, c, "perpDexs", `{"type":"perpDexs"}`, decodePerpDexs)
			return err
		},
		func(ctx context.Context) (err error) {
			outcomes, err = fetchMeta(ctx, c, "outcomeMeta", `{"type":"outcomeMeta"}`, decodeOutcomeMeta)
			return err
		},
		func(ctx context.Context) (err error) {
			first, firstCol, err = fetchPerps(ctx, c, "")
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	dexes[0].Perps, dexes[0].CollateralToken = first, firstCol
	jobs := make([]func(context.Context) error, 0, len(dexes)-1)
	for i := 1; i < len(dexes); i++ {
		d := &dexes[i]
		jobs = append(jobs, func(ctx context.Context) (err error) {
			d.Perps, d.CollateralToken, err = fetchPerps(ctx, c, d.Name)
			return err
		})
	}
	if err := c.parallel(ctx, cancel, jobs); err != nil {
		return nil, err
	}
	return newMarkets(c.markets.now(), tokens, pairs, dexes, outcomes), nil
}

// decodeSpotMetaPair is decodeSpotMeta with its two results in one.
func decodeSpotMetaPair(body []byte) (spotMetaAnswer, error) {
	p, t, err := decodeSpotMeta(body)
	return spotMetaAnswer{p, t}, err
}

type spotMetaAnswer struct {
	pairs  []SpotPair
	tokens []Token
}

// fetchMeta sends one metadata request to the public API and decodes it.
func fetchMeta[T any](ctx context.Context, c *Client, typ, body string, dec func([]byte) (T, error)) (T, error) {
	var zero T
	t, resp, err := c.post(ctx, onPublic, typ, []byte(body))
	if err != nil {
		return zero, err
	}
	defer resp.Release()
	v, err := decode(t, &resp, dec)
	if err != nil {
		return zero, c.node.Wrap(typ, err)
	}
	return v, nil
}

// fetchPerps asks for the meta of the perp dex named dex ("" the first).
func fetchPerps(ctx context.Context, c *Client, dex string) ([]Perp, int, error) {
	body := `{"type":"meta"}`
	if dex != "" {
		body = string(appendJSONString([]byte(`{"type":"meta","dex":`), dex)) + "}"
	}
	type meta struct {
		perps      []Perp
		collateral int
	}
	m, err := fetchMeta(ctx, c, "meta", body, func(b []byte) (meta, error) {
		p, col, err := decodePerpMeta(b)
		return meta{p, col}, err
	})
	return m.perps, m.collateral, err
}

// parallel runs jobs, at most marketsParallel at once, and returns the
// first error; it cancels the others' context when one fails.
func (c *Client) parallel(ctx context.Context, cancel context.CancelFunc, jobs []func(context.Context) error) error {
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		slots = make(chan struct{}, marketsParallel)
	)
	for _, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-slots }()
			if err := job(ctx); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return c.node.Wrap("markets", ctx.Err())
	}
	return first
}
