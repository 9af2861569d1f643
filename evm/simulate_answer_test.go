package evm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simAnswer is an eth_simulateV1 answer of blocks with the given numbers,
// block i holding calls[i] successful call results.
func simAnswer(numbers []uint64, calls []int) string {
	blocks := make([]string, len(numbers))
	for i, n := range numbers {
		results := make([]string, calls[i])
		for j := range results {
			results[j] = `{"returnData":"0x","logs":[],"gasUsed":"0x5208","status":"0x1"}`
		}
		blocks[i] = fmt.Sprintf(`{"number":"0x%x","hash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","timestamp":"0x%x","gasLimit":"0x1c9c380","gasUsed":"0x0","miner":"0x0000000000000000000000000000000000000000","transactions":[],"calls":[%s]}`,
			n, 1000+12*n, strings.Join(results, ","))
	}
	return `{"jsonrpc":"2.0","id":1,"result":[` + strings.Join(blocks, ",") + `]}`
}

// simulateThreeWays runs sim against a server answering answer (one call's
// answer) with SimulateV1, CallContext and Add in a batch, and returns the
// three outcomes.
func simulateThreeWays(t *testing.T, sim evm.Simulation, answer string) (blocks [3][]evm.SimulatedBlock, errs [3]error) {
	t.Helper()
	client := func(answer string) *evm.Client {
		url, _ := replay(t, answer)
		c, err := evm.New(url, testKey, nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		return c
	}
	blocks[0], errs[0] = client(answer).SimulateV1(context.Background(), sim, nil)
	errs[1] = client(answer).CallContext(context.Background(), &blocks[1], "eth_simulateV1", &sim, evm.Latest)
	c := client("[" + answer + "]")
	var b evm.Batch
	r := evm.Add[[]evm.SimulatedBlock](&b, "eth_simulateV1", sim, evm.Latest)
	require.NoError(t, c.SendBatch(context.Background(), &b))
	blocks[2], errs[2] = r.Result()
	return blocks, errs
}

// TestSimulateV1AnswerShape: the blocks of an answer are matched to the
// simulation sent: one block per SimBlock, in order, with one result per
// call, the overridden number where one was set, and before it only the
// empty blocks that fill a gap. An answer of another shape (a block or a
// call result missing or extra, a gap block with calls, a wrong number) is
// an ErrInvalidResponse error from SimulateV1, CallContext and Add alike,
// so that a caller reading blocks[i].Calls[j] for its block i and call j
// never reads another call's result or past the end.
func TestSimulateV1AnswerShape(t *testing.T) {
	two := []evm.CallMsg{{To: token}, {To: token}}
	plain := evm.Simulation{Blocks: []evm.SimBlock{{Calls: two}, {}, {Calls: two[:1]}}}
	gapped := evm.Simulation{Blocks: []evm.SimBlock{
		{Calls: two[:1]},
		{BlockOverride: &evm.BlockOverride{Number: big.NewInt(0x40)}, Calls: two},
		{Calls: two[:1]},
	}}
	for _, tc := range []struct {
		name    string
		sim     evm.Simulation
		numbers []uint64
		calls   []int
		bad     string // "" when the answer fits
	}{
		{"as sent", plain, []uint64{0x3d, 0x3e, 0x3f}, []int{2, 0, 1}, ""},
		{"gap filled", gapped, []uint64{0x3d, 0x3e, 0x3f, 0x40, 0x41}, []int{1, 0, 0, 2, 1}, ""},
		{"gap not filled", gapped, []uint64{0x3d, 0x40, 0x41}, []int{1, 2, 1}, ""},
		{"no blocks", plain, nil, nil, "0 blocks, and none for blockStateCalls[0] of 3"},
		{"a block missing", plain, []uint64{0x3d, 0x3e}, []int{2, 0}, "2 blocks, and none for blockStateCalls[2] of 3"},
		{"a block more", plain, []uint64{0x3d, 0x3e, 0x3f, 0x40}, []int{2, 0, 1, 0}, "4 blocks: 1 more than the 3 of blockStateCalls"},
		{"a call result missing", plain, []uint64{0x3d, 0x3e, 0x3f}, []int{1, 0, 1}, "block 0 (blockStateCalls[0]) has 1 call results for 2 calls"},
		{"a call result more", plain, []uint64{0x3d, 0x3e, 0x3f}, []int{2, 0, 2}, "block 2 (blockStateCalls[2]) has 2 call results for 1 calls"},
		{"results in the wrong block", plain, []uint64{0x3d, 0x3e, 0x3f}, []int{2, 1, 0}, "block 1 (blockStateCalls[1]) has 1 call results for 0 calls"},
		{"a gap block with calls", gapped, []uint64{0x3d, 0x3e, 0x3f, 0x40, 0x41}, []int{1, 1, 0, 1, 1}, "block 1 (number 62) has 1 call results, but it is before the number 64 of blockStateCalls[1]"},
		{"the wrong number", gapped, []uint64{0x3d, 0x41, 0x42}, []int{1, 2, 1}, "block 1 has the number 65, want 64 (blockStateCalls[1])"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocks, errs := simulateThreeWays(t, tc.sim, simAnswer(tc.numbers, tc.calls))
			for i, err := range errs {
				if tc.bad == "" {
					require.NoError(t, err, i)
					assert.Len(t, blocks[i], len(tc.numbers), i)
					continue
				}
				require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, i)
				assert.Contains(t, err.Error(), tc.bad, i)
				assert.Nil(t, blocks[i], i)
				testkit.AssertErrNoKey(t, testKey, err)
			}
		})
	}
}

