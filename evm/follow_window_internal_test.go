package evm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
)

// TestRefusal: each refusal text in the table is read as its kind, with
// the range it suggests; other errors are no refusal.
func TestRefusal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code     int
		msg      string
		kind     refusalKind
		from, to uint64
		ok       bool
	}{
		{-32602, "exceed maximum block range 10000", rangeRefused, 0, 0, false},
		{-32005, "query returned more than 10000 results. Try with this block range [0x1312d00, 0x1312f8a].", sizeRefused, 0x1312d00, 0x1312f8a, true},
		{-32005, "query returned more than 10000 results", sizeRefused, 0, 0, false},
		{-32602, "query exceeds max block range 100000", rangeRefused, 0, 0, false},
		{-32602, "query exceeds max results 20000, retry with the range 22000000-22000123", sizeRefused, 22000000, 22000123, true},
		{-32602, "query block range exceeds server limit, narrow your filter: 1000", rangeRefused, 0, 0, false},
		{-32000, "query returns too many logs, narrow your filter: 20000", sizeRefused, 0, 0, false},
		{-32005, "Requested range exceeds maximum RPC range limit", rangeRefused, 0, 0, false},
		{-32602, "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [0x0, 0xd043b8]", sizeRefused, 0, 0xd043b8, true},
		{-32600, "You can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range should work: [0x10, 0x203]", rangeRefused, 0x10, 0x203, true},
		{-32602, "range 1000000 exceeds limit of 10000", rangeRefused, 0, 0, false},
		{-32614, "eth_getLogs is limited to a 10,000 range", rangeRefused, 0, 0, false},
		{-32000, "block range is too wide (maximum 1024)", rangeRefused, 0, 0, false},
		{-32005, "block range too large, max range: 1000", rangeRefused, 0, 0, false},
		{-32000, "block range is larger than max block range, block range = 5120, max block range = 5000", rangeRefused, 0, 0, false},
		{-32000, "block range is bigger than maxBlockRange", rangeRefused, 0, 0, false},
		// A suggestion that runs backwards is none.
		{-32005, "query returned more than 10000 results. Try with this block range [0x20, 0x10].", sizeRefused, 0x20, 0x10, false},
		// Texts of no table row, read by their words.
		{-32000, "requested block range exceeds the maximum of 50 blocks", rangeRefused, 0, 0, false},
		{-32000, "too many logs in the result, narrow the query", sizeRefused, 0, 0, false},
		{-32602, "the response would hold more than 5000 results", sizeRefused, 0, 0, false},
		// Not refusals.
		{-32005, "limit exceeded", notRefused, 0, 0, false},
		{-32602, "block range extends beyond current head block", notRefused, 0, 0, false},
		{-32000, "header not found", notRefused, 0, 0, false},
	} {
		kind, from, to, ok := refusal(&nodeaccess.OpError{Chain: "evm", Op: "eth_getLogs", Err: &nodeaccess.RPCError{Code: tc.code, Message: tc.msg}})
		require.Equal(t, tc.kind, kind, tc.msg)
		require.Equal(t, tc.ok, ok, tc.msg)
		if ok {
			require.Equal(t, [2]uint64{tc.from, tc.to}, [2]uint64{from, to}, tc.msg)
		}
	}
	kind, _, _, _ := refusal(nodeaccess.ErrUnavailable)
	require.Equal(t, notRefused, kind)
	// QuickNode's range limit comes with HTTP 413.
	kind, _, _, _ = refusal(&nodeaccess.OpError{Chain: "evm", Op: "eth_getLogs", Err: &nodeaccess.HTTPError{StatusCode: 413,
		Body: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32614,"message":"eth_getLogs is limited to a 10,000 range"}}`)}})
	require.Equal(t, rangeRefused, kind)
	kind, _, _, _ = refusal(&nodeaccess.HTTPError{StatusCode: 429, Body: []byte(`{"error":{"message":"too many requests, limit exceeded"}}`)})
	require.Equal(t, notRefused, kind)
	kind, _, _, _ = refusal(&nodeaccess.HTTPError{StatusCode: 503, Body: []byte(`block range too large`)})
	require.Equal(t, notRefused, kind)
}

// TestWindow: a window halves on a refusal, takes a suggestion that starts
// where it did and is narrower, keeps under a refused range, and doubles
// after small answers.
func TestWindow(t *testing.T) {
	t.Parallel()
	w := newWindow()
	require.Equal(t, uint64(1000), w.size)
	require.True(t, w.refused(sizeRefused, 100, 1099, 0, 0, false))
	require.Equal(t, uint64(500), w.size)
	w.answered(10, true)
	require.Equal(t, uint64(1000), w.size) // a size refusal caps nothing
	require.True(t, w.refused(rangeRefused, 100, 1099, 100, 199, true))
	require.Equal(t, uint64(100), w.size)
	w.answered(10, true)
	require.Equal(t, uint64(100), w.size) // never past a refused range's suggestion
	require.True(t, w.refused(sizeRefused, 100, 199, 50, 60, true))
	require.Equal(t, uint64(50), w.size) // a suggestion elsewhere is ignored
	w.answered(5000, true)
	require.Equal(t, uint64(50), w.size) // a large answer keeps the size
	w.answered(10, false)
	require.Equal(t, uint64(50), w.size) // so does a window cut short
	require.False(t, w.refused(sizeRefused, 7, 7, 0, 0, false))
	for range 20 {
		w.cap = maxWindow
		w.answered(0, true)
	}
	require.Equal(t, uint64(maxWindow), w.size)
}
