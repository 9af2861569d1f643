package hypertest

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/shopspring/decimal"
)

// The request reader never panics, reads the user and the dex of the two
// typed requests exactly, and writes any other request canonically: the
// same object, its members sorted, reading back to what was sent.
func FuzzParseInfo(f *testing.F) {
	for _, s := range []string{
		`{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4b"}`,
		`{"type":"allMids"}`,
		`{"type":"allMids","dex":"xyz"}`,
		`{"type":"allMids","dex":null}`,
		`{"type":"meta"}`,
		`{"type":"meta","dex":"xyz","x":1}`,
		`{"type":"meta","dex":null}`,
		`{"type":"meta","dex":""}`,
		`{"type":"meta","dex":"a\"b"}`,
		`{"type":"userVaultEquities","user":"0x2B804617C6F63C040377E95BB276811747006F4B","x":[1]}`,
		`null`, `[]`, `{}`, `{"type":1}`, `{"type":""}`, `{"type":"userVaultEquities","user":"0x\u0030"}`,
		`{"user":"0x01","type":"clearinghouseState","n":1.50,"a":[{"b":2,"a":1}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseInfo(body)
		if err != nil {
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		obj, err := decodeObject(body)
		if err != nil {
			t.Fatalf("accepted a body that is not an object: %q (%v)", body, err)
		}
		switch req.typ {
		case "userVaultEquities":
			user, _ := obj["user"].(string)
			if len(user) != 42 || !strings.HasPrefix(user, "0x") || common.HexToAddress(user) != req.user {
				t.Fatalf("user %q read as %s", user, req.user.Hex())
			}
		case "allMids", "meta":
			if dex, _ := obj["dex"].(string); dex != req.dex {
				t.Fatalf("dex %q read as %q", dex, req.dex)
			}
			if req.typ == "meta" && (req.dex == "" && req.canonical != `{"type":"meta"}` || req.dex != "" && req.canonical != jsonObject(req.dex)) {
				t.Fatalf("meta of dex %q written as %q", req.dex, req.canonical)
			}
		default:
			if req.typ == "" || obj["type"] != req.typ {
				t.Fatalf("type %v read as %q", obj["type"], req.typ)
			}
			back, err := decodeObject([]byte(req.canonical))
			if err != nil || !reflect.DeepEqual(back, obj) {
				t.Fatalf("%q written canonically as %q (%v)", body, req.canonical, err)
			}
			again, err := canonicalJSON([]byte(req.canonical))
			if err != nil || again != req.canonical {
				t.Fatalf("canonical form %q is not stable: %q (%v)", req.canonical, again, err)
			}
		}
	})
}

// jsonObject is the canonical meta request of dex, as encoding/json
// writes it.
func jsonObject(dex string) string {
	b, _ := json.Marshal(map[string]string{"type": "meta", "dex": dex})
	return string(b)
}

// decodeObject decodes a JSON object, numbers as json.Number.
func decodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// The mids writer writes valid JSON that reads back to the same map, or
// refuses.
func FuzzEncodeMids(f *testing.F) {
	f.Add("BTC", "89926.5", "@107", "28.718")
	f.Add("xyz:CL", "60.123", "PURR/USDC", "0.0664375")
	f.Add("a\"b\\c<&>\u2028", "1.0", "\x00", "00.10")
	f.Add("k", "-1", "k2", "1e5")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		in := map[string]string{k1: v1, k2: v2}
		b, err := encodeMids(in)
		if err != nil {
			if isPrice(v1) && isPrice(v2) {
				t.Fatalf("refused valid prices %q %q: %v", v1, v2, err)
			}
			return
		}
		var out map[string]string
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("wrote invalid JSON %q: %v", b, err)
		}
		// Invalid UTF-8 in a key becomes U+FFFD, as with encoding/json.
		if strings.ToValidUTF8(k1, "\uFFFD") == k1 && strings.ToValidUTF8(k2, "\uFFFD") == k2 && !maps.Equal(in, out) {
			t.Fatalf("%q read back as %v", b, out)
		}
	})
}

// The equities writer keeps every digit and the lock-up time to the
// millisecond.
func FuzzEncodeEquities(f *testing.F) {
	f.Add("688536.0314879999", int64(1737697731869))
	f.Add("100.50", int64(0))
	f.Add("-0.0000000001", int64(1))
	f.Add("1e20", int64(253402300799999))
	f.Fuzz(func(t *testing.T, equity string, ms int64) {
		d, err := decimal.NewFromString(equity)
		if err != nil {
			return
		}
		var lock time.Time
		if ms != 0 {
			lock = time.UnixMilli(ms).UTC()
		}
		v := hyper.VaultEquity{VaultAddress: common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d"), Equity: d, LockedUntil: lock}
		b, err := encodeEquities([]hyper.VaultEquity{v})
		if err != nil {
			return
		}
		var out []struct {
			VaultAddress string `json:"vaultAddress"`
			Equity       string `json:"equity"`
			Locked       *int64 `json:"lockedUntilTimestamp"`
		}
		if err := json.Unmarshal(b, &out); err != nil || len(out) != 1 {
			t.Fatalf("wrote %q: %v", b, err)
		}
		got := decimal.RequireFromString(out[0].Equity)
		if !got.Equal(d) || d.Exponent() < 0 && got.Exponent() != d.Exponent() {
			t.Fatalf("equity %s written as %s", equity, out[0].Equity)
		}
		if out[0].VaultAddress != "0x07fd993f0fa3a185f7207adccd29f7a87404689d" {
			t.Fatalf("address written as %s", out[0].VaultAddress)
		}
		switch {
		case lock.IsZero() && out[0].Locked != nil:
			t.Fatalf("a zero lock-up written as %d", *out[0].Locked)
		case !lock.IsZero() && (out[0].Locked == nil || *out[0].Locked != ms):
			t.Fatalf("lock-up %d written as %v", ms, out[0].Locked)
		}
	})
}

// The EVM endpoint reads any body without panicking and answers JSON-RPC:
// one answer object, or an array of one answer per call of a batch.
func FuzzServeEVM(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x0000000000000000000000000000000000000809","gas":"0x186a0"},"latest"]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x0000000000000000000000000000000000000806","data":"0x0000000000000000000000000000000000000000000000000000000000000000"},"latest"]},{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x000000000000000000000000000000000000080c","input":"0x0000000000000000000000000000000000000000000000000000000000000096"}]}`,
		`{"jsonrpc":"2.0","id":"a","method":"eth_call","params":[{"to":"0x0000000000000000000000000000000000000804","data":"0x0000000000000000000000002b804617c6f63c040377e95bb276811747006f4b"},"latest"]}`,
		`[]`, `{`, `null`, `[1]`, `{"jsonrpc":"2.0","method":"eth_call","params":[{"to":"x"}]}`,
	} {
		f.Add([]byte(s))
	}
	srv, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(srv.Close)
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/k/evm", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		srv.serveEVM(rec, req)
		if rec.Code != http.StatusOK {
			if rec.Code == http.StatusRequestEntityTooLarge {
				return
			}
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		var one map[string]json.RawMessage
		var many []map[string]json.RawMessage
		switch {
		case json.Unmarshal(rec.Body.Bytes(), &one) == nil:
			if string(one["jsonrpc"]) != `"2.0"` || (one["result"] == nil) == (one["error"] == nil) {
				t.Fatalf("answer %s", rec.Body.Bytes())
			}
		case json.Unmarshal(rec.Body.Bytes(), &many) == nil:
			var calls []json.RawMessage
			if json.Unmarshal(body, &calls) != nil || len(calls) != len(many) {
				t.Fatalf("%d answers to %q", len(many), body)
			}
		default:
			t.Fatalf("not JSON-RPC: %s", rec.Body.Bytes())
		}
	})
}
