package ton_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// indexerQuery is a query from the start of round n through the indexer.
func indexerQuery(n uint32) ton.FollowQuery {
	return ton.FollowQuery{From: ton.FollowCursor{Seqno: n}, Poll: time.Millisecond, Indexer: true}
}

// TestFollowIndexerMatchesV2: through API v3's indexer the follower yields
// what the prev_blocks walk finds (the oracle of the v2 tests) and what
// the v2 path yields, transaction by transaction: the same blocks, hashes,
// logical times, accounts, times, fees, messages and cursors, across a
// split and a merge, with blocks that hold no transaction.
func TestFollowIndexerMatchesV2(t *testing.T) {
	srv, head := splitMergeChain(t)
	c, err := srv.Client()
	require.NoError(t, err)
	want := prevWalk(t, c, head)
	_, v2 := follow(t, c, ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}, Poll: time.Millisecond}, len(want), head, nil)
	got, v3 := follow(t, c, indexerQuery(1), len(want), head, nil)
	require.Equal(t, want, got)
	require.Len(t, v3, len(v2))
	empty := false
	for i := range v2 {
		a, b := v2[i], v3[i]
		require.Equal(t, a.Cursor, b.Cursor, "transaction %d", i)
		require.Equal(t, a.Block, b.Block, "transaction %d: the block with its hashes", i)
		require.Equal(t, a.Masterchain, b.Masterchain)
		require.Equal(t, a.Account, b.Account)
		require.Equal(t, a.LT, b.LT)
		require.Equal(t, a.Hash, b.Hash)
		require.Equal(t, a.Time, b.Time)
		require.Zero(t, a.Fee.Cmp(b.Fee), "fee %v against total_fees %v", a.Fee, b.Fee)
		require.Equal(t, a.InMsg == nil, b.InMsg == nil)
		if a.InMsg != nil {
			require.Equal(t, a.InMsg.Comment, b.InMsg.Comment)
			require.Equal(t, a.InMsg.HasComment, b.InMsg.HasComment)
			require.Equal(t, a.InMsg.Body, b.InMsg.Body)
			require.Zero(t, a.InMsg.Value.Cmp(b.InMsg.Value))
			require.Equal(t, a.InMsg.Source, b.InMsg.Source)
		}
		require.Len(t, b.OutMsgs, len(a.OutMsgs))
		require.Empty(t, b.Unread, "every member of the indexer's transaction is read")
		if i > 0 && b.Cursor.Seqno == v3[i-1].Cursor.Seqno && b.Cursor.Block > v3[i-1].Cursor.Block+1 {
			empty = true
		}
	}
	require.True(t, empty, "the chain has blocks without transactions between others, which the block index counts")
	// A client of API v2's JSON-RPC form reads the indexer the same way.
	rpc, err := srv.Client(ton.WithJSONRPC())
	require.NoError(t, err)
	got, _ = follow(t, rpc, indexerQuery(1), len(want), head, nil)
	require.Equal(t, want, got)
	transfers := 0
	for _, ft := range v3 {
		if ft.InMsg != nil {
			if _, ok := ft.InMsg.ParseJettonTransfer(); ok {
				transfers++
			}
		}
	}
	require.Positive(t, transfers, "the jetton transfers read from the indexer's bodies")
}

// TestFollowIndexerResumesFromEveryCursor: a cursor is the same on both
// paths, so a walk stopped on either resumes on the other: from the cursor
// of every transaction the v2 path yielded, the indexer yields exactly the
// transactions after it.
func TestFollowIndexerResumesFromEveryCursor(t *testing.T) {
	srv, head := splitMergeChain(t)
	c, err := srv.Client()
	require.NoError(t, err)
	all, full := follow(t, c, ton.FollowQuery{From: ton.FollowCursor{Seqno: 1}, Poll: time.Millisecond}, 1<<20, head, nil)
	require.Equal(t, ton.FollowCursor{Seqno: head + 1}, full[len(full)-1].Cursor)
	for i, ft := range full {
		text, err := ft.Cursor.MarshalText()
		require.NoError(t, err)
		var cur ton.FollowCursor
		require.NoError(t, cur.UnmarshalText(text))
		q := indexerQuery(0)
		q.From = cur
		if i+1 == len(all) {
			break // from the last cursor nothing is left until the chain grows
		}
		rest, _ := follow(t, c, q, len(all)-i-1, head, nil)
		require.Equal(t, all[i+1:], rest, "resumed from %s (transaction %d)", text, i)
	}
}

