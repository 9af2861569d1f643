package evm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An eth_getProof sent with Add in a Batch, or with CallContext, decodes
// into an AccountProof as Proof decodes it (it failed before: the
// quantities and nodes are hex, which encoding/json does not read into a
// *big.Int or a []byte), and is checked to answer the typed question.
func TestProofInBatchAndCallContext(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	ctx := context.Background()
	slots := []common.Hash{balanceSlot(evmtest.Holder()), neverWritten}
	at := evm.BlockNumber(e.head)
	want, err := e.c.Proof(ctx, evmtest.Token(), slots, at)
	require.NoError(t, err)

	var b evm.Batch
	ptr := evm.Add[*evm.AccountProof](&b, "eth_getProof", evmtest.Token(), slots, at)
	val := evm.Add[evm.AccountProof](&b, "eth_getProof", evmtest.Token(), slots, at)
	require.NoError(t, e.c.SendBatch(ctx, &b))
	got, err := ptr.Result()
	require.NoError(t, err)
	assert.Equal(t, want, got)
	gotVal, err := val.Result()
	require.NoError(t, err)
	assert.Equal(t, *want, gotVal)

	var viaCtx *evm.AccountProof
	require.NoError(t, e.c.CallContext(ctx, &viaCtx, "eth_getProof", evmtest.Token(), slots, at))
	assert.Equal(t, want, viaCtx)
	var viaCtxVal evm.AccountProof
	require.NoError(t, e.c.CallContext(ctx, &viaCtxVal, "eth_getProof", evmtest.Token(), slots, at))
	assert.Equal(t, *want, viaCtxVal)

	// Typed args: the answer is checked to be for them.
	c, err := e.srv.Client(nodeaccess.WithRoundTripper(lying{edit: func(r map[string]any) { r["address"] = evmtest.Holder().Hex() }}), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	var b2 evm.Batch
	lie := evm.Add[*evm.AccountProof](&b2, "eth_getProof", evmtest.Token(), slots, at)
	require.NoError(t, c.SendBatch(ctx, &b2))
	_, err = lie.Result()
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.Contains(t, err.Error(), "is for account "+evmtest.Holder().Hex())
	err = c.CallContext(ctx, &viaCtx, "eth_getProof", evmtest.Token(), slots, at)
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
}

// An error Proof raises itself (the answer is for another account) says
// "invalid response" once: ErrUnverified says it already.
func TestProofErrorSaysInvalidResponseOnce(t *testing.T) {
	t.Parallel()
	e := proofNode(t)
	c, err := e.srv.Client(nodeaccess.WithRoundTripper(lying{edit: func(r map[string]any) { r["address"] = evmtest.Holder().Hex() }}), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.Proof(context.Background(), evmtest.Token(), nil, evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrUnverified)
	assert.Equal(t, 1, strings.Count(err.Error(), "invalid response"), "%v", err)
	// A malformed answer still says it once.
	c, err = e.srv.Client(nodeaccess.WithRoundTripper(lying{edit: func(r map[string]any) { r["nonce"] = "zz" }}), nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.Proof(context.Background(), evmtest.Token(), nil, evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Equal(t, 1, strings.Count(err.Error(), "invalid response"), "%v", err)
}
