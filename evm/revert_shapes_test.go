package evm_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wantRevert is what the SDK must make of one node's revert body.
type wantRevert struct {
	data   string // ErrorData(): the revert bytes as hex, or the node's data as it came when it had no bytes
	reason string
	panic  int64 // -1: no panic code
	msg    string
}

// The revert shapes of real nodes (testdata/SOURCES.md), each one a
// *RevertError matching ErrReverted with the decoded reason, whatever the
// node's code (3, -32000, -32015) and spelling ("execution reverted",
// "Execution reverted", "VM execution error." with the revert in data,
// "VM Exception while processing transaction: revert").
var revertShapes = map[string]wantRevert{
	"besu_execution_reverted.json": {"0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000002645524332303a207472616e7366657220616d6f756e7420657863656564732062616c616e63650000000000000000000000000000000000000000000000000000",
		"ERC20: transfer amount exceeds balance", -1, `evm: eth_call: execution reverted: "ERC20: transfer amount exceeds balance"`},
	"geth_style_reason.json": {"0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000d53657420746f2072657665727400000000000000000000000000000000000000",
		"Set to revert", -1, `evm: eth_call: execution reverted: "Set to revert"`},
	"geth_bare.json":                     {"0x", "", -1, "evm: eth_call: execution reverted"},
	"nethermind_bare.json":               {"0x", "", -1, "evm: eth_call: execution reverted"},
	"nethermind_32000_custom.json":       {"0xf4f28e9900000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000018", "", -1, "evm: eth_call: execution reverted: custom error 0xf4f28e99 (68 bytes of data)"},
	"nethermind_32015_reverted_hex.json": {"0x7a933234", "", -1, "evm: eth_call: execution reverted: custom error 0x7a933234 (4 bytes of data)"},
	"nethermind_32015_reason_text.json":  {"revert: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT", "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT", -1, `evm: eth_call: execution reverted: "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"`},
	"nethermind_32015_revert.json":       {"revert", "", -1, "evm: eth_call: execution reverted"},
	"reth_bare.json":                     {"0x", "", -1, "evm: eth_call: execution reverted"},
	"opgeth_32000_bare.json":             {"0x", "", -1, "evm: eth_call: execution reverted"},
	"zksync_custom.json":                 {"0xc2bb947c", "", -1, "evm: eth_call: execution reverted: custom error 0xc2bb947c (4 bytes of data)"},
	"hedera_relay_prefixed.json":         {"0x", "", -1, "evm: eth_call: execution reverted"},
	"ganache2_revert.json":               {"0x", "", -1, "evm: eth_call: execution reverted"},
}

// errorMember reads a testdata error body and the code and message in it.
func errorMember(t *testing.T, path string) (raw string, code int, msg string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(b, &e), path)
	return strings.TrimSpace(string(b)), e.Code, e.Message
}

// callWithError runs Call against a node that answers the error member raw.
func callWithError(t *testing.T, raw string) error {
	t.Helper()
	c := gockClient(t)
	mockRPC(t, "/"+testKey, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"},"latest"]}`,
		`{"jsonrpc":"2.0","id":1,"error":`+raw+`}`)
	_, err := c.Call(context.Background(), evm.CallMsg{To: token}, evm.Latest)
	require.Error(t, err)
	return err
}

// listed returns the .json files of dir, so that a body added to testdata
// without an expectation fails the test (and the other way round).
func listed(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	return files
}

func TestRevertShapesOfRealNodes(t *testing.T) {
	files := listed(t, "testdata/reverts")
	keys := make([]string, 0, len(revertShapes))
	for k := range revertShapes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	require.Equal(t, keys, files, "every body has an expectation")
	for _, name := range files {
		want := revertShapes[name]
		t.Run(name, func(t *testing.T) {
			raw, code, msg := errorMember(t, filepath.Join("testdata/reverts", name))
			err := callWithError(t, raw)
			assert.ErrorIs(t, err, evm.ErrReverted)
			var rev *evm.RevertError
			require.ErrorAs(t, err, &rev)
			assert.Equal(t, want.reason, rev.Reason)
			assert.Equal(t, want.data, rev.ErrorData())
			if want.panic >= 0 {
				require.NotNil(t, rev.PanicCode)
				assert.Equal(t, want.panic, rev.PanicCode.Int64())
			} else {
				assert.Nil(t, rev.PanicCode)
			}
			assert.Equal(t, want.msg, err.Error())
			// The node's own error stays reachable, unchanged.
			var re *nodeaccess.RPCError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, code, re.Code)
			assert.Equal(t, msg, re.Message)
			assert.Equal(t, code, rev.ErrorCode())
			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
		})
	}
}

