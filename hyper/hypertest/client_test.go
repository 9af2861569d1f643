package hypertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

func client(t *testing.T, srv *hypertest.Server, opts ...nodeaccess.Option) *hyper.Client {
	t.Helper()
	c, err := srv.Client(opts...)
	require.NoError(t, err)
	return c
}

// assertDecimal checks d against text digit for digit, scale included.
func assertDecimal(t *testing.T, text string, d decimal.Decimal) {
	t.Helper()
	want := decimal.RequireFromString(text)
	assert.True(t, want.Equal(d), "%s != %s", d, text)
	assert.Equal(t, want.Exponent(), d.Exponent(), "scale of %s", text)
}

// The defaults decode through the hyper client to the recorded values.
func TestClientDefaultVaults(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	got, err := c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
	require.NoError(t, err)
	require.Len(t, got, 2)

	assert.Equal(t, common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d"), got[0].VaultAddress)
	assertDecimal(t, "688536.0314879999", got[0].Equity)
	assert.Equal(t, time.Date(2025, 1, 24, 5, 48, 51, 869e6, time.UTC), got[0].LockedUntil)

	assert.Equal(t, common.HexToAddress("0x7f6ce756bdee0db22a8fbda15aa48023aae5a8be"), got[1].VaultAddress)
	assertDecimal(t, "100.003834", got[1].Equity)
	assert.Equal(t, time.Date(2025, 6, 13, 23, 27, 19, 300e6, time.UTC), got[1].LockedUntil)

	// The same through the address as text, and nothing for another user.
	user, err := evm.ParseAddress(defaultUserText)
	require.NoError(t, err)
	again, err := c.UserVaultEquities(context.Background(), user)
	require.NoError(t, err)
	assert.Equal(t, got, again)
	none, err := c.UserVaultEquities(context.Background(), common.HexToAddress("0x01"))
	require.NoError(t, err)
	assert.NotNil(t, none)
	assert.Empty(t, none)
}

func TestClientDefaultMids(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	ctx := context.Background()

	mids, err := c.AllMids(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, 426, mids.Len())
	assert.Equal(t, 223, countKind(mids, hyper.KeyPerp))
	assert.Equal(t, 1, countKind(mids, hyper.KeySpotPair))
	assert.Equal(t, 198, countKind(mids, hyper.KeySpotIndex))
	assert.Equal(t, 4, countKind(mids, hyper.KeyOutcome))
	assert.Zero(t, countKind(mids, hyper.KeyUnknown))
	for _, m := range mids.All() {
		if m.Kind != hyper.KeyPerp {
			continue
		}
		assert.NotEqual(t, byte('#'), m.Key[0], "an outcome side handed out as a perp")
	}
	var outcomes []string
	for _, m := range mids.All() {
		if m.Kind != hyper.KeyOutcome {
			continue
		}
		o, side := m.Index/10, m.Index%10
		outcomes = append(outcomes, fmt.Sprintf("%s=%d/%d@%s", m.Key, o, side, m.Price))
	}
	assert.Equal(t, []string{"#10=1/0@0.735", "#11=1/1@0.265", "#20=2/0@0.5125", "#21=2/1@0.4875"}, outcomes)
	for key, text := range map[string]string{"BTC": "89926.5", "@1": "21.522", "@10": "0.00003066", "@203": "1.0", "@107": "28.718"} {
		pMid, ok := mids.Get(key)
		p := pMid.Price
		require.True(t, ok, key)
		assertDecimal(t, text, p)
	}
	// DefaultMids is what is served.
	def := hypertest.DefaultMids("")
	assert.Len(t, def, 426)
	for key, m := range mids.All() {
		assertDecimal(t, def[key], m.Price)
	}

	xyz, err := c.AllMids(ctx, hypertest.BuilderDex)
	require.NoError(t, err)
	var entries []hyper.Mid
	for _, m := range xyz.All() {
		entries = append(entries, m)
	}
	assert.Equal(t, []hyper.Mid{
		{Key: "xyz:CL", Kind: hyper.KeyBuilderDex, Price: decimal.RequireFromString("60.123"), Dex: "xyz", Coin: "CL"},
		{Key: "xyz:GOLD", Kind: hyper.KeyBuilderDex, Price: decimal.RequireFromString("4210.25"), Dex: "xyz", Coin: "GOLD"},
	}, entries)
	assert.Equal(t, map[string]string{"xyz:CL": "60.123", "xyz:GOLD": "4210.25"}, hypertest.DefaultMids("xyz"))
	assert.Nil(t, hypertest.DefaultMids("nope"))

	_, err = c.AllMids(ctx, "nope")
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
}

// The setters: the SDK's types in, the same values (and scale) out.
func TestClientSetters(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	ctx := context.Background()
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	vault := common.HexToAddress("0xdfc24b077bc1425ad1dea75bcb6f8158e10df303")
	lock := time.Date(2030, 1, 2, 3, 4, 5, 678e6, time.UTC)
	set := []hyper.VaultEquity{
		{VaultAddress: vault, Equity: decimal.RequireFromString("100.50"), LockedUntil: lock},
		{VaultAddress: vault, Equity: decimal.RequireFromString("-0.0000000001")},
		{VaultAddress: vault, Equity: decimal.RequireFromString("12345678901234567890.1234567890")},
	}
	require.NoError(t, srv.SetVaultEquities(user, set))
	got, err := c.UserVaultEquities(ctx, user)
	require.NoError(t, err)
	require.Len(t, got, 3)
	for i := range set {
		assert.Equal(t, set[i].VaultAddress, got[i].VaultAddress)
		assertDecimal(t, set[i].Equity.StringFixed(-set[i].Equity.Exponent()), got[i].Equity)
		assert.Equal(t, set[i].LockedUntil, got[i].LockedUntil)
	}
	raw := postJSON(t, srv.URL+"/"+testKey+"/info", `{"type":"userVaultEquities","user":"0x00000000000000000000000000000000000000aa"}`)
	assert.Equal(t, `[{"vaultAddress":"0xdfc24b077bc1425ad1dea75bcb6f8158e10df303","equity":"100.50","lockedUntilTimestamp":1893553445678},`+
		`{"vaultAddress":"0xdfc24b077bc1425ad1dea75bcb6f8158e10df303","equity":"-0.0000000001"},`+
		`{"vaultAddress":"0xdfc24b077bc1425ad1dea75bcb6f8158e10df303","equity":"12345678901234567890.1234567890"}]`, raw.body)

	// Replacing the default user's data, and emptying it.
	require.NoError(t, srv.SetVaultEquities(hypertest.DefaultUser(), nil))
	got, err = c.UserVaultEquities(ctx, hypertest.DefaultUser())
	require.NoError(t, err)
	assert.Empty(t, got)

	// JSON as given, byte for byte: numbers, extra members; the user in
	// any case.
	body := `[{"vaultAddress":"0xdfc24b077bc1425ad1dea75bcb6f8158e10df303","equity":7.25,"lockedUntilTimestamp":"1700000000000","new":true}]`
	require.NoError(t, srv.SetInfo(map[string]string{"type": "userVaultEquities", "user": "0x00000000000000000000000000000000000000AA"}, []byte(body)))
	assert.Equal(t, body, postJSON(t, srv.Public.URL+"/info", `{"type":"userVaultEquities","user":"0x00000000000000000000000000000000000000aa"}`).body)
	got, err = c.UserVaultEquities(ctx, user)
	require.NoError(t, err)
	assertDecimal(t, "7.25", got[0].Equity)
	assert.Equal(t, time.UnixMilli(1700000000000).UTC(), got[0].LockedUntil)
	require.NoError(t, srv.SetInfo(map[string]string{"type": "userVaultEquities", "user": user.Hex()}, nil))
	assert.Equal(t, `[]`, postJSON(t, srv.URL+"/"+testKey+"/info", `{"type":"userVaultEquities","user":"0x00000000000000000000000000000000000000aa"}`).body)

	// Mids: prices exactly as given, keys in byte order, HTML characters raw.
	require.NoError(t, srv.SetMids("", map[string]string{"BTC": "100000.10", "@2": "1.0", "@10": "0.5", "A&B<C>": "3"}))
	assert.Equal(t, `{"@10":"0.5","@2":"1.0","A&B<C>":"3","BTC":"100000.10"}`, postJSON(t, srv.Public.URL+"/info", `{"type":"allMids"}`).body)
	mids, err := c.AllMids(ctx, "")
	require.NoError(t, err)
	pMid, _ := mids.Get("BTC")
	p := pMid.Price
	assertDecimal(t, "100000.10", p)

	// A new builder dex becomes known; nil forgets it; "" stays known ({}).
	require.NoError(t, srv.SetMids("flx", map[string]string{"flx:TSLA": "250"}))
	flx, err := c.AllMids(ctx, "flx")
	require.NoError(t, err)
	assert.Equal(t, 1, countKind(flx, hyper.KeyBuilderDex))
	require.NoError(t, srv.SetMids("flx", nil))
	_, err = c.AllMids(ctx, "flx")
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
	require.NoError(t, srv.SetMids("", nil))
	assert.Equal(t, `{}`, postJSON(t, srv.Public.URL+"/info", `{"type":"allMids"}`).body)

	require.NoError(t, srv.SetInfo(map[string]string{"type": "allMids", "dex": "xyz"}, []byte(`{"xyz:CL":60.5}`)))
	assert.Equal(t, `{"xyz:CL":60.5}`, postJSON(t, srv.Public.URL+"/info", `{"type":"allMids","dex":"xyz"}`).body)
	require.NoError(t, srv.SetInfo(json.RawMessage(`{"dex":"xyz","type":"allMids","x":1}`), nil))
	assert.Equal(t, `null`, postJSON(t, srv.Public.URL+"/info", `{"type":"allMids","dex":"xyz"}`).body)
}

func TestSetterErrors(t *testing.T) {
	srv := start(t)
	user := common.HexToAddress("0xaa")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{srv.SetVaultEquities(user, []hyper.VaultEquity{{Equity: decimal.New(1, -101)}}), "hypertest: SetVaultEquities: vault equity 0: equity exponent -101 is out of the range clients read (±100)"},
		{srv.SetVaultEquities(user, []hyper.VaultEquity{{Equity: decimal.New(1, 0)}, {Equity: decimal.New(1, 0), LockedUntil: time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC)}}),
			"hypertest: SetVaultEquities: vault equity 1: LockedUntil 1969-01-01 00:00:00 +0000 UTC is not after 1970-01-01 (the wire carries Unix milliseconds)"},
		{srv.SetInfo(map[string]string{"type": "userVaultEquities", "user": user.Hex()}, []byte(`[{`)), "hypertest: SetInfo: the body is not valid JSON"},
		{srv.SetInfo(map[string]string{"type": "userVaultEquities", "user": "0xaa"}, []byte(`[]`)), `hypertest: SetInfo: userVaultEquities: "user" is not "0x" and 40 hex digits`},
		{srv.SetInfo(map[string]string{"user": "0xaa"}, []byte(`[]`)), `hypertest: SetInfo: the request's "type" is not a non-empty string`},
		{srv.SetInfo("meta", []byte(`[]`)), `hypertest: SetInfo: the request is not a JSON object with a "type"`},
		{srv.SetInfo(make(chan int), []byte(`[]`)), `hypertest: SetInfo: the request does not marshal: json: unsupported type: chan int`},
		{srv.SetInfo(map[string]string{"type": "meta"}, []byte(`{`)), "hypertest: SetInfo: the body is not valid JSON"},
		{srv.SetMids("", map[string]string{"BTC": "-1"}), `hypertest: SetMids: price of "BTC" is "-1": want digits with an optional fraction, such as "89926.5"`},
		{srv.SetMids("", map[string]string{"BTC": "1e5"}), `hypertest: SetMids: price of "BTC" is "1e5": want digits with an optional fraction, such as "89926.5"`},
		{srv.SetMids("", map[string]string{"BTC": "1."}), `hypertest: SetMids: price of "BTC" is "1.": want digits with an optional fraction, such as "89926.5"`},
		{srv.SetMids("", map[string]string{"BTC": ""}), `hypertest: SetMids: price of "BTC" is "": want digits with an optional fraction, such as "89926.5"`},
		{srv.SetMids("x y", map[string]string{}), `hypertest: SetMids: dex name "x y": want ASCII letters, digits, '-' or '_'`},
		{srv.SetMids(strings.Repeat("a", 33), nil), `hypertest: SetMids: dex name of 33 bytes is longer than 32`},
		{srv.SetInfo(map[string]string{"type": "allMids", "dex": "xyz"}, []byte(`{`)), `hypertest: SetInfo: the body is not valid JSON`},
		{srv.SetInfo(map[string]string{"type": "allMids", "dex": "a/b"}, []byte(`{}`)), `hypertest: SetInfo: dex name "a/b": want ASCII letters, digits, '-' or '_'`},
	} {
		assert.EqualError(t, tc.err, tc.want)
	}
	// Nothing changed.
	assert.Equal(t, `[]`, postJSON(t, srv.URL+"/"+testKey+"/info", `{"type":"userVaultEquities","user":"0x00000000000000000000000000000000000000aa"}`).body)
	assert.Equal(t, xyzBody, postJSON(t, srv.Public.URL+"/info", `{"type":"allMids","dex":"xyz"}`).body)
	assert.Equal(t, `{"#10":"0.735","#11":"0.265","#20":"0.5125","#21":"0.4875",`+readData(t, "allMids_2025-12_filtered.json")[1:], postJSON(t, srv.Public.URL+"/info", `{"type":"allMids"}`).body)
}

