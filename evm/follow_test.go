package evm_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/internal/evmlatest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// followFrom ranges over Follow from cursor and stops after stop logs (or
// when all of want are in got); it returns the cursor to go on from, as
// text read back, and the walk's error.
func followFrom(t *testing.T, c *evm.Client, q evm.FollowQuery, stop int, got *[]types.Log, total int) (evm.FollowCursor, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cursor := q.From
	n := 0
	for l, err := range c.Follow(ctx, q) {
		if err != nil {
			return cursor, err
		}
		*got = append(*got, l.Log)
		text, err := l.Cursor.MarshalText()
		require.NoError(t, err)
		var back evm.FollowCursor
		require.NoError(t, back.UnmarshalText(text))
		require.Equal(t, l.Cursor, back)
		cursor = back
		if n++; n == stop || len(*got) == total {
			break
		}
	}
	return cursor, nil
}

// TestFollowExactlyOnceAcrossRestarts: stopped at random logs and resumed
// from the cursor each time, through a server that caps answers at 25 logs
// with Infura's refusal (-32005, which is no rate limit), Follow yields
// every log of the chain once, in order.
func TestFollowExactlyOnceAcrossRestarts(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	var per []int
	for i := range 150 {
		per = append(per, i%5)
	}
	mineTransfers(t, srv, per...)
	want := canonicalLogs(t, srv, 1, 0)
	require.Len(t, want, 300)
	srv.LimitLogs(evmtest.LogsLimit{MaxResults: 25, Code: -32005,
		Message: "query returned more than {max} results. Try with this block range [{from}, {to}]."})
	c := followClient(t, srv)
	rng := rand.New(rand.NewPCG(33, 1))
	var got []types.Log
	cursor := evm.FollowCursor{Number: 1}
	for restarts := 0; len(got) < len(want); restarts++ {
		require.Less(t, restarts, 100)
		var err error
		cursor, err = followFrom(t, c, tokenQuery(cursor), 1+rng.IntN(40), &got, len(want))
		require.NoError(t, err)
	}
	require.Equal(t, want, got)
}

// TestFollowRefusals: each node's and provider's refusal of a window is
// read as one, the window split (to the range the refusal suggests when
// it suggests one), and every log yielded once.
func TestFollowRefusals(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, counts(140, 2)...)
	want := canonicalLogs(t, srv, 1, 0)
	for _, tc := range []struct {
		name  string
		limit evmtest.LogsLimit
		// refused is how many requests ask for more than limit.MaxRange
		// blocks at most (0: not checked).
		refused int
	}{
		// The first window, blocks 1 to 76 (the 64 newest are read with
		// their headers), halved to 38, 19 and 9 (or set to the suggestion).
		{"go-ethereum range", evmtest.LogsLimit{MaxRange: 10}, 3},
		{"Alchemy range, suggested", evmtest.LogsLimit{MaxRange: 10, Code: -32600,
			Message: "You can make eth_getLogs requests with up to a {max} block range. Based on your parameters, this block range should work: [{from}, {to}]"}, 1},
		{"Alchemy size, suggested", evmtest.LogsLimit{MaxResults: 30, Code: -32602,
			Message: "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [{from}, {to}]"}, 0},
		{"reth results, suggested", evmtest.LogsLimit{MaxResults: 30, Code: -32602, Message: "query exceeds max results {max}, retry with the range {fromd}-{tod}"}, 0},
		{"reth range", evmtest.LogsLimit{MaxRange: 16, Code: -32602, Message: "query exceeds max block range {max}"}, 3},
		{"Erigon range", evmtest.LogsLimit{MaxRange: 16, Code: -32602, Message: "query block range exceeds server limit, narrow your filter: {max}"}, 3},
		{"Erigon results", evmtest.LogsLimit{MaxResults: 30, Code: -32000, Message: "query returns too many logs, narrow your filter: {max}"}, 0},
		{"Besu range", evmtest.LogsLimit{MaxRange: 16, Code: -32005, Message: "Requested range exceeds maximum RPC range limit"}, 3},
		{"Infura results", evmtest.LogsLimit{MaxResults: 30, Code: -32005, Message: "query returned more than {max} results"}, 0},
		{"Infura range", evmtest.LogsLimit{MaxRange: 16, Code: -32602, Message: "range 1000 exceeds limit of {max}"}, 3},
		{"QuickNode range", evmtest.LogsLimit{MaxRange: 16, Code: -32614, Message: "eth_getLogs is limited to a {max} range"}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.LimitLogs(tc.limit)
			defer srv.LimitLogs(evmtest.LogsLimit{})
			before := srv.RequestCount()
			var got []types.Log
			_, err := followFrom(t, followClient(t, srv), tokenQuery(evm.FollowCursor{Number: 1}), 0, &got, len(want))
			require.NoError(t, err)
			require.Equal(t, want, got)
			if tc.refused > 0 {
				wide := 0
				for _, r := range requestsSince(t, srv, before) {
					for _, w := range getLogsRanges(t, r.Body) {
						if w > tc.limit.MaxRange {
							wide++
						}
					}
				}
				require.Equal(t, tc.refused, wide)
			}
		})
	}
}