// Errors that are not reverts stay the node's *RPCError, untouched.
func TestNotRevertShapesOfRealNodes(t *testing.T) {
	for _, name := range listed(t, "testdata/not_reverts") {
		t.Run(name, func(t *testing.T) {
			raw, code, msg := errorMember(t, filepath.Join("testdata/not_reverts", name))
			err := callWithError(t, raw)
			assert.NotErrorIs(t, err, evm.ErrReverted)
			var rev *evm.RevertError
			assert.False(t, errorsAs(err, &rev))
			var re *nodeaccess.RPCError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, code, re.Code)
			assert.Equal(t, msg, re.Message)
		})
	}
}

// The class, beyond the recorded bodies: the same revert in every spelling
// and code a node may use is a revert with the same decoded reason; the
// same words in an error of the request itself, or an error that does not
// speak of a revert, are not.
func TestRevertDetectionIsNotTiedToOneSpelling(t *testing.T) {
	const reasonData = "0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000d53657420746f2072657665727400000000000000000000000000000000000000"
	const panicData = "0x4e487b710000000000000000000000000000000000000000000000000000000000000012"
	for _, msg := range []string{"execution reverted", "Execution reverted", "EXECUTION REVERTED", "execution reverted: Set to revert",
		"Execution reverted: Set to revert", "[id 7] execution reverted", "VM Exception while processing transaction: revert",
		"Error: VM Exception while processing transaction: reverted with reason string 'Set to revert'", "Reverted", "revert"} {
		for _, code := range []int{3, -32000, -32003, -32015, -32603, 12} {
			for _, data := range []string{`"` + reasonData + `"`, `"Reverted ` + reasonData + `"`, `{"message":"x","data":"` + reasonData + `"}`,
				`{"0xabc":{"error":"revert","return":"` + reasonData + `"}}`} {
				raw := `{"code":` + itoa(code) + `,"message":` + jsonString(msg) + `,"data":` + data + `}`
				var rev *evm.RevertError
				require.ErrorAs(t, callWithError(t, raw), &rev, raw)
				assert.Equal(t, "Set to revert", rev.Reason, raw)
			}
		}
	}
	// Error(string) or Panic(uint256) bytes are a revert whatever the text.
	for _, raw := range []string{`{"code":-32000,"message":"VM execution error.","data":"` + reasonData + `"}`,
		`{"code":-32000,"message":"","data":"` + panicData + `"}`} {
		var rev *evm.RevertError
		require.ErrorAs(t, callWithError(t, raw), &rev, raw)
	}
	// Not reverts: the request's own errors whatever they say, errors that
	// do not speak of a revert, and bytes that are not a Solidity revert
	// under a message that does not speak of one.
	for _, raw := range []string{
		`{"code":-32602,"message":"invalid argument 0: execution reverted","data":"` + reasonData + `"}`,
		`{"code":-32601,"message":"the method eth_revert does not exist/is not available"}`,
		`{"code":-32700,"message":"revert"}`,
		`{"code":-32600,"message":"Reverted 0x00"}`,
		`{"code":-32000,"message":"out of gas"}`,
		`{"code":-32000,"message":"nonce too low"}`,
		`{"code":-32000,"message":"execution aborted (timeout = 5s)"}`,
		`{"code":-32000,"message":"gas required exceeds allowance (30000000)","data":"0xc2bb947c"}`,
		`{"code":-32000,"message":"irreversible state","data":"0x08c379a000"}`,
		`{"code":-32005,"message":"request rate exceeded"}`,
	} {
		err := callWithError(t, raw)
		assert.NotErrorIs(t, err, evm.ErrReverted, raw)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func itoa(n int) string { return strconv.Itoa(n) }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A reason that holds the access key, ABI-encoded in the revert data where
// the transport's scrubbing of the node's text cannot see it, is masked.
func TestRevertReasonEchoingKeyIsMasked(t *testing.T) {
	reason := "proxy https://node.example/" + testKey + "/ refused"
	data := "0x08c379a0" + hex.EncodeToString(common.LeftPadBytes([]byte{0x20}, 32)) +
		hex.EncodeToString(common.LeftPadBytes(big.NewInt(int64(len(reason))).Bytes(), 32)) +
		hex.EncodeToString(common.RightPadBytes([]byte(reason), 64))
	err := callWithError(t, `{"code":-32000,"message":"Execution reverted","data":"`+data+`"}`)
	var rev *evm.RevertError
	require.ErrorAs(t, err, &rev)
	assert.NotContains(t, rev.Reason, testKey)
	assert.NotContains(t, err.Error(), testKey)
	assert.Contains(t, rev.Reason, "proxy https://node.example/")
}
