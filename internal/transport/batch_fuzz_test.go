package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
)

// batchSeeds are batch answers: a go-ethereum batch answer (the evmtest
// node's shape, ids out of order, a revert among results), and each
// server's refusal of a batch's size as evm/testdata/batch pins it (see
// evm/testdata/SOURCES.md for where each comes from).
var batchSeeds = []string{
	`[{"jsonrpc":"2.0","id":2,"error":{"code":3,"message":"execution reverted","data":"0x"}},{"jsonrpc":"2.0","id":1,"result":"0x"},{"jsonrpc":"2.0","id":3,"result":"0x6001"}]`,
	`[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"batch too large"}}]`,
	`[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"batch limit 100 exceeded (can increase by --rpc.batch.limit). Requested batch of size: 101"}}]`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"batch limit 100 exceeded (can increase by --rpc.batch.limit). Requested batch of size: 101"}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32010,"message":"The batch request was too large","data":"Exceeded max limit of 20"}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32011,"message":"The batch response was too large","data":"Exceeded max limit of 10485760"}}`,
	`{"jsonrpc":"2.0","error":{"code":-32005,"message":"Batch size limit exceeded"},"id":null}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"Number of requests exceeds max batch size"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}`,
	`[{"jsonrpc":"2.0","id":1,"result":"0x"},{"jsonrpc":"2.0","id":1,"result":"0x01"},{"jsonrpc":"2.0","id":9,"result":"0x"},7,null]`,
	`[{"jsonrpc":"2.0","id":"2","result":"0x"},{"jsonrpc":"1.0","id":3,"result":"0x"},{"jsonrpc":"2.0","id":2}]`,
	`[{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"bad key sEcReT-k3y","data":"sEcReT-k3y"}},{"jsonrpc":"2.0","id":2,"result":"sEcReT-k3y"}]`,
	`[{"\u006aSONrpc":"2.0","\u0069d":1,"result":"0x"}]`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted","data":"0x"}}`,
	`[{"jsonrpc":"2.0","id":null,"error":{"code":3,"message":"execution reverted: batch too large"}}]`,
	`{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"header not found"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32008,"message":"Response is too big","data":"Exceeded max limit of 1048576"}}`,
	`[]`, `{}`, `null`, `<html>sEcReT-k3y</html>`, `[{"jsonrpc":"2.0","id":1,"result":"0x"}`,
}

// FuzzSplitBatch runs a body through splitBatch, the decoder of every batch
// answer, for three calls with ids 1, 2 and 3, with errors of code 3 as
// the calls' own (as evm's reverts are): it never panics; it returns one
// error for the whole answer or one answer per call, each a result or an
// error; a call's result is the result member of the one member with its
// id, and a call's error object that of a member with its id (no call gets
// another call's answer); a whole error is no call's own; every error is a
// *nodeaccess.RPCError or an ErrInvalidResponse error; and the key (in
// messages, data and results of the seeds) is in no error.
func FuzzSplitBatch(f *testing.F) {
	for _, s := range batchSeeds {
		f.Add([]byte(s))
	}
	c, err := New(Settings{Chain: "test", BaseURL: "https://node.example", Key: testKey})
	if err != nil {
		f.Fatal(err)
	}
	const first, m = 1, 3
	own := func(err error) bool {
		var re *nodeaccess.RPCError
		return errors.As(err, &re) && re.Code == 3
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		resp := &Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
		answers, whole := c.splitBatch(context.Background(), resp, first, m, own)
		checkErr := func(err error) {
			var re *nodeaccess.RPCError
			if !errors.As(err, &re) && !errors.Is(err, nodeaccess.ErrInvalidResponse) {
				t.Fatalf("untyped error: %v", err)
			}
			if strings.Contains(err.Error(), testKey) || re != nil && strings.Contains(re.Message, testKey) {
				t.Fatalf("the error shows the key: %v", err)
			}
		}
		var members []map[string]json.RawMessage
		if err := json.Unmarshal(body, &members); err != nil { // members that are not objects stay nil
			var one map[string]json.RawMessage
			if json.Unmarshal(body, &one) == nil { // a bare object: an array of one
				members = append(members, one)
			}
		}
		if whole != nil {
			if answers != nil {
				t.Fatalf("answers beside a whole error %v", whole)
			}
			checkErr(whole)
			if own(whole) {
				t.Fatalf("a call's own error answers the whole request: %v", whole)
			}
			var re *nodeaccess.RPCError
			if len(members) == 1 && errors.As(whole, &re) && !requestError(whole) {
				if id := string(members[0]["id"]); id == "1" || id == "2" || id == "3" {
					t.Fatalf("the error object of the call with id %s answers the whole request: %v", id, whole)
				}
			}
			_, _ = sizeRefusal(whole)
			return
		}
		if len(answers) != m {
			t.Fatalf("%d answers for %d calls", len(answers), m)
		}
		for j, a := range answers {
			if (a.raw != nil) == (a.err != nil) {
				t.Fatalf("call %d: result %q and error %v", j, a.raw, a.err)
			}
			id := strconv.Itoa(first + j)
			if a.err != nil {
				checkErr(a.err)
				var re *nodeaccess.RPCError
				if errors.As(a.err, &re) && !slices.ContainsFunc(members, func(mem map[string]json.RawMessage) bool {
					return string(mem["id"]) == id && mem["error"] != nil
				}) {
					t.Fatalf("call %d: error object %v, but no member with id %s has one", j, re, id)
				}
				continue
			}
			var found [][]byte
			for _, mem := range members {
				if string(mem["id"]) == id {
					found = append(found, mem["result"])
				}
			}
			if len(found) != 1 || !bytes.Equal(found[0], a.raw) {
				t.Fatalf("call %d: result %q, but the body's members with id %s hold %q", j, a.raw, id, found)
			}
		}
	})
}
