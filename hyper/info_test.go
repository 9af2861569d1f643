package hyper_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// clearinghouseState is a request type the SDK has no method for, as a
// user writes it.
type clearinghouseState struct {
	Type string `json:"type"`
	User string `json:"user"`
	Dex  string `json:"dex,omitempty"`
}

// Info sends the request's JSON, byte for byte, to the node's /info, and
// decodes the answer into out; PublicInfo sends it to the public API,
// without the key.
func TestInfoWire(t *testing.T) {
	req := clearinghouseState{Type: "clearinghouseState", User: "0x2b804617c6f63c040377e95bb276811747006f4b"}
	const body = `{"type":"clearinghouseState","user":"0x2b804617c6f63c040377e95bb276811747006f4b"}`
	const answer = `{"marginSummary":{"accountValue":"1234.5"},"withdrawable":"10.25","time":1737697731869}`
	type state struct {
		MarginSummary struct {
			AccountValue string `json:"accountValue"`
		} `json:"marginSummary"`
		Withdrawable string `json:"withdrawable"`
		Time         int64  `json:"time"`
	}

	t.Run("node, into a struct", func(t *testing.T) {
		c := gockClient(t)
		mockInfo(t, nodeInfo, body, answer)
		var got state
		require.NoError(t, c.Info(context.Background(), &got, req))
		assert.Equal(t, "1234.5", got.MarginSummary.AccountValue)
		assert.Equal(t, "10.25", got.Withdrawable)
		assert.Equal(t, int64(1737697731869), got.Time)
	})
	t.Run("public, raw", func(t *testing.T) {
		c := gockClient(t)
		mockInfo(t, mainnetAPIURL+"/info", body, answer)
		var got json.RawMessage
		require.NoError(t, c.PublicInfo(context.Background(), &got, req))
		assert.JSONEq(t, answer, string(got))
	})
	t.Run("a map, a RawMessage, nil out", func(t *testing.T) {
		c := gockClient(t)
		mockInfo(t, nodeInfo, `{"type":"spotMeta"}`, `{"universe":[]}`)
		mockInfo(t, mainnetAPIURL+"/info", `{"dex":"xyz","type":"meta"}`, `{"universe":[{"name":"xyz:CL"}]}`)
		mockInfo(t, mainnetAPIURL+"/info", `{"type":"perpDexs"}`, `[null,{"name":"xyz"}]`)
		require.NoError(t, c.Info(context.Background(), nil, json.RawMessage(`{"type":"spotMeta"}`)))
		var meta struct{ Universe []struct{ Name string } }
		require.NoError(t, c.PublicInfo(context.Background(), &meta, map[string]string{"type": "meta", "dex": "xyz"}))
		assert.Equal(t, "xyz:CL", meta.Universe[0].Name)
		var dexes []*struct{ Name string }
		require.NoError(t, c.PublicInfo(context.Background(), &dexes, map[string]any{"type": "perpDexs"}))
		require.Len(t, dexes, 2)
		assert.Nil(t, dexes[0])
		assert.Equal(t, "xyz", dexes[1].Name)
	})
	t.Run("the typed calls' requests through the generic call", func(t *testing.T) {
		c := gockClient(t)
		recorded := fixture(t, "userVaultEquities_2025-08.json")
		mockInfo(t, nodeInfo, `{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4b"}`, recorded)
		mockInfo(t, mainnetAPIURL+"/info", `{"type":"allMids","dex":"xyz"}`, `{"xyz:CL":"60.123"}`)
		var vaults []struct {
			VaultAddress string `json:"vaultAddress"`
			Equity       string `json:"equity"`
		}
		require.NoError(t, c.Info(context.Background(), &vaults, struct {
			Type string `json:"type"`
			User string `json:"user"`
		}{"userVaultEquities", "0x2b804617c6f63c040377e95bb276811747006f4b"}))
		require.Len(t, vaults, 2)
		assert.Equal(t, "688536.0314879999", vaults[0].Equity)
		var mids map[string]string
		require.NoError(t, c.PublicInfo(context.Background(), &mids, struct {
			Type string `json:"type"`
			Dex  string `json:"dex"`
		}{"allMids", "xyz"}))
		assert.Equal(t, map[string]string{"xyz:CL": "60.123"}, mids)
	})
}