// TestFollowReorgs: at the head, reorganisations of depth 1 to 64 are
// followed: the logs of the blocks that left are yielded removed, newest
// first, then the new branch's, and nothing else.
func TestFollowReorgs(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, counts(70, 1)...)
	ch := startFollow(t, followClient(t, srv), tokenQuery(evm.FollowCursor{Number: 1}))
	require.Equal(t, canonicalLogs(t, srv, 1, 0), logsOf(t, take(t, ch, 70)))
	for _, depth := range []int{1, 2, 3, 4, 5, 8, 13, 21, 32, 63, 64} {
		head := srv.Snapshot().Block()
		mineTransfers(t, srv, counts(depth+1, 1)...)
		require.Equal(t, canonicalLogs(t, srv, head+1, 0), logsOf(t, take(t, ch, depth+1)), "depth %d", depth)
		top := head + uint64(depth) + 1
		old := canonicalLogs(t, srv, top-uint64(depth)+1, top)
		require.NoError(t, srv.Reorg(depth))
		fresh := canonicalLogs(t, srv, top-uint64(depth)+1, top)
		require.Len(t, fresh, depth)
		items := take(t, ch, len(old)+len(fresh))
		require.Equal(t, append(removed(old), fresh...), logsOf(t, items), "depth %d", depth)
		for _, it := range items {
			require.Equal(t, evm.Latest, it.log.Finality)
		}
	}
}

// TestFollowReorgPastBound: a reorganisation deeper than 64 blocks removes
// 64 blocks' logs and ends the walk with an error that says so.
func TestFollowReorgPastBound(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, counts(70, 1)...)
	ch := startFollow(t, followClient(t, srv), tokenQuery(evm.FollowCursor{Number: 1}))
	take(t, ch, 70)
	old := canonicalLogs(t, srv, 6, 70)
	require.NoError(t, srv.Reorg(65))
	items := take(t, ch, 65)
	require.Equal(t, removed(old)[:64], logsOf(t, items[:64]))
	err := items[64].err
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	require.ErrorContains(t, err, "reorganised deeper than the 64 blocks")
	testkit.AssertErrNoKey(t, simAccessKey, err)
	_, open := <-ch
	require.False(t, open)
}

// TestFollowResumeAfterReorg: a cursor whose block left the chain while
// Follow was stopped resumes with the removal of what was yielded of the
// blocks that left, then the new branch.
func TestFollowResumeAfterReorg(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, counts(20, 2)...)
	c := followClient(t, srv)
	var got []types.Log
	cursor, err := followFrom(t, c, tokenQuery(evm.FollowCursor{Number: 1}), 35, &got, 40)
	require.NoError(t, err)
	require.Equal(t, uint64(18), cursor.Number) // after block 18's first log
	old := canonicalLogs(t, srv, 16, 18)[:5]
	require.NoError(t, srv.Reorg(5)) // blocks 16 to 20
	fresh := canonicalLogs(t, srv, 16, 20)
	require.Len(t, fresh, 10)
	ch := startFollow(t, c, tokenQuery(cursor))
	require.Equal(t, append(removed(old), fresh...), logsOf(t, take(t, ch, 15)))
}

