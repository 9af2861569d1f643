package evmtest_test

import (
	"encoding/json"
	"mime"
	"slices"
	"testing"
)

// rpcContentTypes are the media types go-ethereum's JSON-RPC server takes
// (rpc/http.go's acceptedContentTypes); parameters are allowed.
var rpcContentTypes = []string{"application/json", "application/json-rpc", "application/jsonrequest"}

// unsupportedType is go-ethereum's text/plain answer to another type, or to
// none.
const unsupportedType = "invalid content type, only application/json is supported\n"

// Whatever the body and Content-Type reaching the key path, the server
// answers as go-ethereum's JSON-RPC server does, never with a crash or a
// hang: under an accepted media type, 200 with a JSON-RPC response (a batch
// answers an array, a notification nothing); under another type or none,
// 415 text/plain. (A body over 5 MiB gets 413 text/plain, which fuzzing
// does not reach: TestBodyLimits covers it.)
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
		f.Add(seed, "application/json")
	}
	for _, ctype := range []string{"", "text/plain", "application/json; charset=utf-8", "Application/JSON", "application/json-rpc", "application/jsonrequest", "application/json;", "application/x-json", "multipart/form-data; boundary=x"} {
		f.Add(rpcBody("eth_chainId", `[]`), ctype)
	}
	f.Fuzz(func(t *testing.T, body, ctype string) {
		for i := 0; i < len(ctype); i++ {
			if c := ctype[i]; c < ' ' && c != '\t' || c == 0x7f {
				t.Skip("net/http does not send a header value with control characters")
			}
		}
		s := shared(t)
		status, respType, resp := postType(t, s, "/"+testKey, ctype, body)
		if mt, _, err := mime.ParseMediaType(ctype); err != nil || !slices.Contains(rpcContentTypes, mt) {
			if status != 415 || respType != "text/plain; charset=utf-8" || resp != unsupportedType {
				t.Fatalf("Content-Type %q: status %d, %q: %q", ctype, status, respType, resp)
			}
			return
		}
		if status != 200 || respType != "application/json" {
			t.Fatalf("status %d, content type %q for %q (%q): %s", status, respType, body, ctype, resp)
		}
		// A notification (no id) gets an empty body.
		if !json.Valid([]byte(resp)) && resp != "" {
			t.Fatalf("not JSON for %q: %q", body, resp)
		}
	})
}
