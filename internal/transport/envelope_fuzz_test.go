package transport

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
)

// FuzzCheckEnvelope runs a JSON-RPC response body through checkEnvelope,
// the decoder every JSON-RPC call goes through: it never panics; it returns
// either the raw result member (exactly what parseEnvelope finds) for a
// 2.0 envelope that echoes the id, or one typed error, a
// *nodeaccess.RPCError for an error object, else an ErrInvalidResponse
// error; and the key, which the seeds put in messages, data and the body,
// shows in neither the error nor the RPCError's fields.
func FuzzCheckEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s), false)
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"bad key sEcReT-k3y","data":{"url":"https://x/sEcReT-k3y","l":["sEcReT-k3y"],"sEcReT-k3y":1}}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"bad key \"sEcReT-k3y\"","data":"sEcReT-k3y"}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":"sEcReT-k3y","message":"x"}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":1.5,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":99999999999999999999,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
		`{"jsonrpc":"2.0","id":"sEcReT-k3y","result":"0x"}`,
		`{"jsonrpc":"sEcReT-k3y","id":7,"result":"0x"}`,
		`{"jsonrpc":"2.0","id":7,"result":null}`,
		`{"jsonrpc":"2.0","id":7,"error":null,"result":"0x1"}`,
		`{"jsonrpc":"2.0","id":7}`,
		`<html><body>sEcReT-k3y</body></html>`,
		`{"jsonrpc":"2.0","id":7,"result":"` + strings.Repeat("ab", 60) + `sEcReT-k3y"}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	c, err := New(Settings{Chain: "test", BaseURL: "https://node.example", Key: testKey})
	if err != nil {
		f.Fatal(err)
	}
	const id = 7
	f.Fuzz(func(t *testing.T, body []byte, relax bool) {
		resp := &Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json; " + testKey}}, Body: body}
		raw, err := c.checkEnvelope(resp, id, relax)
		if err == nil {
			env, perr := parseEnvelope(body)
			if perr != nil || !bytes.Equal(raw, env.result) || raw == nil {
				t.Fatalf("result %q from %q (parseEnvelope: %q, %v)", raw, body, env.result, perr)
			}
			if !bytes.Equal(env.version, []byte(`"2.0"`)) {
				t.Fatalf("accepted jsonrpc member %s", env.version)
			}
			if !relax && !bytes.Equal(env.id, []byte("7")) {
				t.Fatalf("accepted id %s for 7", env.id)
			}
			return
		}
		if raw != nil {
			t.Fatalf("a result %q beside the error %v", raw, err)
		}
		var re *nodeaccess.RPCError
		switch {
		case errors.As(err, &re):
			if errors.Is(err, nodeaccess.ErrInvalidResponse) {
				t.Fatalf("both an RPCError and ErrInvalidResponse: %v", err)
			}
			if shown := fmt.Sprintf("%d %s %#v %v", re.Code, re.Message, re.Data, re.Data); strings.Contains(shown, testKey) {
				t.Fatalf("the RPCError shows the key: %s", shown)
			}
		case !errors.Is(err, nodeaccess.ErrInvalidResponse):
			t.Fatalf("untyped error: %v", err)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Fatalf("the error shows the key: %v", err)
		}
	})
}
