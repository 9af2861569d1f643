package evm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

const hostileKey = "hostile-K3y"

var hostileToken = common.HexToAddress("0x000000000000000000000000000000000000E020")

// hostileLog is a log of block n, index i, in block hash hash.
func hostileLog(n, i uint64, hash string, addr common.Address) string {
	return fmt.Sprintf(`{"address":"%s","topics":[],"data":"0x","blockNumber":"0x%x","transactionHash":"0x%064x","transactionIndex":"0x0","blockHash":"%s","logIndex":"0x%x","removed":false}`,
		addr.Hex(), n, n<<8|i, hash, i)
}

func hostileHash(n uint64, fork int) string { return fmt.Sprintf("0x%02x%062x", 0xa0+fork, n) }

// hostileServer answers eth_getBlockByNumber (a chain of head blocks) and
// eth_getLogs with logs(from, to, call) (call counts the eth_getLogs
// calls from 1), single calls and batches.
func hostileServer(t *testing.T, head uint64, logs func(from, to uint64, call int) string) *httptest.Server {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var raw json.RawMessage
		require.NoError(t, json.NewDecoder(r.Body).Decode(&raw))
		type req struct {
			ID     json.RawMessage   `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		var reqs []req
		batch := raw[0] == '['
		if batch {
			require.NoError(t, json.Unmarshal(raw, &reqs))
		} else {
			var one req
			require.NoError(t, json.Unmarshal(raw, &one))
			reqs = []req{one}
		}
		var out []string
		for _, q := range reqs {
			result := "null"
			switch q.Method {
			case "eth_getBlockByNumber":
				var sel string
				require.NoError(t, json.Unmarshal(q.Params[0], &sel))
				n := head
				if strings.HasPrefix(sel, "0x") {
					_, err := fmt.Sscanf(sel, "0x%x", &n)
					require.NoError(t, err)
				}
				if n <= head {
					result = fmt.Sprintf(`{"number":"0x%x","hash":"%s","parentHash":"%s"}`, n, hostileHash(n, 0), hostileHash(n-1, 0))
				}
			case "eth_getLogs":
				var f struct{ FromBlock, ToBlock string }
				require.NoError(t, json.Unmarshal(q.Params[0], &f))
				var from, to uint64
				_, _ = fmt.Sscanf(f.FromBlock, "0x%x", &from)
				_, _ = fmt.Sscanf(f.ToBlock, "0x%x", &to)
				result = logs(from, to, int(calls.Add(1)))
			}
			out = append(out, `{"jsonrpc":"2.0","id":`+string(q.ID)+`,"result":`+result+`}`)
		}
		body := out[0]
		if batch {
			body = "[" + strings.Join(out, ",") + "]"
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFollowRefusesBadLogs: an eth_getLogs answer that is not the logs
// asked for ends the walk with ErrInvalidResponse, and none of it is
// yielded.
func TestFollowRefusesBadLogs(t *testing.T) {
	t.Parallel()
	other := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	for name, tc := range map[string]struct{ logs, why string }{
		"out of order":  {"[" + hostileLog(5, 1, hostileHash(5, 0), hostileToken) + "," + hostileLog(5, 0, hostileHash(5, 0), hostileToken) + "]", "log 0 of block 5 comes after log 1 of block 5"},
		"repeated":      {"[" + hostileLog(5, 1, hostileHash(5, 0), hostileToken) + "," + hostileLog(5, 1, hostileHash(5, 0), hostileToken) + "]", "log 1 of block 5 comes after log 1 of block 5"},
		"outside":       {"[" + hostileLog(200, 0, hostileHash(200, 0), hostileToken) + "]", "a log of block 200 in the answer for blocks 1 to 10"},
		"other address": {"[" + hostileLog(5, 0, hostileHash(5, 0), other) + "]", "does not match the filter"},
		"removed":       {"[" + strings.Replace(hostileLog(5, 0, hostileHash(5, 0), hostileToken), `"removed":false`, `"removed":true`, 1) + "]", "is marked removed"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := hostileServer(t, 10, func(from, to uint64, _ int) string { return tc.logs })
			c, err := evm.New(srv.URL, hostileKey)
			require.NoError(t, err)
			q := evm.FollowQuery{From: evm.FollowCursor{Number: 1}, Addresses: []common.Address{hostileToken}, Finality: evm.Finalized, Poll: time.Millisecond}
			n := 0
			for l, err := range c.Follow(context.Background(), q) {
				n++
				require.Equal(t, evm.FollowedLog{}, l)
				require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
				require.ErrorContains(t, err, tc.why)
				testkit.AssertErrNoKey(t, hostileKey, err)
			}
			require.Equal(t, 1, n)
		})
	}
}

// TestFollowNeverMixed: logs whose block hash is not the hash of the header
// read with them (the block changed between the two calls) are asked for
// again, and only the consistent answer is yielded.
func TestFollowNeverMixed(t *testing.T) {
	t.Parallel()
	srv := hostileServer(t, 10, func(from, to uint64, call int) string {
		fork := 0
		if call == 1 {
			fork = 1 // the first answer is of another branch
		}
		return "[" + hostileLog(9, 0, hostileHash(9, fork), hostileToken) + "]"
	})
	c, err := evm.New(srv.URL, hostileKey)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	q := evm.FollowQuery{From: evm.FollowCursor{Number: 9}, Addresses: []common.Address{hostileToken}, Poll: time.Millisecond}
	for l, err := range c.Follow(ctx, q) {
		require.NoError(t, err)
		require.Equal(t, common.HexToHash(hostileHash(9, 0)), l.BlockHash)
		require.Equal(t, evm.FollowCursor{Number: 9, Hash: l.BlockHash, Index: 1}, l.Cursor)
		break
	}
}

// TestFollowYieldsAChangingBlockAsUnavailable: a node whose logs never
// belong to the block its header names (the block keeps changing between
// the two calls) is asked again, and after 30 tries in a row the error is
// yielded as the other faults asked for again are: an *nodeaccess.OpError
// of the follower that matches nodeaccess.ErrUnavailable; nothing is
// yielded from the block.
func TestFollowYieldsAChangingBlockAsUnavailable(t *testing.T) {
	t.Parallel()
	srv := hostileServer(t, 10, func(from, to uint64, call int) string {
		return "[" + hostileLog(9, 0, hostileHash(9, 1), hostileToken) + "]" // always the other branch's
	})
	c, err := evm.New(srv.URL, hostileKey)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	q := evm.FollowQuery{From: evm.FollowCursor{Number: 9}, Addresses: []common.Address{hostileToken}, Poll: time.Millisecond}
	for l, err := range c.Follow(ctx, q) {
		require.Zero(t, l.BlockNumber, "nothing of the block is yielded")
		require.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		var oe *nodeaccess.OpError
		require.ErrorAs(t, err, &oe)
		require.Equal(t, "follow", oe.Op)
		require.Contains(t, err.Error(), "changed between two calls")
		break
	}
}
