package ton_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// faulty answers every n-th request itself, in turn with each of the
// failures a follower meets at the head: a lagging lite server's 500 "not
// in db", its "older than block's masterchain ref", toncenter's 542, a 503,
// a 429, and the same faults inside an HTTP 200, as gateways also send
// them: in TON's {"ok":false,…} form and in a JSON-RPC error object. The
// others go to the server.
type faulty struct {
	every, count atomic.Int64
	only         string // when set, only requests whose path ends so
	next         http.RoundTripper
}

var followFaults = []struct {
	status int
	body   string
}{
	{500, `{"ok":false,"error":"LITE_SERVER_NOTREADY: cannot find block (0,4000000000000000) seqno=7: seqno not in db","code":500}`},
	{500, `{"ok":false,"error":"LITE_SERVER_UNKNOWN: specified mc block is older than block's masterchain ref","code":500}`},
	{542, `{"ok":false,"error":"LITE_SERVER_UNKNOWN: timeout","code":542}`},
	{503, `{"ok":false,"error":"no working liteservers","code":503}`},
	{429, `{"ok":false,"result":"Ratelimit exceed","code":429}`},
	{200, `{"ok":false,"result":"Ratelimit exceed","code":429}`},
	{200, `{"ok":false,"error":"LITE_SERVER_NOTREADY: cannot find block (0,4000000000000000) seqno=7: seqno not in db","code":500}`},
	{200, `{"ok":false,"error":"LITE_SERVER_UNKNOWN: timeout","code":542}`},
	{200, `{"ok":false,"error":"no working liteservers","code":503}`},
	{200, `{"ok":false,"error":"lite server timeout","code":504,"jsonrpc":"2.0","id":"1"}`},
	{200, `{"jsonrpc":"2.0","id":1,"error":{"code":503,"message":"no working liteservers"}}`},
	{200, `{"jsonrpc":"2.0","id":1,"error":{"code":542,"message":"LITE_SERVER_UNKNOWN: timeout"}}`},
}

func (f *faulty) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.only != "" && !strings.HasSuffix(r.URL.Path, f.only) {
		return f.next.RoundTrip(r)
	}
	k := f.count.Add(1)
	if e := f.every.Load(); e > 0 && k%e == 0 {
		ff := followFaults[int(k/e)%len(followFaults)]
		return &http.Response{StatusCode: ff.status, Status: http.StatusText(ff.status), Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(ff.body)), Request: r}, nil
	}
	return f.next.RoundTrip(r)
}

// TestFollowRetriesFaultsNeverSkips: with every third request failing in
// one of the ways lagging lite servers and rate limits fail (and the
// client's own retries off, so that the follower meets each), the follower
// still yields exactly the chain's transactions, in order, in the REST
// and the JSON-RPC form of API v2: a fault inside an HTTP 200 is asked for
// again as the same fault as an HTTP status is.
func TestFollowRetriesFaultsNeverSkips(t *testing.T) {
	for _, attempts := range []int{1, 3} {
		for _, rpc := range []bool{false, true} {
			srv, head := splitMergeChain(t)
			plain, err := srv.Client()
			require.NoError(t, err)
			want := prevWalk(t, plain, head)
			f := &faulty{next: http.DefaultTransport}
			f.every.Store(3)
			opts := []nodeaccess.Option{nodeaccess.WithRoundTripper(f), nodeaccess.WithMaxAttempts(attempts),
				nodeaccess.WithBackoff(time.Millisecond, time.Millisecond), nodeaccess.WithMaxRetryAfter(time.Second)}
			if rpc {
				opts = append(opts, ton.WithJSONRPC())
			}
			c, err := srv.Client(opts...)
			require.NoError(t, err)
			got, _ := follow(t, c, ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}, Poll: time.Millisecond}, len(want), head, nil)
			require.Equal(t, want, got, "%d attempts, JSON-RPC %v", attempts, rpc)
			require.Greater(t, f.count.Load(), int64(3*len(followFaults)), "every fault was met")
		}
	}
}

