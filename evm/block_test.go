package evm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

// A call at a block number or a block hash allocates no more than one at a
// tag constant: the selectors are values inspected without escaping, so a
// Block interface holding a number or a hash is not moved to the heap.
func TestBlockKindsAllocateAlike(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ ID json.RawMessage }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":"0x01"}`)
	}))
	defer srv.Close()
	c, err := evm.New(srv.URL, testKey)
	require.NoError(t, err)
	ctx := context.Background()
	msg := evm.CallMsg{To: token}
	// boxed: the Block built once, outside the measured loop, so the loop
	// counts the call alone. Built at the call site, as users write them,
	// the selector must cost nothing more: no heap copy of a number or hash.
	boxed := func(b evm.Block) float64 {
		_, err := c.Call(ctx, msg, b)
		require.NoError(t, err)
		return testing.AllocsPerRun(200, func() { _, _ = c.Call(ctx, msg, b) })
	}
	n := uint64(1) << 40
	h := common.HexToHash("0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff")
	var failed error
	call := func(b evm.Block) {
		if _, err := c.Call(ctx, msg, b); err != nil {
			failed = err
		}
	}
	num := testing.AllocsPerRun(200, func() { call(evm.BlockNumber(n)) })
	hash := testing.AllocsPerRun(200, func() { call(evm.BlockHash{Hash: h, RequireCanonical: true}) })
	tag := testing.AllocsPerRun(200, func() { call(evm.Latest) })
	require.NoError(t, failed)
	assert.Equal(t, boxed(evm.BlockNumber(n)), num, "a block number built at the call allocates")
	assert.Equal(t, boxed(evm.BlockHash{Hash: h, RequireCanonical: true}), hash, "a block hash built at the call allocates")
	assert.Equal(t, boxed(evm.Latest), tag, "a tag constant allocates")
}

// The three kinds of Block are values a type switch tells apart, and each
// marshals to the JSON-RPC parameter it sends.
func TestBlockKinds(t *testing.T) {
	h := common.HexToHash("0xab")
	for _, tc := range []struct {
		b    evm.Block
		kind string
		str  string
		js   string
	}{
		{evm.Safe, "tag", "safe", `"safe"`},
		{evm.BlockNumber(436), "number", "436", `"0x1b4"`},
		{evm.BlockHash{Hash: h, RequireCanonical: true}, "hash", h.Hex() + " (canonical)", `{"blockHash":"` + h.Hex() + `","requireCanonical":true}`},
		{evm.BlockHash{Hash: h}, "hash", h.Hex(), `{"blockHash":"` + h.Hex() + `","requireCanonical":false}`},
	} {
		var kind string
		switch tc.b.(type) {
		case evm.Tag:
			kind = "tag"
		case evm.BlockNumber:
			kind = "number"
		case evm.BlockHash:
			kind = "hash"
		}
		assert.Equal(t, tc.kind, kind, tc.str)
		assert.Equal(t, tc.str, fmt.Sprint(tc.b))
		js, err := json.Marshal(tc.b)
		require.NoError(t, err)
		assert.Equal(t, tc.js, string(js))
	}
	_, err := json.Marshal(evm.Tag("newest"))
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
}

// A Tag that is not one of the five, or a Block of a user's own type (one
// that embeds a Tag), is refused by every operation that takes a block,
// naming the bad value, and nothing is sent.
func TestUnknownBlockRefused(t *testing.T) {
	c := gockClient(t)
	type myBlock struct{ evm.Tag }
	for _, b := range []evm.Block{evm.Tag("newest"), evm.Tag(""), evm.Tag("LATEST"), myBlock{evm.Latest}} {
		_, err := c.Call(context.Background(), evm.CallMsg{To: token}, b)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput, "%v", b)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "block", ie.Arg)
		if tag, ok := b.(evm.Tag); ok {
			assert.Contains(t, err.Error(), fmt.Sprintf("%q", string(tag)))
		}
		_, err = c.Code(context.Background(), token, b)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput, "%v", b)
	}
	assert.Empty(t, gock.GetUnmatchedRequests())
}
