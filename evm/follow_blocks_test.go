package evm_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// blockItem is one item FollowBlocks yielded.
type blockItem struct {
	b   evm.FollowedBlock
	err error
}

func startFollowBlocks(t *testing.T, c *evm.Client, q evm.FollowQuery) <-chan blockItem {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan blockItem)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(out)
		for b, err := range c.FollowBlocks(ctx, q) {
			select {
			case out <- blockItem{b, err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return out
}

func takeBlocks(t *testing.T, ch <-chan blockItem, n int) []evm.FollowedBlock {
	t.Helper()
	var got []evm.FollowedBlock
	deadline := time.After(60 * time.Second)
	for len(got) < n {
		select {
		case it, ok := <-ch:
			require.True(t, ok, "FollowBlocks ended after %d items of %d", len(got), n)
			require.NoError(t, it.err)
			got = append(got, it.b)
		case <-deadline:
			require.FailNow(t, "no item", "%d items of %d", len(got), n)
		}
	}
	return got
}

// chainBlocks is the chain's blocks from to to as FollowBlocks yields
// them, read with go-ethereum's client.
func chainBlocks(t *testing.T, srv *evmtest.Server, from, to uint64) []evm.FollowedBlock {
	t.Helper()
	var out []evm.FollowedBlock
	for n := from; n <= to; n++ {
		h, err := srv.EthClient().HeaderByNumber(context.Background(), new(big.Int).SetUint64(n))
		require.NoError(t, err)
		out = append(out, evm.FollowedBlock{Number: n, Hash: h.Hash(), ParentHash: h.ParentHash, Finality: evm.Latest,
			Cursor: evm.FollowCursor{Number: n, Hash: h.Hash(), Index: 1}})
	}
	return out
}

func removedBlocks(bs []evm.FollowedBlock) []evm.FollowedBlock {
	out := make([]evm.FollowedBlock, len(bs))
	for i, b := range bs {
		b.Removed, b.Cursor.Index = true, 0
		out[len(bs)-1-i] = b
	}
	return out
}

// TestFollowBlocks: every block once, in order, catching up and at the
// head; a reorganisation yields the blocks that left, newest first, then
// the new branch; a cursor resumes after its block, and after a
// reorganisation while stopped.
func TestFollowBlocks(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	for range 100 {
		srv.Commit()
	}
	c := followClient(t, srv)
	q := evm.FollowQuery{From: evm.FollowCursor{Number: 1}, Poll: 5 * time.Millisecond}
	ch := startFollowBlocks(t, c, q)
	require.Equal(t, chainBlocks(t, srv, 1, 100), takeBlocks(t, ch, 100))
	srv.Commit()
	srv.Commit()
	require.Equal(t, chainBlocks(t, srv, 101, 102), takeBlocks(t, ch, 2))
	old := chainBlocks(t, srv, 100, 102)
	require.NoError(t, srv.Reorg(3))
	require.Equal(t, append(removedBlocks(old), chainBlocks(t, srv, 100, 102)...), takeBlocks(t, ch, 6))

	// Resume after block 101 from a walk of its own, once the chain has
	// replaced blocks 101 and 102 meanwhile.
	q.From = chainBlocks(t, srv, 101, 101)[0].Cursor
	old = chainBlocks(t, srv, 101, 101)
	require.NoError(t, srv.Reorg(2))
	ch2 := startFollowBlocks(t, c, q)
	require.Equal(t, append(removedBlocks(old), chainBlocks(t, srv, 101, 102)...), takeBlocks(t, ch2, 3))
}

// TestFollowBlocksFinalized: at Finalized the walk stops at the finalized
// block (evmtest finalizes every 32nd).
func TestFollowBlocksFinalized(t *testing.T) {
	t.Parallel()
	srv := followNode(t)
	for range 40 {
		srv.Commit()
	}
	ch := startFollowBlocks(t, followClient(t, srv), evm.FollowQuery{From: evm.FollowCursor{Number: 1}, Finality: evm.Finalized, Poll: 5 * time.Millisecond})
	got := takeBlocks(t, ch, 32)
	want := chainBlocks(t, srv, 1, 32)
	for i := range want {
		want[i].Finality = evm.Finalized
	}
	require.Equal(t, want, got)
	select {
	case it := <-ch:
		require.FailNow(t, "past the finalized block", "%+v", it)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestFollowBlocksBadQuery: a filter is refused.
func TestFollowBlocksBadQuery(t *testing.T) {
	t.Parallel()
	c := followClient(t, followNode(t))
	for _, q := range []evm.FollowQuery{{Addresses: []common.Address{{}}}, {Topics: [][]common.Hash{nil}}, {Finality: evm.Pending}} {
		n := 0
		for _, err := range c.FollowBlocks(context.Background(), q) {
			n++
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		}
		require.Equal(t, 1, n)
	}
}
