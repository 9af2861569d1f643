package evm

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nodeaccess/nodeaccess"
)

// FuzzAsRevert feeds asRevert any JSON-RPC error member, seeded with the
// real bodies of testdata/reverts and testdata/not_reverts: it never
// panics, a revert keeps the node's error as its cause, the request's own
// errors are never reverts, and an error that neither has code 3, nor
// speaks of a revert, nor carries Solidity revert bytes stays as it was.
func FuzzAsRevert(f *testing.F) {
	for _, dir := range []string{"testdata/reverts", "testdata/not_reverts"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(`{"code":-32000,"message":"x","data":{"a":{"return":"0x4e487b710000000000000000000000000000000000000000000000000000000000000001"}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var m struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    any    `json:"data"`
		}
		if json.Unmarshal(body, &m) != nil {
			return
		}
		re := &nodeaccess.RPCError{Code: m.Code, Message: m.Message, Data: m.Data}
		out := asRevert(re, nil)
		rev, isRev := out.(*RevertError)
		if !isRev {
			if out != error(re) {
				t.Fatalf("a non-revert changed: %v", out)
			}
			return
		}
		if protocolError(m.Code) {
			t.Fatalf("code %d taken for a revert", m.Code)
		}
		text, _ := m.Data.(string)
		data, hasData := revertBytes(m.Data, 0)
		if m.Code != 3 && !mentionsRevert(m.Message) && !mentionsRevert(text) && !(hasData && isSolidityRevert(data)) {
			t.Fatalf("a revert without a reason to be one: %s", body)
		}
		var cause *nodeaccess.RPCError
		if !errors.As(rev, &cause) || cause != re || !errors.Is(rev, ErrReverted) {
			t.Fatalf("the revert lost its cause")
		}
		_ = rev.Error()
		_ = rev.ErrorData()
		if rev.PanicCode != nil && rev.Reason != "" {
			t.Fatalf("both a panic code and a reason")
		}
	})
}