// Each request names its type as the operation in hooks and errors.
func TestInfoNamesTheType(t *testing.T) {
	var seen testkit.Recorder
	c := gockClient(t, nodeaccess.WithHook(seen.Hook))
	mockInfo(t, nodeInfo, `{"type":"openOrders","user":"0x01"}`, `[]`)
	mockInfo(t, mainnetAPIURL+"/info", `{"coin":"BTC","type":"l2Book"}`, `{"coin":"BTC","levels":[[],[]]}`)
	require.NoError(t, c.Info(context.Background(), nil, map[string]string{"type": "openOrders", "user": "0x01"}))
	require.NoError(t, c.PublicInfo(context.Background(), nil, map[string]string{"type": "l2Book", "coin": "BTC"}))
	got := seen.Attempts()
	require.Len(t, got, 2)
	assert.Equal(t, []string{"hyper", "openOrders", "https://node.example/REDACTED/info"}, []string{got[0].Chain, got[0].Op, got[0].URL})
	assert.Equal(t, []string{"hyper", "l2Book", "https://api.hyperliquid.xyz/info"}, []string{got[1].Chain, got[1].Op, got[1].URL})
	assert.Equal(t, []int{1, 2}, []int{got[0].Units, got[1].Units})
}

// The public API's weights are Hyperliquid's published ones, charged to
// the public budget; the node's requests cost 1 unit of the plan's budget;
// nodeaccess.WithCost changes either by the request type.
func TestInfoCosts(t *testing.T) {
	srv := newScript(t, reply{200, "application/json", `{}`})
	weights := map[string]int{
		"allMids": 2, "l2Book": 2, "clearinghouseState": 2, "orderStatus": 2, "spotClearinghouseState": 2, "exchangeStatus": 2,
		"userRole": 60,
		"meta":     20, "spotMeta": 20, "userVaultEquities": 20, "openOrders": 20, "candleSnapshot": 20, "outcomeMeta": 20,
	}
	for typ, w := range weights {
		t.Run(typ, func(t *testing.T) {
			plan, err := nodeaccess.NewBudget(1000, 1000)
			require.NoError(t, err)
			public, err := nodeaccess.NewBudget(1000, 1000)
			require.NoError(t, err)
			c := faultClient(t, srv, srv, nodeaccess.WithBudget(plan), hyper.WithPublicBudget(public))
			req := map[string]string{"type": typ}
			require.NoError(t, c.PublicInfo(context.Background(), nil, req))
			assert.Equal(t, int64(w), public.Stats().Units, "public weight")
			assert.Zero(t, plan.Stats().Units, "the public API is not part of the plan")
			require.NoError(t, c.Info(context.Background(), nil, req))
			assert.Equal(t, int64(1), plan.Stats().Units, "a node request costs 1 unit")
			assert.Equal(t, int64(w), public.Stats().Units)

			// WithCost by the type's name sets both.
			plan2, err := nodeaccess.NewBudget(1000, 1000)
			require.NoError(t, err)
			public2, err := nodeaccess.NewBudget(1000, 1000)
			require.NoError(t, err)
			c = faultClient(t, srv, srv, nodeaccess.WithBudget(plan2), hyper.WithPublicBudget(public2), nodeaccess.WithCost(typ, 7))
			require.NoError(t, c.PublicInfo(context.Background(), nil, req))
			require.NoError(t, c.Info(context.Background(), nil, req))
			assert.Equal(t, []int64{7, 7}, []int64{public2.Stats().Units, plan2.Stats().Units})
		})
	}
}

