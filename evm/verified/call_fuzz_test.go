package verified_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
	"github.com/stretchr/testify/require"
)

// accessListAnswer is a provider whose eth_createAccessList answers result
// (any JSON), whatever the call.
func accessListAnswer(result []byte) answer {
	return answer{method: "eth_createAccessList", result: result}
}

// answer is a provider whose calls of method, in a batch, answer result.
type answer struct {
	method string
	result []byte
	// member is the member result is put in: "result" unless set
	// ("error": an error object).
	member string
}

func (a answer) RoundTrip(req *http.Request) (*http.Response, error) {
	reqBody, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	var calls []struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	var answers []map[string]json.RawMessage
	if json.Unmarshal(reqBody, &calls) == nil && json.Unmarshal(body, &answers) == nil {
		for _, c := range calls {
			if c.Method != a.method {
				continue
			}
			for _, an := range answers {
				if bytes.Equal(an["id"], c.ID) {
					if a.member == "error" {
						delete(an, "result")
						an["error"] = a.result
					} else {
						an["result"] = a.result
					}
				}
			}
		}
		body, _ = json.Marshal(answers)
	}
	res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	res.Header.Del("Content-Length")
	return res, nil
}

// FuzzCallAccessList: whatever eth_createAccessList answers (the new
// decoder of a verified call's first round), Call never panics and never
// returns another value than the chain's: the result of the honest call,
// or an error (ErrInvalidResponse for an answer that does not decode or is
// too large, ErrUnverified when the reads it leaves out are still unproven
// after 4 batches).
func FuzzCallAccessList(f *testing.F) {
	srv := node(f)
	ctx := context.Background()
	call := evm.CallMsg{To: evmtest.Token(), Data: balanceOf(evmtest.Holder())}
	want, err := client(f, srv).Call(ctx, call, evm.Latest)
	require.NoError(f, err)
	f.Add([]byte(`{"accessList":[],"gasUsed":"0x0"}`))
	f.Add([]byte(`{"accessList":[{"address":"0x000000000000000000000000000000000000e020","storageKeys":["0x7dfffd491032be8126dbe672d9a72b65bfd457df8a72365ff467144fc2c1196c"]}],"gasUsed":"0x5b8d"}`))
	f.Add([]byte(`{"accessList":[{"address":"0x000000000000000000000000000000000000e020","storageKeys":null}]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"accessList":[{"address":"0x0000000000000000000000000000000000000001","storageKeys":["0x01","0x02"]}]}`))
	f.Fuzz(func(t *testing.T, result []byte) {
		if !json.Valid(result) {
			return
		}
		c, err := srv.Client(nodeaccess.WithRoundTripper(accessListAnswer(result)), nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		v, err := verified.New(c, chainAnchor{srv})
		require.NoError(t, err)
		got, err := v.Call(ctx, call, evm.Latest)
		if err != nil {
			if !errors.Is(err, nodeaccess.ErrInvalidResponse) {
				t.Fatalf("an error that is not an invalid response: %v", err)
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Call returned %x, the chain %x", got, want)
		}
	})
}

// An access list longer than a call is proven for is refused before any
// proof is asked for: what a provider lists bounds nothing else.
func TestCallAccessListBounded(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t)
	type tuple struct {
		Address     string   `json:"address"`
		StorageKeys []string `json:"storageKeys"`
	}
	keys := make([]string, 10_000)
	for i := range keys {
		keys[i] = "0x0000000000000000000000000000000000000000000000000000000000000001"
	}
	list, err := json.Marshal(map[string]any{"accessList": []tuple{{Address: "0x000000000000000000000000000000000000e020", StorageKeys: keys}}})
	require.NoError(t, err)
	c, err := srv.Client(nodeaccess.WithRoundTripper(accessListAnswer(list)))
	require.NoError(t, err)
	v, err := verified.New(c, chainAnchor{srv})
	require.NoError(t, err)
	before := srv.RequestCount()
	_, err = v.Call(context.Background(), evm.CallMsg{To: evmtest.Token()}, evm.Latest)
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	require.ErrorContains(t, err, "the access list names 10001 accounts and slots, more than the 10000")
	require.Equal(t, 1, srv.RequestCount()-before, "no proof asked for")
}

// FuzzHeaderAnswer: whatever eth_getBlockByHash answers for the anchored
// block, a read never panics and never returns another value than the
// chain's: the header decodes and hashes to the anchored hash, or the read
// fails as an invalid response (or not found, for null).
func FuzzHeaderAnswer(f *testing.F) {
	srv := node(f)
	ctx := context.Background()
	head, _, err := chainAnchor{srv}.ExecutionBlocks(ctx)
	require.NoError(f, err)
	var raw json.RawMessage
	require.NoError(f, srv.EthClient().Client().CallContext(ctx, &raw, "eth_getBlockByHash", head, false))
	want, err := client(f, srv).Balance(ctx, evmtest.Holder(), evm.BlockHash{Hash: head})
	require.NoError(f, err)
	f.Add([]byte(raw))
	f.Add([]byte(`null`))
	f.Add([]byte(`{}`))
	f.Add(bytes.Replace(raw, []byte(`"gasUsed":"0x`), []byte(`"gasUsed":"0x1`), 1))
	f.Fuzz(func(t *testing.T, result []byte) {
		if !json.Valid(result) {
			return
		}
		c, err := srv.Client(nodeaccess.WithRoundTripper(answer{method: "eth_getBlockByHash", result: result}), nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		v, err := verified.New(c, fixedAnchor{head: head, finalized: head})
		require.NoError(t, err)
		got, err := v.Balance(ctx, evmtest.Holder(), evm.BlockHash{Hash: head})
		if err != nil {
			if !errors.Is(err, nodeaccess.ErrInvalidResponse) && !errors.Is(err, nodeaccess.ErrNotFound) {
				t.Fatalf("an error that is neither an invalid response nor not found: %v", err)
			}
			return
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("Balance %s, the chain's %s", got, want)
		}
	})
}

// A node that answers eth_createAccessList with an error (it does not
// serve it) still gets a verified call: the proofs find what the call
// reads, one batch a step, and the result is the chain's.
func TestCallWithoutAccessList(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t)
	ctx := context.Background()
	call := evm.CallMsg{To: evmtest.Token(), Data: balanceOf(evmtest.Holder())}
	want, err := client(t, srv).Call(ctx, call, evm.Latest)
	require.NoError(t, err)
	c, err := srv.Client(nodeaccess.WithRoundTripper(answer{method: "eth_createAccessList", member: "error",
		result: []byte(`{"code":-32601,"message":"the method eth_createAccessList does not exist/is not available"}`)}))
	require.NoError(t, err)
	v, err := verified.New(c, chainAnchor{srv})
	require.NoError(t, err)
	before := srv.RequestCount()
	got, err := v.Call(ctx, call, evm.Latest)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, 3, srv.RequestCount()-before, "the access list, the sender and callee, the slot read")
}
