package evm_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tooBigFile is HyperEVM's answer to a call whose answer is over its cap
// (1 MiB): jsonrpsee's -32008, as hyperliquid-dex/node issue #65 quotes it.
const tooBigFile = "testdata/batch/hyperevm_response_too_big.json"

// idOne is the id member of a pinned body, which the tests replace with
// the id of the request it answers.
var idOne = regexp.MustCompile(`"id":\s*1,`)

// pinnedWithID returns the pinned body in file with id in place of its id 1.
func pinnedWithID(t *testing.T, file string, id json.RawMessage) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	loc := idOne.FindIndex(raw)
	require.NotNil(t, loc, "%s has no id 1", file)
	return string(raw[:loc[0]]) + `"id":` + string(id) + `,` + string(raw[loc[1]:])
}

// TestResponseTooBigSingleCall checks that a node's refusal to send an
// answer over its size cap is typed for every single call: it matches
// nodeaccess.ErrResponseTooLarge, keeps the node's error, is no revert,
// and is not retried.
func TestResponseTooBigSingleCall(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		mu.Lock()
		requests++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(pinnedWithID(t, tooBigFile, req.ID)))
	}))
	t.Cleanup(srv.Close)
	var attempts []nodeaccess.Attempt
	c, err := evm.New(srv.URL, testKey, nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
		mu.Lock()
		attempts = append(attempts, a)
		mu.Unlock()
	}))
	require.NoError(t, err)
	ctx := t.Context()
	for _, tc := range []struct {
		op   string
		call func() error
	}{
		{"eth_call", func() error { _, err := c.Call(ctx, evm.CallMsg{To: token}, evm.Latest); return err }},
		{"eth_call", func() error {
			_, err := c.CallWithOverrides(ctx, evm.CallMsg{To: token}, evm.Latest, evm.Overrides{State: evm.StateOverride{sender: {Nonce: new(uint64)}}})
			return err
		}},
		{"eth_getCode", func() error { _, err := c.Code(ctx, token, evm.Latest); return err }},
		{"ots_getInternalOperations", func() error { _, err := c.InternalOperations(ctx, common.Hash{1}); return err }},
	} {
		mu.Lock()
		requests, attempts = 0, nil
		mu.Unlock()
		err := tc.call()
		require.ErrorIs(t, err, nodeaccess.ErrResponseTooLarge, tc.op)
		assert.NotErrorIs(t, err, evm.ErrReverted, tc.op)
		assert.NotErrorIs(t, err, nodeaccess.ErrInvalidResponse, tc.op)
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re, tc.op)
		assert.Equal(t, nodeaccess.RPCError{Code: -32008, Message: "Response is too big", Data: "Exceeded max limit of 1048576"}, *re)
		assert.Equal(t, "evm: "+tc.op+": json-rpc error -32008: Response is too big", err.Error())
		mu.Lock()
		assert.Equal(t, 1, requests, "%s: not retried", tc.op)
		require.Len(t, attempts, 1, tc.op)
		assert.Equal(t, tc.op, attempts[0].Op)
		mu.Unlock()
	}
}