// TestFollowFaults: 503s past the client's retries, dropped connections
// and a truncated body in the middle: nothing skipped, nothing repeated
// (a walk the truncated body ends resumes from its cursor).
func TestFollowFaults(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, counts(150, 2)...)
	want := canonicalLogs(t, srv, 1, 0)
	srv.LimitLogs(evmtest.LogsLimit{MaxRange: 8}) // windows of 4 blocks: the faults meet reads that matter
	c := followClient(t, srv)
	var got []types.Log
	q := tokenQuery(evm.FollowCursor{Number: 1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var walkErr error
	for l, err := range c.Follow(ctx, q) {
		if err != nil {
			walkErr = err
			break
		}
		got = append(got, l.Log)
		q.From = l.Cursor
		switch len(got) {
		case 37:
			srv.FailNext(5, nodeaccesstest.ServerError(503)) // past 3 attempts: Follow waits and asks again
		case 120:
			srv.FailNext(2, nodeaccesstest.DropConnection())
			srv.FailNext(1, nodeaccesstest.RateLimited(time.Millisecond))
		case 200:
			srv.FailNext(1, nodeaccesstest.TruncatedBody())
		}
		if len(got) == len(want) {
			break
		}
	}
	t.Logf("walk ended after %d logs of %d: %v", len(got), len(want), walkErr)
	if len(got) < len(want) {
		require.ErrorIs(t, walkErr, nodeaccess.ErrInvalidResponse)
		_, err := followFrom(t, c, q, 0, &got, len(want))
		require.NoError(t, err)
	}
	require.Equal(t, want, got)
	faulted := 0
	for _, r := range requestsSince(t, srv, 0) {
		if r.Fault != (nodeaccesstest.Fault{}) {
			faulted++
		}
	}
	require.Equal(t, 9, faulted) // every fault met a request
}

// TestFollowRequestsAtHead: with Poll at the block time, following the
// head costs about one HTTP request a block.
func TestFollowRequestsAtHead(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, 1)
	c := followClient(t, srv)
	const blockTime = 250 * time.Millisecond
	q := tokenQuery(evm.FollowCursor{})
	q.Poll = blockTime
	ch := startFollow(t, c, q)
	go func() {
		for range ch { // the log of block 1, then none
		}
	}()
	time.Sleep(100 * time.Millisecond) // Follow starts at the head
	srv.MineEvery(blockTime)
	time.Sleep(time.Second)
	start, reqs := srv.Snapshot().Block(), srv.RequestCount()
	time.Sleep(4 * time.Second)
	blocks, n := srv.Snapshot().Block()-start, srv.RequestCount()-reqs
	srv.MineEvery(0)
	t.Logf("%d requests for %d blocks", n, blocks)
	require.GreaterOrEqual(t, blocks, uint64(12))
	require.LessOrEqual(t, n, int(blocks)+int(blocks)/4+1, "%d requests for %d blocks", n, blocks)
	require.GreaterOrEqual(t, n, int(blocks)/2, "%d requests for %d blocks: Follow does not follow", n, blocks)
}

// TestFollowFinalized: at Finalized, Follow reads up to the finalized block
// (evmtest finalizes every 32nd) and marks what it yields so.
func TestFollowFinalized(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, counts(70, 1)...)
	q := tokenQuery(evm.FollowCursor{Number: 1})
	q.Finality = evm.Finalized
	ch := startFollow(t, followClient(t, srv), q)
	items := take(t, ch, 64)
	require.Equal(t, canonicalLogs(t, srv, 1, 64), logsOf(t, items))
	require.Equal(t, evm.Finalized, items[0].log.Finality)
	select {
	case it := <-ch:
		require.FailNow(t, "past the finalized block", "%+v", it)
	case <-time.After(200 * time.Millisecond):
	}
	mineTransfers(t, srv, counts(30, 1)...) // block 96 is finalized
	require.Equal(t, canonicalLogs(t, srv, 65, 96), logsOf(t, take(t, ch, 32)))
}