// TestSimulateV1CallErrorMasked: the access key anywhere in a simulated
// call's error object (its message, its data as a string, an object's
// member names and values, an array's elements) is masked in the call's
// Err, from SimulateV1, CallContext and Add alike, as the transport masks
// the error objects it returns.
func TestSimulateV1CallErrorMasked(t *testing.T) {
	sim := evm.Simulation{Blocks: []evm.SimBlock{{Calls: []evm.CallMsg{{To: token}}}}}
	for _, errMember := range []string{
		`{"code":-32015,"message":"out of gas","data":"at https://node.example/` + testKey + `"}`,
		`{"code":-32015,"message":"out of gas","data":{"url":"/` + testKey + `","` + testKey + `":1}}`,
		`{"code":-32015,"message":"out of gas","data":[1,["/` + testKey + `"]]}`,
		`{"code":3,"message":"execution reverted","data":{"url":"/` + testKey + `"}}`,
		`{"code":-32000,"message":"execution reverted","data":"Reverted /` + testKey + `"}`,
	} {
		blocks, errs := simulateThreeWays(t, sim, oneCallAnswer(errMember))
		for i, err := range errs {
			require.NoError(t, err, errMember)
			require.Len(t, blocks[i], 1)
			require.Len(t, blocks[i][0].Calls, 1)
			callErr := blocks[i][0].Calls[0].Err
			var re *nodeaccess.RPCError
			require.ErrorAs(t, callErr, &re, errMember)
			var rev *evm.RevertError
			assert.Equal(t, strings.Contains(errMember, "reverted"), errors.As(callErr, &rev), errMember)
			testkit.AssertErrNoKey(t, testKey, callErr)
			// The block as the node sent it, the echo masked there too:
			// nothing fmt prints of the blocks holds the key.
			testkit.AssertNoKey(t, testKey, "Raw", string(blocks[i][0].Raw))
			assert.Contains(t, string(blocks[i][0].Raw), "REDACTED")
			assert.True(t, json.Valid(blocks[i][0].Raw), "Raw stays JSON: %s", blocks[i][0].Raw)
			testkit.AssertUnprintable(t, testKey, &blocks[i])
		}
	}
}