// Bad requests are refused before anything is sent, as a
// *nodeaccess.InputError naming the argument.
func TestInfoBadInputSendsNothing(t *testing.T) {
	c := gockClient(t)
	var out map[string]any
	cases := []struct {
		name    string
		req     any
		out     any
		arg     string
		want    string
		public  bool // PublicInfo only
		skipOut bool
	}{
		{name: "nil", req: nil, arg: "req", want: `hyper: info: invalid input: req: nil request: want a value that marshals to a JSON object with a "type"`},
		{name: "does not marshal", req: map[string]any{"type": "meta", "c": make(chan int)}, arg: "req",
			want: "hyper: info: invalid input: req: does not marshal to JSON: json: unsupported type: chan int"},
		{name: "invalid raw JSON", req: json.RawMessage(`{"type":`), arg: "req",
			want: "hyper: info: invalid input: req: does not marshal to JSON: json: error calling MarshalJSON for type json.RawMessage: unexpected end of JSON input"},
		{name: "a string", req: `{"type":"meta"}`, arg: "req", want: "hyper: info: invalid input: req: string marshals to a string, not a JSON object"},
		{name: "bytes", req: []byte(`{"type":"meta"}`), arg: "req", want: "hyper: info: invalid input: req: []uint8 marshals to a string, not a JSON object"},
		{name: "an array", req: []string{"meta"}, arg: "req", want: "hyper: info: invalid input: req: []string marshals to an array, not a JSON object"},
		{name: "null", req: json.RawMessage(`null`), arg: "req", want: "hyper: info: invalid input: req: json.RawMessage marshals to null, not a JSON object"},
		{name: "nil map", req: map[string]string(nil), arg: "req", want: "hyper: info: invalid input: req: map[string]string marshals to null, not a JSON object"},
		{name: "no type", req: map[string]string{"user": "0x01"}, arg: "req", want: `hyper: info: invalid input: req: the request has no "type" member`},
		{name: "type in another case", req: map[string]string{"Type": "meta"}, arg: "req", want: `hyper: info: invalid input: req: the request has no "type" member`},
		{name: "type not a string", req: map[string]int{"type": 1}, arg: "req", want: `hyper: info: invalid input: req: the "type" member is a number, not a string`},
		{name: "empty type", req: map[string]string{"type": ""}, arg: "req", want: `hyper: info: invalid input: req: the "type" "" is empty`},
		{name: "type with a space", req: map[string]string{"type": "all Mids"}, arg: "req",
			want: `hyper: info: invalid input: req: the "type" "all Mids" is not a request type: want ASCII letters and digits`},
		{name: "type with a slash", req: map[string]string{"type": "../info"}, arg: "req",
			want: `hyper: info: invalid input: req: the "type" "../info" is not a request type: want ASCII letters and digits`},
		{name: "long type", req: map[string]string{"type": strings.Repeat("a", 65)}, arg: "req",
			want: `hyper: info: invalid input: req: the "type" member is 65 bytes long, longer than 64`},
		{name: "out not a pointer", req: map[string]string{"type": "meta"}, out: out, arg: "out",
			want: "hyper: meta: invalid input: out: map[string]interface {} is not a non-nil pointer"},
		{name: "out a nil pointer", req: map[string]string{"type": "meta"}, out: (*map[string]any)(nil), arg: "out",
			want: "hyper: meta: invalid input: out: *map[string]interface {} is not a non-nil pointer"},
	}
	for _, tc := range cases {
		for _, public := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/public=%v", tc.name, public), func(t *testing.T) {
				call := c.Info
				if public {
					call = c.PublicInfo
				}
				err := call(context.Background(), tc.out, tc.req)
				oe, _ := testkit.RequireInputError(t, err, tc.arg)
				assert.Equal(t, "hyper", oe.Chain)
				assert.Equal(t, tc.want, err.Error())
			})
		}
	}
	assert.Empty(t, gock.GetUnmatchedRequests())
}

// The key never goes to the public API, whatever spelling of it a request
// holds, and never names an operation; the node may receive a request
// holding it (the node has the key in its path already).
func TestInfoRefusesTheKeyInPublicRequests(t *testing.T) {
	for _, key := range append([]string{"k3yAlnum0", "0123456789abcdefABCDEF"}, testkit.LeakKeys...) {
		srv := newScript(t, reply{200, "application/json", `{}`})
		c, err := hyper.New(srv.srv.URL, key, hyper.WithPublicURL(srv.srv.URL))
		require.NoError(t, err)
		ctx := context.Background()
		for _, req := range []any{
			map[string]string{"type": "userRole", "user": key},
			map[string]string{"type": "userRole", "user": "https://node.example/" + key + "/info"},
			map[string]string{"type": "userRole", "user": strings.ToUpper(key)},
			map[string]any{"type": "meta", "nested": []string{"x", key}},
			json.RawMessage(`{"type":"meta","k":"` + testkit.ASCIIJSON(key) + `"}`),
		} {
			err := c.PublicInfo(ctx, nil, req)
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput, "%v", req)
			var ie *nodeaccess.InputError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, "req", ie.Arg)
			assert.Contains(t, err.Error(), "the request holds the access key; the public API takes no key")
			testkit.AssertErrNoKey(t, key, err)
		}
		assert.Empty(t, srv.requests(), "nothing went to the public API")

		// A type or a dex name that is the key would be quoted or name the
		// operation: refused on both endpoints, without relying on the
		// masking of errors.
		for _, call := range []func(context.Context, any, any) error{c.Info, c.PublicInfo} {
			err := call(ctx, nil, map[string]string{"type": key})
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
			assert.Equal(t, `hyper: info: invalid input: req: the "type" member holds the access key`, err.Error())
			var oe *nodeaccess.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "info", oe.Op)
		}
		_, err = c.AllMids(ctx, key)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		assert.Equal(t, `hyper: allMids: invalid input: dex: the dex name holds the access key`, err.Error())
		assert.Empty(t, srv.requests())

		// The node may be sent the key in a body.
		require.NoError(t, c.Info(ctx, nil, map[string]string{"type": "userRole", "user": key}))
		reqs := srv.requests()
		require.Len(t, reqs, 1)
		assert.NotEqual(t, "/info", reqs[0].path, "went to the node")
	}
}

