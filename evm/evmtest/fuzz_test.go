package evmtest_test

import (
	"encoding/json"
	"testing"
)

// Whatever body reaches the key path, the server answers 200 with a JSON-RPC
// response (a batch answers an array), never a crash or a hang.
func FuzzRPCBody(f *testing.F) {
	for _, seed := range []string{
		rpcBody("eth_chainId", `[]`),
		rpcBody("ots_getInternalOperations", `["0xd80f43219e0aa5ac14e9c8b45f7ed9fd80a715122dec765b12d6485519ea3c81"]`),
		rpcBody("ots_getInternalOperations", `["0x12"]`),
		rpcBody("ots_getInternalOperations", `[]`),
		rpcBody("eth_call", `[{"to":"0x000000000000000000000000000000000000e020","data":"0x06fdde03"},"latest"]`),
		`[` + rpcBody("eth_blockNumber", `[]`) + `,` + rpcBody("net_version", `[]`) + `]`,
		`{"jsonrpc":"2.0","id":1}`, `{}`, `[]`, `null`, `not json`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		s := shared(t)
		status, ctype, resp := post(t, s, "/"+testKey, body)
		if status != 200 || ctype != "application/json" {
			t.Fatalf("status %d, content type %q for %q: %s", status, ctype, body, resp)
		}
		// A notification (no id) gets an empty body.
		if !json.Valid([]byte(resp)) && resp != "" {
			t.Fatalf("not JSON for %q: %q", body, resp)
		}
	})
}
