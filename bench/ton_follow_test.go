package bench

import (
	"context"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// Following the TON chain (issue 26): ton.Client.Follow against tontest's
// chain (tontest.WithChain) with four basechain shards (both of the
// chain's two shards split at the start), on a budget (nodeaccess.WithBudget).
//
//   - catch-up: 100 masterchain rounds made in advance, followed as fast as
//     the budget lets: a budget no run reaches (what the SDK and the local
//     server do), and 100 units/s (a toncenter Advanced plan's rate);
//   - head: a chain that makes 2.5 masterchain blocks a second on its clock
//     (Catchain 2.0's ~400 ms), followed from "now" for 25 rounds with the
//     default poll (1 s), on a 25 units/s budget (a toncenter Plus plan).
//
// Each reports masterchain and shard blocks followed per second and
// requests (attempts, by operation) per masterchain block.

// followCounts counts a client's attempts by operation.
type followCounts struct {
	mu  sync.Mutex
	ops map[string]int
}

func (f *followCounts) hook(_ context.Context, a nodeaccess.Attempt) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ops[a.Op]++
}

func (f *followCounts) total() (n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, v := range f.ops {
		n += v
	}
	return n
}

// followChain starts a chain with four basechain shards: on a clock of
// every, or, with every 0, with rounds masterchain blocks made at once.
func followChain(tb testing.TB, every time.Duration, rounds int) *tontest.Server {
	tb.Helper()
	srv, err := tontest.New(tontest.WithChain(every), tontest.WithoutDefaults())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	for _, s := range []ton.ShardID{0x4000000000000000, -0x4000000000000000} {
		if err := srv.Split(s); err != nil {
			tb.Fatal(err)
		}
	}
	if every == 0 {
		if err := srv.Advance(rounds); err != nil {
			tb.Fatal(err)
		}
	}
	return srv
}

// followRounds follows from from until rounds rounds are done and returns
// the rounds' shard blocks (each block holding a transaction, plus the
// empty ones the follower asked for: getBlockTransactionsExt attempts
// minus the masterchain blocks) and the transactions.
func followRounds(tb testing.TB, c *ton.Client, from ton.FollowCursor, poll time.Duration, rounds int, indexer bool) (first uint32, txs int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for ft, err := range c.Follow(ctx, ton.FollowQuery{From: from, Poll: poll, Indexer: indexer}) {
		if err != nil {
			tb.Fatal(err)
		}
		if first == 0 {
			first = ft.Masterchain
		}
		txs++
		if ft.Cursor.Seqno >= first+uint32(rounds) {
			return first, txs
		}
	}
	tb.Fatal("the follower ended")
	return 0, 0
}

func BenchmarkTONFollow(b *testing.B) {
	const rounds = 100
	for _, run := range []struct {
		name    string
		every   time.Duration
		rate    float64
		rounds  int
		poll    time.Duration
		indexer bool
	}{
		{"catch-up/budget-unreached", 0, 1e9, rounds, time.Millisecond, false},
		{"catch-up/budget-100u/s", 0, 100, rounds, time.Millisecond, false},
		{"head-2.5mc/s/budget-25u/s", 400 * time.Millisecond, 25, 25, 0, false},
		{"indexer/catch-up/budget-unreached", 0, 1e9, rounds, time.Millisecond, true},
		{"indexer/catch-up/budget-100u/s", 0, 100, rounds, time.Millisecond, true},
		{"indexer/head-2.5mc/s/budget-25u/s", 400 * time.Millisecond, 25, 25, 0, true},
	} {
		b.Run(run.name, func(b *testing.B) {
			var mcPerSec, shardPerSec, reqPerMC, units float64
			for b.Loop() {
				srv := followChain(b, run.every, run.rounds+4)
				budget, err := nodeaccess.NewBudget(run.rate, max(1, int(run.rate/4)))
				if err != nil {
					b.Fatal(err)
				}
				counts := &followCounts{ops: map[string]int{}}
				c, err := srv.Client(nodeaccess.WithBudget(budget), nodeaccess.WithHook(counts.hook))
				if err != nil {
					b.Fatal(err)
				}
				from := ton.FollowCursor{Seqno: 4} // after the splits (rounds 2 and 3)
				if run.every > 0 {
					time.Sleep(2 * run.every) // the splits happen
					from = ton.FollowCursor{}
				}
				start := time.Now()
				followRounds(b, c, from, run.poll, run.rounds, run.indexer)
				took := time.Since(start).Seconds()
				blocks := counts.ops["getBlockTransactionsExt"] - run.rounds
				if run.indexer {
					blocks = srvShardBlocks(b, srv, from, run.rounds)
				}
				mcPerSec = float64(run.rounds) / took
				shardPerSec = float64(blocks) / took
				reqPerMC = float64(counts.total()) / float64(run.rounds)
				units = float64(budget.Stats().Units) / float64(run.rounds)
				b.Logf("%s: %v attempts by operation over %d rounds in %.2fs", run.name, counts.ops, run.rounds, took)
				srv.Close()
			}
			b.ReportMetric(mcPerSec, "mcblocks/s")
			b.ReportMetric(shardPerSec, "shardblocks/s")
			b.ReportMetric(reqPerMC, "requests/mcblock")
			b.ReportMetric(units, "units/mcblock")
		})
	}
}