func TestOptions(t *testing.T) {
	user := common.HexToAddress("0xbb")
	srv := start(t, hypertest.WithoutDefaults())
	require.NoError(t, srv.SetVaultEquities(user, []hyper.VaultEquity{{VaultAddress: common.HexToAddress("0xcc"), Equity: decimal.RequireFromString("1.10")}}))
	require.NoError(t, srv.SetMids("", map[string]string{"ETH": "3000.0"}))
	require.NoError(t, srv.SetMids("km", map[string]string{"km:US500": "6000"}))
	assert.Equal(t, testKey, srv.Key())
	c := client(t, srv)
	ctx := context.Background()

	none, err := c.UserVaultEquities(ctx, hypertest.DefaultUser())
	require.NoError(t, err)
	assert.Empty(t, none)
	got, err := c.UserVaultEquities(ctx, user)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assertDecimal(t, "1.10", got[0].Equity)
	assert.True(t, got[0].LockedUntil.IsZero())

	mids, err := c.AllMids(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, 1, mids.Len())
	km, err := c.AllMids(ctx, "km")
	require.NoError(t, err)
	assert.Equal(t, 1, km.Len())
	_, err = c.AllMids(ctx, hypertest.BuilderDex)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)

	// A random key by default: 32 hex characters, different each time.
	a, err := hypertest.New()
	require.NoError(t, err)
	defer a.Close()
	b, err := hypertest.New()
	require.NoError(t, err)
	defer b.Close()
	assert.Regexp(t, `^[0-9a-f]{32}$`, a.Key())
	assert.NotEqual(t, a.Key(), b.Key())
	assert.NotEqual(t, a.URL, a.Public.URL)
	assert.Regexp(t, `^http://127\.0\.0\.1:[0-9]+$`, a.URL)
	assert.Regexp(t, `^http://127\.0\.0\.1:[0-9]+$`, a.Public.URL)

	for _, tc := range []struct {
		opt  hypertest.Option
		want string
	}{
		{hypertest.WithKey(""), "hypertest: WithKey: the key is empty"},
		{hypertest.WithKey("a/b"), "hypertest: nodeaccesstest: the access key may hold only ASCII letters, digits and ._~- (byte 1 is '/')"},
	} {
		srv, err := hypertest.New(tc.opt)
		assert.Nil(t, srv)
		assert.EqualError(t, err, tc.want)
	}
	// zero options are skipped.
	n, err := hypertest.New(hypertest.Option{})
	require.NoError(t, err)
	n.Close()
}