// TestFollowYieldsPersistentFailures: a step that keeps failing is yielded
// after thirty failures in a row, as the error matching its sentinel; the loop
// may stop there, or go on and the follower keeps retrying the same block.
func TestFollowYieldsPersistentFailures(t *testing.T) {
	srv, head := splitMergeChain(t)
	f := &faulty{next: http.DefaultTransport, only: "/shards"}
	f.every.Store(1)
	c, err := srv.Client(nodeaccess.WithRoundTripper(f), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	var errs []error
	for ft, err := range c.Follow(context.Background(), ton.FollowQuery{From: ton.FollowCursor{Seqno: 3}, Poll: time.Millisecond}) {
		require.Zero(t, ft.LT)
		require.Error(t, err)
		errs = append(errs, err)
		if len(errs) == 2 {
			break
		}
	}
	require.Equal(t, int64(60), f.count.Load(), "thirty tries before each error")
	for _, err := range errs {
		var oe *nodeaccess.OpError
		require.ErrorAs(t, err, &oe)
		require.True(t, errors.Is(err, nodeaccess.ErrUnavailable) || errors.Is(err, nodeaccess.ErrRateLimited), "%v", err)
		testkit.AssertErrNoKey(t, srv.Key(), err)
	}
	// The server recovers: the same rounds come, none skipped.
	f.every.Store(0)
	plain, err := srv.Client()
	require.NoError(t, err)
	want := prevWalk(t, plain, head)
	for len(want) > 0 && want[0].Round < 3 {
		want = want[1:]
	}
	got, _ := follow(t, c, ton.FollowQuery{From: ton.FollowCursor{Seqno: 3}, Poll: time.Millisecond}, len(want), head, nil)
	require.Equal(t, want, got)
}

// TestFollowRefusesAHeaderThatDisagrees: the shard lists say a split, the
// first child block's header says it is no first block after a split: the
// follower stops with an error matching nodeaccess.ErrInvalidResponse
// rather than guess.
func TestFollowRefusesAHeaderThatDisagrees(t *testing.T) {
	srv, _ := splitMergeChain(t)
	c, err := srv.Client(nodeaccess.WithRoundTripper(rewriter{from: `"after_split":true`, to: `"after_split":false`}))
	require.NoError(t, err)
	var last error
	n := 0
	for _, err := range c.Follow(context.Background(), ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}, Poll: time.Millisecond}) {
		n++
		last = err
		require.Less(t, n, 1000)
	}
	require.ErrorIs(t, last, nodeaccess.ErrInvalidResponse)
	require.Contains(t, last.Error(), "first after a split")
}

// rewriter replaces text in every answer's body.
type rewriter struct{ from, to string }

func (w rewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	b = bytes.ReplaceAll(b, []byte(w.from), []byte(w.to))
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestFollowAtTheHeadOfALaggingChain: the chain grows on a clock and its
// lite server lags (blocks answer "not in db" for a while after they are
// made, while getMasterchainInfo already names them); the follower keeps
// up from "now" and yields every transaction of the rounds it walked,
// once, in order. A plan the server enforces answers 429s to a client
// whose budget is above it.
func TestFollowAtTheHeadOfALaggingChain(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(30*time.Millisecond), tontest.WithLag(70*time.Millisecond), tontest.WithoutDefaults())
	srv.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 300, Burst: 20})
	budget, err := nodeaccess.NewBudget(400, 20)
	require.NoError(t, err)
	c, err := srv.Client(nodeaccess.WithBudget(budget), nodeaccess.WithMaxRetryAfter(2*time.Second))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got []walkedTx
	var first, last uint32
	for ft, err := range c.Follow(ctx, ton.FollowQuery{Poll: 10 * time.Millisecond}) {
		if err != nil {
			// A lagging block may fail thirty times in a row: the follower
			// says so and goes on with the same block.
			require.ErrorIs(t, err, nodeaccess.ErrUnavailable)
			continue
		}
		if first == 0 {
			first = ft.Masterchain
		}
		got = append(got, walkedTx{Round: ft.Masterchain, Block: ft.Block.BlockRef, Hash: ft.Hash})
		if ft.Cursor.Seqno > first+15 {
			last = ft.Masterchain
			break
		}
	}
	require.NotZero(t, last)
	time.Sleep(100 * time.Millisecond) // the lag passes for the oracle
	plain, err := srv.Client()
	require.NoError(t, err)
	want := prevWalk(t, plain, last)
	for len(want) > 0 && want[0].Round < first {
		want = want[1:]
	}
	require.Equal(t, want, got)
	t.Logf("rounds %d-%d, %d transactions; plan: %+v", first, last, len(got), srv.PlanStats())
}

// shardJump answers masterchain block seqno's shard list with the first
// shard's top seqno set to top, and counts the block requests sent for
// that shard.
type shardJump struct {
	seqno  string
	top    uint64
	shard  atomic.Value // string: the shard rewritten
	blocks atomic.Int64
}

