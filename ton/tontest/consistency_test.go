package tontest_test

import (
	"context"
	"net/url"
	"strconv"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default data refers to itself: the default account's pending
// transaction is the last transaction of its newest state, and its
// previous transaction the last of the older state; each answer's address
// book names every account the answer mentions; the default block's
// transactions, page by page, are the ones getBlockTransactions lists for
// it, in its order, under the block's own id. (The pending transaction's
// masterchain block, testnet's 33013054, is not served: the recording that
// gives the account is testnet's, the recorded block mainnet's, and no
// testnet block was recorded; data/SOURCES.md.)
func TestDefaultDataRefersToItself(t *testing.T) {
	s := start(t)
	c := client(t, s)
	ctx := context.Background()
	acct := mustAddress(tontest.DefaultAccount)

	states, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	require.Len(t, states.States, 2)
	newest, older := states.States[0], states.States[1]
	pending, err := c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
	require.NoError(t, err)
	require.Len(t, pending.Transactions, 1)
	tx := pending.Transactions[0]
	assert.Equal(t, acct, tx.Account)
	assert.Equal(t, []any{newest.LastTransactionLT, newest.LastTransactionHash}, []any{tx.LT, tx.Hash}, "the newest state is after the transaction")
	assert.Equal(t, []any{older.LastTransactionLT, older.LastTransactionHash}, []any{tx.PrevTransactionLT, tx.PrevTransactionHash}, "the older state is before it")

	for _, st := range states.States {
		assert.Contains(t, states.AddressBook, st.Account)
	}
	named := []ton.Address{tx.Account}
	for _, m := range append([]ton.Message{*tx.InMsg}, tx.OutMsgs...) {
		for _, a := range []*ton.Address{m.Source, m.Destination} {
			if a != nil {
				named = append(named, *a)
			}
		}
	}
	require.Greater(t, len(named), 1, "the transaction names other accounts")
	for _, a := range named {
		assert.Contains(t, pending.AddressBook, a)
	}

	// The block: its pages are its listed transactions, under its id.
	var ids struct { // the result: Call takes off the envelope
		Transactions []struct {
			Account string `json:"account"`
			LT      string `json:"lt"`
			Hash    string `json:"hash"`
		} `json:"transactions"`
	}
	b := tontest.DefaultBlock()
	require.NoError(t, c.Call(ctx, &ids, "v2/getBlockTransactions", url.Values{"workchain": {strconv.Itoa(int(b.Workchain))},
		"shard": {strconv.FormatInt(int64(b.Shard), 10)}, "seqno": {strconv.Itoa(int(b.Seqno))}, "count": {"40"}}))
	var listed, walked []string
	for _, id := range ids.Transactions {
		listed = append(listed, id.Account+" "+id.LT+" "+id.Hash)
	}
	q := ton.BlockTransactionsQuery{Block: b, Count: 1}
	for {
		page, err := c.BlockTransactions(ctx, q)
		require.NoError(t, err)
		assert.Equal(t, tontest.RecordedBlock().ID, page.Block)
		for _, bt := range page.Transactions {
			walked = append(walked, bt.Account.Raw()+" "+strconv.FormatUint(bt.LT, 10)+" "+bt.Hash.String())
		}
		next, ok := page.Next()
		if !ok {
			break
		}
		q.After = &next
	}
	require.Len(t, listed, 3)
	assert.Equal(t, listed, walked)
}

// A growing chain refers to itself: for every masterchain block, and every
// shard block (of seqno 1 or more) its shard list and the blocks'
// previous-block links name,
// getBlockTransactionsExt serves the block under the id (root and file
// hashes) the shard list and getBlockHeader give, and the masterchain's
// newest block is the one getMasterchainInfo names.
func TestChainRefersToItself(t *testing.T) {
	s := start(t, tontest.WithChain(0), tontest.WithoutDefaults())
	c := client(t, s)
	ctx := context.Background()
	require.NoError(t, s.Advance(2))
	require.NoError(t, s.Split(0x4000000000000000))
	require.NoError(t, s.Advance(3))
	var info struct {
		Last wireID `json:"last"`
	}
	require.NoError(t, c.Call(ctx, &info, "v2/getMasterchainInfo", nil))
	last := info.Last.ref(t).Seqno
	require.GreaterOrEqual(t, last, uint32(5))

	served := func(id wireID) {
		t.Helper()
		ref := id.ref(t)
		h := chainHeader(t, c, ref)
		assert.Equal(t, []string{id.RootHash, id.FileHash}, []string{h.ID.RootHash, h.ID.FileHash}, "%v: the header's id", ref)
		page, err := c.BlockTransactions(ctx, ton.BlockTransactionsQuery{Block: ref, Count: 1})
		require.NoError(t, err, ref)
		assert.Equal(t, []string{id.RootHash, id.FileHash}, []string{page.Block.RootHash.String(), page.Block.FileHash.String()}, "%v: the block's id", ref)
		for _, p := range h.Prev {
			if p.Seqno > 0 {
				ph := chainHeader(t, c, p.ref(t))
				assert.Equal(t, []string{p.RootHash, p.FileHash}, []string{ph.ID.RootHash, ph.ID.FileHash}, "%v: its previous block %v", ref, p.ref(t))
			}
		}
	}
	blocks := 0
	for n := uint32(1); n <= last; n++ {
		served(chainHeader(t, c, ton.MasterchainBlock(n)).ID)
		for _, top := range chainTops(t, c, n) {
			if top.Seqno > 0 { // seqno 0: a shard without a block yet, which no server serves
				served(top)
				blocks++
			}
		}
	}
	assert.Greater(t, blocks, 10)
}