// TestFollowIndexerPages: an indexer that caps every page at 2
// transactions (below the 500 asked for) without a word is read page
// after page by logical time, to each round's tx_count, losing none.
func TestFollowIndexerPages(t *testing.T) {
	srv, head := splitMergeChain(t, tontest.WithMaxLimit(2))
	c, err := srv.Client()
	require.NoError(t, err)
	want := prevWalk(t, c, head)
	before := srv.RequestCount()
	got, _ := follow(t, c, indexerQuery(1), len(want), head, nil)
	require.Equal(t, want, got)
	pages := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/api/v3/transactions") {
			pages++
		}
	}
	require.Greater(t, pages, len(want)/2, "pages of at most 2")
	// A page from the newest logical time of the one before: one new
	// transaction at least each, two when it ends between two that share
	// a logical time, none more.
	require.LessOrEqual(t, pages, 2*len(want)+2*int(head), "%d requests in all", srv.RequestCount()-before)
}

// TestFollowIndexerRequestsPerBlock: with four shards, the indexer path
// costs a masterchainBlockShards a round and a transactions page for as
// many rounds as fit in it (500 transactions), plus one masterchainInfo
// at the start: at most 1.5 requests a masterchain block, where the v2
// path takes 2 + S.
func TestFollowIndexerRequestsPerBlock(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults())
	require.NoError(t, srv.Split(shardLeft))
	require.NoError(t, srv.Split(shardRight))
	require.NoError(t, srv.Advance(3)) // four shards from round 3
	start := uint32(4)
	const rounds = 12
	require.NoError(t, srv.Advance(rounds))
	c, err := srv.Client()
	require.NoError(t, err)
	count := func(indexer bool) (float64, map[string]int) {
		q := ton.FollowQuery{From: ton.FollowCursor{Seqno: start}, Poll: time.Millisecond, Indexer: indexer}
		before := len(srv.Requests())
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		for ft, err := range c.Follow(ctx, q) {
			require.NoError(t, err)
			if ft.Masterchain == start+rounds-1 && ft.Cursor == (ton.FollowCursor{Seqno: start + rounds}) {
				break
			}
		}
		ops := map[string]int{}
		reqs := srv.Requests()[before:]
		for _, r := range reqs {
			ops[r.Path[strings.LastIndex(r.Path, "/")+1:]]++
		}
		return float64(len(reqs)) / rounds, ops
	}
	v2, _ := count(false)
	v3, ops := count(true)
	require.Equal(t, map[string]int{"masterchainInfo": 1, "masterchainBlockShards": rounds, "transactions": 1}, ops,
		"the indexer path: its head once, the blocks of each round, one page of transactions for all of them")
	require.LessOrEqual(t, v3, 1.5)
	require.GreaterOrEqual(t, v2, 6.0, "the v2 path: 2 + 4 shards' blocks a round")
}

// TestFollowIndexerWaitsForTheRound: a round the indexer has not indexed
// (an empty block list) is asked for again every Poll, never skipped and
// never an error; from the zero cursor the indexer's masterchainInfo names
// the round to start at.
func TestFollowIndexerWaitsForTheRound(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults())
	require.NoError(t, srv.Advance(2)) // head 3
	c, err := srv.Client()
	require.NoError(t, err)
	q := indexerQuery(0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got []ton.FollowedTransaction
	for ft, err := range c.Follow(ctx, q) {
		require.NoError(t, err)
		got = append(got, ft)
		if ft.Cursor == (ton.FollowCursor{Seqno: 4}) {
			// Round 3 is done: the next is not indexed yet.
			go func() {
				time.Sleep(50 * time.Millisecond)
				_ = srv.Advance(1)
			}()
		}
		if ft.Cursor == (ton.FollowCursor{Seqno: 5}) {
			break
		}
	}
	require.Equal(t, uint32(3), got[0].Masterchain, "the zero cursor starts at the indexer's newest round")
	require.Equal(t, uint32(4), got[len(got)-1].Masterchain)
}