func (j *shardJump) RoundTrip(r *http.Request) (*http.Response, error) {
	if sh, _ := j.shard.Load().(string); sh != "" && strings.HasSuffix(r.URL.Path, "/getBlockTransactionsExt") && r.URL.Query().Get("shard") == sh {
		j.blocks.Add(1)
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !strings.HasSuffix(r.URL.Path, "/shards") || r.URL.Query().Get("seqno") != j.seqno {
		return resp, err
	}
	var body struct {
		OK     bool `json:"ok"`
		Result struct {
			Shards []map[string]any `json:"shards"`
		} `json:"result"`
	}
	err = json.NewDecoder(resp.Body).Decode(&body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	body.Result.Shards[0]["seqno"] = j.top
	j.shard.Store(fmt.Sprint(body.Result.Shards[0]["shard"]))
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestFollowRefusesAShardListThatJumps: a shard list whose top of a shard
// is further past the previous masterchain block's top than a round can
// commit (a masterchain block registers at most 8 blocks of a shard), up
// to the largest seqno, is refused with an error matching
// nodeaccess.ErrInvalidResponse, at once and without asking for a block of
// that shard, rather than listing billions of blocks to read.
func TestFollowRefusesAShardListThatJumps(t *testing.T) {
	srv, _ := splitMergeChain(t)
	plain, err := srv.Client()
	require.NoError(t, err)
	var prev struct {
		Shards []struct {
			Seqno uint64 `json:"seqno"`
		} `json:"shards"`
	}
	require.NoError(t, plain.Call(context.Background(), &prev, "v2/shards", url.Values{"seqno": {"10"}}))
	last := prev.Shards[0].Seqno // round 11 keeps the shard order of round 10
	for _, top := range []uint64{last + 257, last + 1000, 1 << 31, math.MaxUint32 - 1, math.MaxUint32} {
		j := &shardJump{seqno: "11", top: top}
		c, err := srv.Client(nodeaccess.WithRoundTripper(j), nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		var last error
		n := 0
		for _, err := range c.Follow(ctx, ton.FollowQuery{From: ton.FollowCursor{Seqno: 11}, Poll: time.Millisecond}) {
			n++
			last = err
			if err != nil || n > 1000 {
				break
			}
		}
		cancel()
		require.ErrorIs(t, last, nodeaccess.ErrInvalidResponse, "top %d", top)
		require.Contains(t, last.Error(), fmt.Sprintf("to %d,", top))
		require.Zero(t, j.blocks.Load(), "top %d: no block of the shard is asked for", top)
		testkit.AssertErrNoKey(t, srv.Key(), last)
	}
}

// inclusiveAfter makes the server read after_lt as inclusive, as a server
// that starts the next page at the last transaction of the page before
// (rather than after it) does: it asks for the page after lt − 1.
type inclusiveAfter struct{}

func (inclusiveAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	q := r.URL.Query()
	if lt, err := strconv.ParseUint(q.Get("after_lt"), 10, 64); err == nil && lt > 0 {
		q.Set("after_lt", strconv.FormatUint(lt-1, 10))
		r = r.Clone(r.Context())
		r.URL.RawQuery = q.Encode()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestFollowRefusesOverlappingPages: a block of more than one page (600
// transactions) whose pages overlap (a server that repeats the last
// transaction of a page at the start of the next) ends the walk with an
// error matching ErrRepeatedPage, as AllBlockTransactions does, and no
// transaction is yielded twice; served right, the block's 600 transactions
// come once each.
func TestFollowRefusesOverlappingPages(t *testing.T) {
	srv, head := splitMergeChain(t)
	mc := ton.BlockID{BlockRef: ton.MasterchainBlock(head), RootHash: ton.Hash{1}, FileHash: ton.Hash{2}}
	block := tontest.Block{ID: mc}
	for i := range 600 {
		a := ton.Address{Workchain: -1}
		a.ID[0], a.ID[1] = byte(i>>8), byte(i)
		block.Transactions = append(block.Transactions, ton.BlockTransaction{Account: a, LT: uint64(1000 + i), Hash: ton.Hash{byte(i >> 8), byte(i), 7}})
	}
	require.NoError(t, srv.SetBlock(block))
	for _, overlap := range []bool{false, true} {
		var opts []nodeaccess.Option
		if overlap {
			opts = append(opts, nodeaccess.WithRoundTripper(inclusiveAfter{}))
		}
		c, err := srv.Client(opts...)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		seen := map[ton.Hash]bool{}
		var last error
		for ft, err := range c.Follow(ctx, ton.FollowQuery{From: ton.FollowCursor{Seqno: head}, Poll: time.Millisecond}) {
			if err != nil {
				last = err
				break
			}
			require.False(t, seen[ft.Hash], "transaction %s yielded twice (overlap %v)", ft.Hash, overlap)
			seen[ft.Hash] = true
			if ft.Cursor.Seqno > head {
				break
			}
		}
		cancel()
		if overlap {
			require.ErrorIs(t, last, ton.ErrRepeatedPage)
			require.ErrorIs(t, last, nodeaccess.ErrInvalidResponse)
			testkit.AssertErrNoKey(t, srv.Key(), last)
			continue
		}
		require.NoError(t, last)
		for _, tx := range block.Transactions {
			require.True(t, seen[tx.Hash], "transaction %s of the masterchain block", tx.Hash)
		}
	}
}