// TestFollowBadQuery: a query Follow cannot send is refused, naming what
// is wrong, and nothing is sent.
func TestFollowBadQuery(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	c := followClient(t, srv)
	before := srv.RequestCount()
	for _, q := range []evm.FollowQuery{
		{Finality: evm.Pending},
		{Finality: evm.Earliest},
		{Finality: "soon"},
		{Topics: make([][]common.Hash, 5)},
		{From: evm.FollowCursor{Number: 3, Index: 2}},
	} {
		var n int
		for _, err := range c.Follow(context.Background(), q) {
			n++
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		}
		require.Equal(t, 1, n)
	}
	require.Equal(t, before, srv.RequestCount())
}

// requestsSince returns the requests the server received after it had
// received before, failing when its log (the last 1000) no longer holds
// them all.
func requestsSince(t *testing.T, srv *evmtest.Server, before int) []nodeaccesstest.Request {
	t.Helper()
	reqs := srv.Requests()
	n := srv.RequestCount() - before
	require.LessOrEqual(t, n, len(reqs), "the server's log holds the last %d requests, not the %d since", len(reqs), n)
	return reqs[len(reqs)-n:]
}

// getLogsRanges returns the width in blocks of each eth_getLogs call with
// a block range in a request body (a call or a batch).
func getLogsRanges(t *testing.T, body []byte) []uint64 {
	t.Helper()
	type call struct {
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	var calls []call
	if len(body) > 0 && body[0] == '[' {
		require.NoError(t, json.Unmarshal(body, &calls))
	} else {
		var one call
		require.NoError(t, json.Unmarshal(body, &one))
		calls = []call{one}
	}
	var out []uint64
	for _, c := range calls {
		if c.Method != "eth_getLogs" {
			continue
		}
		var f struct{ FromBlock, ToBlock *hexutil.Uint64 }
		require.Len(t, c.Params, 1)
		require.NoError(t, json.Unmarshal(c.Params[0], &f))
		if f.FromBlock != nil && f.ToBlock != nil {
			out = append(out, uint64(*f.ToBlock)-uint64(*f.FromBlock)+1)
		}
	}
	return out
}

// TestFollowBlockTooLarge: a block holding more matching logs than the node
// sends in one answer cannot be split: the walk ends with the node's
// refusal, after the logs before it.
func TestFollowBlockTooLarge(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, 1, 3, 1)
	srv.LimitLogs(evmtest.LogsLimit{MaxResults: 2, Code: -32005})
	ch := startFollow(t, followClient(t, srv), tokenQuery(evm.FollowCursor{Number: 1}))
	items := take(t, ch, 2)
	require.Equal(t, canonicalLogs(t, srv, 1, 1), logsOf(t, items[:1]))
	var re *nodeaccess.RPCError
	require.ErrorAs(t, items[1].err, &re)
	require.Equal(t, "query returned more than 2 results", re.Message)
	require.ErrorIs(t, items[1].err, nodeaccess.ErrResponseTooLarge)
	_, open := <-ch
	require.False(t, open)
}

// TestFollowKnownLimits: a client whose constructor knows the chain's
// eth_getLogs range limit and block time (hypercore.New's, for HyperEVM's
// 50 blocks and 1 s) asks for no window wider than the limit, so a node
// that refuses wider ones refuses none, and polls at the block time when
// the query sets no Poll.
func TestFollowKnownLimits(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	mineTransfers(t, srv, counts(140, 2)...)
	want := canonicalLogs(t, srv, 1, 0)
	srv.LimitLogs(evmtest.LogsLimit{MaxRange: 50})
	for _, known := range []bool{false, true} {
		var opts []nodeaccess.Option
		if known {
			opts = append(opts, evmlatest.Follow(50, time.Millisecond))
		}
		c := followClient(t, srv, opts...)
		before := srv.RequestCount()
		var got []types.Log
		q := tokenQuery(evm.FollowCursor{Number: 1})
		q.Poll = 0
		_, err := followFrom(t, c, q, 0, &got, len(want))
		require.NoError(t, err)
		require.Equal(t, want, got)
		wide := 0
		for _, r := range requestsSince(t, srv, before) {
			for _, w := range getLogsRanges(t, r.Body) {
				if w > 50 {
					wide++
				}
			}
		}
		if known {
			require.Zero(t, wide, "no window wider than the chain's limit")
		} else {
			require.Positive(t, wide, "without the limit the first windows are refused")
		}
	}
}
