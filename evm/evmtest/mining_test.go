package evmtest_test

import (
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// MineEvery mines on its own until stopped; Close stops it too.
func TestMineEvery(t *testing.T) {
	t.Parallel()
	s := fresh(t, evmtest.WithoutScenario())
	ec := s.EthClient()
	s.MineEvery(20 * time.Millisecond)
	require.Eventually(t, func() bool {
		n, err := ec.BlockNumber(t.Context())
		return err == nil && n >= 5
	}, 10*time.Second, 10*time.Millisecond)
	s.MineEvery(0)
	n, err := ec.BlockNumber(t.Context())
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	m, err := ec.BlockNumber(t.Context())
	require.NoError(t, err)
	require.LessOrEqual(t, m, n+1) // at most one tick under way when stopped
	s.MineEvery(time.Millisecond)
	s.Close() // stops it, and Close's chain shutdown does not race a block
}

// Reorg replaces the newest blocks: the head's number stays, their hashes
// change, their transactions' logs move into the new branch's first
// block, and the old blocks stay readable by hash.
func TestReorg(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	ctx := t.Context()
	ec := s.EthClient()
	logs := func() []types.Log {
		l, err := ec.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(1)})
		require.NoError(t, err)
		return l
	}
	before := logs()
	old4, err := ec.HeaderByNumber(ctx, big.NewInt(4))
	require.NoError(t, err)
	old5, err := ec.HeaderByNumber(ctx, big.NewInt(5))
	require.NoError(t, err)
	require.NoError(t, s.Reorg(2))
	head, err := ec.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, uint64(5), head.Number.Uint64())
	new4, err := ec.HeaderByNumber(ctx, big.NewInt(4))
	require.NoError(t, err)
	require.NotEqual(t, old4.Hash(), new4.Hash())
	require.NotEqual(t, old5.Hash(), head.Hash())
	require.Equal(t, new4.Hash(), head.ParentHash)
	after := logs()
	require.Len(t, after, len(before))
	for i := range after {
		if before[i].BlockNumber < 4 {
			require.Equal(t, before[i], after[i])
			continue
		}
		require.Equal(t, uint64(4), after[i].BlockNumber)
		require.Equal(t, new4.Hash(), after[i].BlockHash)
		require.Equal(t, before[i].TxHash, after[i].TxHash)
	}
	r, err := ec.TransactionReceipt(ctx, s.Scenario().TokenTransfer.Hash)
	require.NoError(t, err)
	require.Equal(t, uint64(4), r.BlockNumber.Uint64())
	gone, err := ec.FilterLogs(ctx, ethereum.FilterQuery{BlockHash: ptr(old5.Hash())})
	require.NoError(t, err)
	require.NotEmpty(t, gone)

	require.ErrorContains(t, s.Reorg(0), "depth 0")
	require.ErrorContains(t, s.Reorg(6), "depth 6")
	s.Close()
	require.ErrorIs(t, s.Reorg(1), nodeaccess.ErrUnavailable)
}

func ptr[T any](v T) *T { return &v }

// LimitLogs refuses eth_getLogs as a provider does, with the code and
// message given and the range that would pass.
func TestLimitLogs(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	getLogs := func(params string) string {
		t.Helper()
		_, _, body := post(t, s, "/"+testKey, rpcBody("eth_getLogs", params))
		return body
	}
	all := `[{"fromBlock":"0x1","toBlock":"0x5"}]`
	s.LimitLogs(evmtest.LogsLimit{MaxRange: 2})
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"exceed maximum block range 2"}}`, getLogs(all))
	s.LimitLogs(evmtest.LogsLimit{MaxRange: 2, Code: -32600, Message: "up to a {max} block range: [{from}, {to}] {fromd}-{tod}"})
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"up to a 2 block range: [0x1, 0x2] 1-2"}}`, getLogs(all))
	// The scenario's logs are in blocks 2, 3 and 5: one log passes for
	// blocks 1 to 2.
	s.LimitLogs(evmtest.LogsLimit{MaxResults: 1, Code: -32005, Message: "query returned more than {max} results. Try with this block range [{from}, {to}]."})
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"query returned more than 1 results. Try with this block range [0x1, 0x2]."}}`, getLogs(all))
	var res struct{ Result []json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(getLogs(`[{"fromBlock":"0x1","toBlock":"0x2"}]`)), &res))
	require.Len(t, res.Result, 1)
	s.LimitLogs(evmtest.LogsLimit{MaxResults: 1})
	require.JSONEq(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"query returned more than 1 results"}}`, getLogs(`[{"fromBlock":"0x3","toBlock":"0x5"}]`))
	s.LimitLogs(evmtest.LogsLimit{})
	require.NoError(t, json.Unmarshal([]byte(getLogs(all)), &res))
	require.Len(t, res.Result, 3)
}