// The generic call's failures: Hyperliquid's 422, a 500 null retried, an
// answer that does not decode into out, and the server's message.
func TestInfoFailures(t *testing.T) {
	t.Run("422 on the node", func(t *testing.T) {
		node := newScript(t, reply{422, "text/plain", deserialize})
		c := faultClient(t, node, nil)
		err := c.Info(context.Background(), nil, map[string]string{"type": "allMids"})
		require.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, deserialize, he.Message)
		assert.Equal(t, "hyper: allMids: request malformed or not served by this node: HTTP 422 Unprocessable Entity: "+deserialize+
			" (the node answers 422 to a malformed body and to a request type it does not serve; "+
			"types such as allMids are served only by the public API: send them with PublicInfo)", err.Error())
	})
	t.Run("500 null retried", func(t *testing.T) {
		public := newScript(t, reply{500, "application/json", "null"}, reply{200, "application/json", `{"universe":[]}`})
		c := faultClient(t, nil, public)
		var meta map[string]any
		require.NoError(t, c.PublicInfo(context.Background(), &meta, map[string]string{"type": "meta"}))
		assert.Contains(t, meta, "universe")
		assert.Len(t, public.requests(), 2)
	})
	t.Run("answer that does not decode into out", func(t *testing.T) {
		node := newScript(t, reply{200, "application/json", `{"withdrawable":10.5}`})
		c := faultClient(t, node, nil)
		var out struct {
			Withdrawable string `json:"withdrawable"`
		}
		err := c.Info(context.Background(), &out, map[string]string{"type": "clearinghouseState"})
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), "hyper: clearinghouseState: invalid response: json: cannot unmarshal number into Go struct field")
	})
	t.Run("HTML with 200", func(t *testing.T) {
		node := newScript(t, reply{200, "text/html", htmlPage})
		c := faultClient(t, node, nil)
		var raw json.RawMessage
		err := c.Info(context.Background(), &raw, map[string]string{"type": "meta"})
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		assert.Contains(t, err.Error(), "body is HTML or XML, not JSON")
		// nil out drops the answer unread.
		require.NoError(t, c.Info(context.Background(), nil, map[string]string{"type": "meta"}))
	})
	t.Run("context", func(t *testing.T) {
		c := gockClient(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := c.PublicInfo(ctx, nil, map[string]string{"type": "meta"})
		assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	})
}

// spellings returns the key written character by character as HTML
// entities (decimal and hex), as JSON \u escapes, and percent-encoded: the
// spellings a request body may carry that encoding/json escapes again on
// the way out ("&" becomes \u0026, "\" becomes \\).
func spellings(key string) []string {
	var dec, hex, uesc, pct strings.Builder
	for _, r := range key {
		fmt.Fprintf(&dec, "&#%d;", r)
		fmt.Fprintf(&hex, "&#x%X;", r)
		fmt.Fprintf(&uesc, `\u%04X`, r)
		for _, b := range []byte(string(r)) {
			fmt.Fprintf(&pct, "%%%02X", b)
		}
	}
	return []string{dec.String(), hex.String(), uesc.String(), pct.String()}
}

// TestPublicInfoChecksWhatIsSent puts the key in a public request in the
// spellings that the body's JSON encoding escapes once more, and as a raw
// JSON body whose strings are \u-escaped: each says the key to a server
// that decodes what it receives, and each is refused with nothing sent
// (issue 30: these reached the public host, the check having read the body
// before its encoding).
func TestPublicInfoChecksWhatIsSent(t *testing.T) {
	for _, key := range []string{"k3yAlnum0", "0123456789abcdefABCDEF"} {
		srv := newScript(t, reply{200, "application/json", `{}`})
		c, err := hyper.New(srv.srv.URL, key, hyper.WithPublicURL(srv.srv.URL))
		require.NoError(t, err)
		var reqs []any
		for _, s := range spellings(key) {
			reqs = append(reqs, map[string]string{"type": "userRole", "user": s})
		}
		var esc strings.Builder
		for _, r := range key {
			fmt.Fprintf(&esc, `\u%04x`, r)
		}
		reqs = append(reqs, json.RawMessage(`{"type":"meta","user":"`+esc.String()+`"}`))
		for _, req := range reqs {
			err := c.PublicInfo(context.Background(), nil, req)
			require.ErrorIs(t, err, nodeaccess.ErrInvalidInput, "%v", req)
			assert.Contains(t, err.Error(), "access key")
			testkit.AssertErrNoKey(t, key, err)
		}
		assert.Empty(t, srv.requests(), "nothing went to the public API")
	}
}