// v3Faults are the indexer's failures a follower meets: its 500 on a
// database timeout, a gateway's 502 and 504, a 503, a 429.
var v3Faults = []struct {
	status int
	body   string
}{
	{500, `{"error":"canceling statement due to statement timeout","code":500}`},
	{502, `<html><body>502 Bad Gateway</body></html>`},
	{503, `{"error":"service unavailable"}`},
	{504, `{"error":"gateway timeout"}`},
	{429, `{"error":"Ratelimit exceed","code":429}`},
}

// v3Faulty answers every n-th indexer request with the next of v3Faults.
type v3Faulty struct {
	every int64
	count atomic.Int64
}

func (f *v3Faulty) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.Contains(r.URL.Path, "/api/v3/") {
		if k := f.count.Add(1); k%f.every == 0 {
			ff := v3Faults[int(k/f.every)%len(v3Faults)]
			return &http.Response{StatusCode: ff.status, Status: http.StatusText(ff.status), Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(ff.body)), Request: r}, nil
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestFollowIndexerRetriesFaultsNeverSkips: with every third indexer
// request failing (and the client's own retries off), the walk still
// yields every transaction once, in order.
func TestFollowIndexerRetriesFaultsNeverSkips(t *testing.T) {
	srv, head := splitMergeChain(t)
	plain, err := srv.Client()
	require.NoError(t, err)
	want := prevWalk(t, plain, head)
	f := &v3Faulty{every: 3}
	c, err := srv.Client(nodeaccess.WithRoundTripper(f), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	got, _ := follow(t, c, indexerQuery(1), len(want), head, nil)
	require.Equal(t, want, got)
	require.Greater(t, f.count.Load(), int64(2*len(v3Faults)), "every fault was met")
}

// TestFollowIndexerRefusesWhatIsNotTheRound: an indexer answer that is
// not the round asked for ends the walk with an error matching
// nodeaccess.ErrInvalidResponse, never a transaction yielded from it; a
// block with fewer transactions than its tx_count is an indexer still
// inserting the round: ErrNotYetAvailable, yielded after 30 tries, and
// asked for again.
func TestFollowIndexerRefusesWhatIsNotTheRound(t *testing.T) {
	for _, tc := range []struct {
		name, from, to string
		is             error
		says           string
	}{
		{"a block of another round", `"mc_block_seqno":2,"gen_utime"`, `"mc_block_seqno":9,"gen_utime"`, nodeaccess.ErrInvalidResponse, "belongs to masterchain block 9"},
		{"a transaction of another round", `"mc_block_seqno":2,"orig_status"`, `"mc_block_seqno":7,"orig_status"`, nodeaccess.ErrInvalidResponse, "says mc_block_seqno 7"},
		{"a transaction of no block of the round", `"block_ref":{"workchain":0,"shard":"C000000000000000","seqno":1}`, `"block_ref":{"workchain":0,"shard":"C000000000000000","seqno":99}`, nodeaccess.ErrInvalidResponse, "which is not in the round"},
		{"fewer transactions than tx_count: not indexed yet", `"tx_count":1}`, `"tx_count":5}`, ton.ErrNotYetAvailable, "lists 1 of its transactions so far"},
		{"more transactions than tx_count", `"tx_count":1}`, `"tx_count":0}`, nodeaccess.ErrInvalidResponse, "the pages hold 1 of its transactions"},
		{"a shard that is no shard", `"shard":"C000000000000000","seqno":1,"root_hash"`, `"shard":"C00000000000000G","seqno":1,"root_hash"`, nodeaccess.ErrInvalidResponse, "is not a shard id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults(), tontest.WithKey("k3y-v3-secret"))
			require.NoError(t, srv.Advance(3))
			c, err := srv.Client(nodeaccess.WithRoundTripper(rewriter{from: tc.from, to: tc.to}))
			require.NoError(t, err)
			var last error
			for ft, err := range c.Follow(context.Background(), indexerQuery(2)) {
				if err != nil {
					last = err
					break
				}
				require.Less(t, ft.Masterchain, uint32(2), "nothing of round 2 is yielded")
			}
			require.ErrorIs(t, last, tc.is)
			require.Contains(t, last.Error(), tc.says)
			testkit.AssertErrNoKey(t, srv.Key(), last)
		})
	}
}

// TestFollowIndexerOnAServiceWithoutV3: a service that does not serve the
// indexer's methods (404) ends the walk with an error matching
// nodeaccess.ErrNotFound, at once: its masterchainInfo, asked first, is
// not found. A 404 of masterchainBlockShards alone is the indexer's "blocks
// not found", a round it has not indexed yet (TestFollowIndexerWaitsForTheRound).
func TestFollowIndexerOnAServiceWithoutV3(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults())
	c, err := srv.Client(nodeaccess.WithRoundTripper(rewritePath{from: "/masterchainInfo", to: "/nothingHere"}))
	require.NoError(t, err)
	var last error
	n := 0
	for _, err := range c.Follow(context.Background(), indexerQuery(1)) {
		last = err
		n++
	}
	require.Equal(t, 1, n)
	require.ErrorIs(t, last, nodeaccess.ErrNotFound)
	require.False(t, errors.Is(last, nodeaccess.ErrUnavailable))
}