// TestTONFollowRequestsPerBlock checks the cost Follow documents when it
// catches up: per masterchain round, one shards call and one
// getBlockTransactionsExt per block (the round's shard blocks and the
// masterchain block), the getMasterchainInfo polls aside.
func TestTONFollowRequestsPerBlock(t *testing.T) {
	srv := followChain(t, 0, 40)
	counts := &followCounts{ops: map[string]int{}}
	c, err := srv.Client(nodeaccess.WithHook(counts.hook))
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 30
	followRounds(t, c, ton.FollowCursor{Seqno: 4}, time.Millisecond, rounds, false)
	shards, blocks, headers := counts.ops["shards"], counts.ops["getBlockTransactionsExt"], counts.ops["getBlockHeader"]
	// One more shards call at the start (the round before the first), and
	// the walk may have asked for round rounds+1's shard list.
	if shards < rounds+1 || shards > rounds+2 || headers != 0 {
		t.Fatalf("%d shards calls and %d headers for %d rounds: %v", shards, headers, rounds, counts.ops)
	}
	perRound := float64(blocks) / rounds
	// Four shards with 0, 1 or 2 new blocks each a round, plus the
	// masterchain block: 2 + S requests with S about 4.
	if perRound < 3 || perRound > 10 {
		t.Fatalf("%.1f getBlockTransactionsExt calls a round", perRound)
	}
	t.Logf("%d rounds: %v; %.2f requests per masterchain block", rounds, counts.ops, float64(counts.total())/rounds)
}

// srvShardBlocks counts the shard blocks of the rounds followed from from
// (the zero cursor: the rounds before the server's head), as the indexer
// lists them.
func srvShardBlocks(tb testing.TB, srv *tontest.Server, from ton.FollowCursor, rounds int) int {
	tb.Helper()
	c, err := srv.Client()
	if err != nil {
		tb.Fatal(err)
	}
	start := from.Seqno
	if start == 0 {
		var info struct {
			Last struct {
				Seqno uint32 `json:"seqno"`
			} `json:"last"`
		}
		if err := c.Call(context.Background(), &info, "v3/masterchainInfo", nil); err != nil {
			tb.Fatal(err)
		}
		start = info.Last.Seqno - uint32(rounds)
	}
	n := 0
	for s := start; s < start+uint32(rounds); s++ {
		var res struct {
			Blocks []struct {
				Workchain int32 `json:"workchain"`
			} `json:"blocks"`
		}
		if err := c.Call(context.Background(), &res, "v3/masterchainBlockShards", url.Values{"seqno": {strconv.Itoa(int(s))}}); err != nil {
			tb.Fatal(err)
		}
		for _, b := range res.Blocks {
			if b.Workchain != -1 {
				n++
			}
		}
	}
	return n
}

// TestTONFollowIndexerRequestsPerBlock checks the cost Follow documents
// through the indexer: one masterchainBlockShards a round, one
// transactions page for as many rounds as it holds, one masterchainInfo
// at the start: at most 1.5 requests a masterchain block with four shards.
func TestTONFollowIndexerRequestsPerBlock(t *testing.T) {
	srv := followChain(t, 0, 40)
	counts := &followCounts{ops: map[string]int{}}
	c, err := srv.Client(nodeaccess.WithHook(counts.hook))
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 30
	followRounds(t, c, ton.FollowCursor{Seqno: 4}, time.Millisecond, rounds, true)
	blocks, pages, info := counts.ops["masterchainBlockShards"], counts.ops["transactions"], counts.ops["masterchainInfo"]
	// The walk may have asked for round rounds+1's blocks too.
	if blocks < rounds || blocks > rounds+1 || info != 1 || pages < 1 || counts.total() != blocks+pages+info {
		t.Fatalf("%d masterchainBlockShards, %d transactions and %d masterchainInfo calls for %d rounds: %v", blocks, pages, info, rounds, counts.ops)
	}
	perBlock := float64(counts.total()) / rounds
	if perBlock > 1.5 {
		t.Fatalf("%.2f requests per masterchain block: %v", perBlock, counts.ops)
	}
	t.Logf("%d rounds: %v; %.2f requests per masterchain block", rounds, counts.ops, perBlock)
}