// Setters and calls from many goroutines at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range 10 {
				eq := decimal.New(int64(i*100+j), -2)
				if err := srv.SetVaultEquities(hypertest.DefaultUser(), []hyper.VaultEquity{{VaultAddress: common.HexToAddress("0x01"), Equity: eq}}); err != nil {
					errs <- err
				}
				if err := srv.SetMids("", map[string]string{"BTC": fmt.Sprintf("%d.5", i*100+j)}); err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 10 {
				if v, err := c.UserVaultEquities(ctx, hypertest.DefaultUser()); err != nil || len(v) == 0 {
					errs <- errors.Join(err, errors.New("no vaults"))
				}
				if m, err := c.AllMids(ctx, ""); err != nil || m.Len() == 0 {
					errs <- errors.Join(err, errors.New("no mids"))
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// SetInfo serves the requests a test sends with hyper's generic call: on
// the node and the public API, matched as the server reads them (members
// in any order), byte for byte, until taken back.
func TestClientSetInfo(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	ctx := context.Background()
	type metaReq struct {
		Type string `json:"type"`
		Dex  string `json:"dex,omitempty"`
	}
	const meta = `{"universe":[{"name":"BTC","szDecimals":5},{"name":"ETH","szDecimals":4}]}`
	const xyzMeta = `{"universe":[{"name":"xyz:CL","szDecimals":2}]}`
	require.NoError(t, srv.SetInfo(metaReq{Type: "meta"}, []byte(meta)))
	require.NoError(t, srv.SetInfo(json.RawMessage(`{"dex":"xyz","type":"meta"}`), []byte(xyzMeta)))

	var got json.RawMessage
	require.NoError(t, c.PublicInfo(ctx, &got, map[string]string{"type": "meta"}))
	assert.Equal(t, meta, string(got))
	require.NoError(t, c.Info(ctx, &got, metaReq{Type: "meta"}), "the node serves it too")
	assert.Equal(t, meta, string(got))
	var typed struct{ Universe []struct{ Name string } }
	require.NoError(t, c.PublicInfo(ctx, &typed, metaReq{Type: "meta", Dex: "xyz"}))
	assert.Equal(t, "xyz:CL", typed.Universe[0].Name)
	assert.Equal(t, xyzMeta, postJSON(t, srv.Public.URL+"/info", ` { "type" : "meta", "dex" : "xyz" } `).body)

	// Another request of the type, or a type not set: Hyperliquid's 422.
	err := c.PublicInfo(ctx, &got, metaReq{Type: "meta", Dex: "flx"})
	assert.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
	err = c.Info(ctx, &got, map[string]string{"type": "l2Book", "coin": "BTC"})
	assert.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
	// meta matches by its dex alone: "", null and absent are one request.
	require.NoError(t, c.PublicInfo(ctx, &got, map[string]any{"type": "meta", "dex": nil, "x": 1}))
	assert.Equal(t, meta, string(got))
	require.NoError(t, c.PublicInfo(ctx, &got, map[string]any{"type": "meta", "dex": ""}))
	assert.Equal(t, meta, string(got))

	// allMids set this way stays the public API's alone.
	require.NoError(t, srv.SetInfo(map[string]any{"type": "allMids", "dex": nil}, []byte(`{"BTC":1}`)))
	var mids map[string]json.Number
	require.NoError(t, c.PublicInfo(ctx, &mids, map[string]string{"type": "allMids"}))
	assert.Equal(t, map[string]json.Number{"BTC": "1"}, mids)
	err = c.Info(ctx, &mids, map[string]string{"type": "allMids"})
	assert.ErrorIs(t, err, hyper.ErrUnsupportedRequest)

	// Taken back.
	require.NoError(t, srv.SetInfo(map[string]string{"type": "meta"}, nil))
	err = c.PublicInfo(ctx, &got, map[string]string{"type": "meta"})
	assert.ErrorIs(t, err, hyper.ErrUnsupportedRequest)
	require.NoError(t, c.PublicInfo(ctx, &got, metaReq{Type: "meta", Dex: "xyz"}))
}

// countKind is the number of mids of kind k.
func countKind(m *hyper.Mids, k hyper.KeyKind) int {
	n := 0
	for _, e := range m.All() {
		if e.Kind == k {
			n++
		}
	}
	return n
}