// rewritePath sends a request whose path ends in from to the path ending
// in to.
type rewritePath struct{ from, to string }

func (p rewritePath) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, p.from) {
		r = r.Clone(r.Context())
		r.URL.Path = strings.TrimSuffix(r.URL.Path, p.from) + p.to
	}
	return http.DefaultTransport.RoundTrip(r)
}

// offsetBack hides the logical times of the round's blocks, so that the
// follower reads the round through transactionsByMasterchainBlock by
// offset (as for an indexer that does not send them), and asks every page
// of it after the first from one transaction earlier than the follower
// asked: pages that overlap, as the indexer's can when two transactions
// share a logical time at a page boundary.
type offsetBack struct{ pages atomic.Int64 }

func (o *offsetBack) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/masterchainBlockShards") {
		// Blocks without their logical times: the round is read by offset.
		return rewriter{from: `"start_lt"`, to: `"start_lx"`}.RoundTrip(r)
	}
	if strings.HasSuffix(r.URL.Path, "/transactionsByMasterchainBlock") {
		o.pages.Add(1)
		q := r.URL.Query()
		if off := q.Get("offset"); off != "" && off != "0" {
			n, _ := strconv.Atoi(off)
			q.Set("offset", strconv.Itoa(n-1))
			r = r.Clone(r.Context())
			r.URL.RawQuery = q.Encode()
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestFollowIndexerRefusesOverlappingPages: read by offset (blocks
// without logical times), pages that repeat a transaction are read again
// (the boundary may have moved), three times, then the walk ends with
// ErrRepeatedPage: nothing is yielded twice.
func TestFollowIndexerRefusesOverlappingPages(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults(), tontest.WithMaxLimit(1))
	require.NoError(t, srv.Advance(3))
	o := &offsetBack{}
	c, err := srv.Client(nodeaccess.WithRoundTripper(o))
	require.NoError(t, err)
	var last error
	for ft, err := range c.Follow(context.Background(), indexerQuery(2)) {
		if err != nil {
			last = err
			break
		}
		t.Fatalf("yielded %+v from overlapping pages", ft)
	}
	require.ErrorIs(t, last, ton.ErrRepeatedPage)
	require.Contains(t, last.Error(), "again")
	require.Equal(t, int64(6), o.pages.Load(), "three reads of two pages each")
}

// dropParam removes a query parameter from every request whose path ends
// in path: an indexer that ignores it.
type dropParam struct{ path, param string }

func (d dropParam) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, d.path) {
		q := r.URL.Query()
		q.Del(d.param)
		r = r.Clone(r.Context())
		r.URL.RawQuery = q.Encode()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestFollowIndexerRefusesAnIndexerThatIgnoresStartLT: transactions
// asked for from a logical time that come from below it (an indexer that
// ignores start_lt) end the walk with ErrRepeatedPage, before anything of
// the round is yielded.
func TestFollowIndexerRefusesAnIndexerThatIgnoresStartLT(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults())
	require.NoError(t, srv.Advance(3))
	c, err := srv.Client(nodeaccess.WithRoundTripper(dropParam{"/api/v3/transactions", "start_lt"}))
	require.NoError(t, err)
	var last error
	for ft, err := range c.Follow(context.Background(), indexerQuery(3)) {
		if err != nil {
			last = err
			break
		}
		t.Fatalf("yielded %+v", ft)
	}
	require.ErrorIs(t, last, ton.ErrRepeatedPage)
	require.Contains(t, last.Error(), "ignores start_lt")
}

// TestFollowIndexerRefusesATransactionOutsideItsBlock: a transaction
// whose logical time is outside its block's start_lt to end_lt (as
// masterchainBlockShards lists it) is ErrInvalidResponse.
func TestFollowIndexerRefusesATransactionOutsideItsBlock(t *testing.T) {
	srv := tontest.NewT(t, tontest.WithChain(0), tontest.WithoutDefaults())
	require.NoError(t, srv.Advance(3))
	plain, err := srv.Client()
	require.NoError(t, err)
	_, full := follow(t, plain, indexerQuery(2), 1<<10, 2, nil)
	mc := full[len(full)-1] // round 2's masterchain block: one transaction, its end_lt
	require.Equal(t, int32(-1), mc.Block.Workchain)
	end := func(lt uint64) string { return `"end_lt":"` + strconv.FormatUint(lt, 10) + `"` }
	// The block's range is moved below its transaction.
	c, err := srv.Client(nodeaccess.WithRoundTripper(rewriter{from: end(mc.LT), to: end(mc.LT - 1)}))
	require.NoError(t, err)
	var last error
	for ft, err := range c.Follow(context.Background(), indexerQuery(2)) {
		if err != nil {
			last = err
			break
		}
		require.Less(t, ft.Masterchain, uint32(2))
	}
	require.ErrorIs(t, last, nodeaccess.ErrInvalidResponse)
	require.Contains(t, last.Error(), "outside block")
}

// TestFollowIndexerWithoutLogicalTimes: an indexer whose blocks lack
// start_lt and end_lt is read round by round through
// transactionsByMasterchainBlock, yielding the same transactions.
func TestFollowIndexerWithoutLogicalTimes(t *testing.T) {
	srv, head := splitMergeChain(t)
	plain, err := srv.Client()
	require.NoError(t, err)
	want := prevWalk(t, plain, head)
	c, err := srv.Client(nodeaccess.WithRoundTripper(rewriter{from: `"start_lt"`, to: `"start_lx"`}))
	require.NoError(t, err)
	before := len(srv.Requests())
	got, _ := follow(t, c, indexerQuery(1), len(want), head, nil)
	require.Equal(t, want, got)
	byRound, byLT := 0, 0
	for _, r := range srv.Requests()[before:] {
		if strings.HasSuffix(r.Path, "/transactionsByMasterchainBlock") {
			byRound++
		}
		if strings.HasSuffix(r.Path, "/api/v3/transactions") {
			byLT++
		}
	}
	require.GreaterOrEqual(t, byRound, int(head))
	require.Zero(t, byLT)
}
