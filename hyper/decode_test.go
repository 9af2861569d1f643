package hyper

import (
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const vault = `"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689d"`

func TestDecodeVaultEquitiesForms(t *testing.T) {
	ms := time.UnixMilli(1737697731869).UTC()
	cases := []struct {
		name, body string
		equity     string
		locked     time.Time
	}{
		{"strings", `[{` + vault + `,"equity":"688536.0314879999","lockedUntilTimestamp":"1737697731869"}]`, "688536.0314879999", ms},
		{"numbers", `[{` + vault + `,"equity":688536.0314879999,"lockedUntilTimestamp":1737697731869}]`, "688536.0314879999", ms},
		{"no timestamp", `[{` + vault + `,"equity":"100.003834"}]`, "100.003834", time.Time{}},
		{"null timestamp", `[{` + vault + `,"equity":"1","lockedUntilTimestamp":null}]`, "1", time.Time{}},
		{"zero timestamp", `[{` + vault + `,"equity":"1","lockedUntilTimestamp":0}]`, "1", time.Time{}},
		{"unknown members", `[{"extra":{"a":[1]},` + vault + `,"equity":"0.0000000001","allTimePnl":"3"}]`, "0.0000000001", time.Time{}},
		{"exponent", `[{` + vault + `,"equity":1.5e-7}]`, "0.00000015", time.Time{}},
		{"negative equity kept", `[{` + vault + `,"equity":"-2.5"}]`, "-2.5", time.Time{}},
		{"upper-case address", `[{"vaultAddress":"0x07FD993F0FA3A185F7207ADCCD29F7A87404689D","equity":"1"}]`, "1", time.Time{}},
		{"escaped string", `[{` + vault + `,"equity":"\u0031.5"}]`, "1.5", time.Time{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeVaultEquities([]byte(tc.body))
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d"), got[0].VaultAddress)
			assert.True(t, got[0].Equity.Equal(decimal.RequireFromString(tc.equity)), "%s", got[0].Equity)
			assert.Equal(t, tc.locked, got[0].LockedUntil)
			assert.False(t, time.Unix(0, 0).Before(got[0].LockedUntil) && tc.locked.IsZero())
		})
	}
	got, err := decodeVaultEquities([]byte(" [ ] \n"))
	require.NoError(t, err)
	assert.NotNil(t, got)
	assert.Empty(t, got)
}

func TestDecodeVaultEquitiesRejects(t *testing.T) {
	cases := map[string]string{
		`null`:                                 "want a JSON array, got null",
		`{}`:                                   "want a JSON array, got an object",
		`"[]"`:                                 "want a JSON array, got a string",
		`[1]`:                                  "cannot unmarshal number",
		`[{"equity":"1"}]`:                     "vault equity 0 has no vaultAddress",
		`[{"vaultAddress":null,"equity":"1"}]`: "vault equity 0 has no vaultAddress",
		`[{"vaultAddress":"0x07fd993f0fa3a185f7207adccd29f7a87404689","equity":"1"}]`:  `vaultAddress "0x07fd993f0fa3a185f7207adccd29f7a87404689" is not a 42-character hex address`,
		`[{"vaultAddress":"07fd993f0fa3a185f7207adccd29f7a87404689d00","equity":"1"}]`: "is not a 42-character hex address",
		`[{"vaultAddress":12,"equity":"1"}]`:                                           "vaultAddress 12 is not",
		`[{` + vault + `}]`:                                                            "vault equity 0 has no equity",
		`[{` + vault + `,"equity":null}]`:                                              "vault equity 0 has no equity",
		`[{` + vault + `,"equity":""}]`:                                                `equity: "" is not a decimal number`,
		`[{` + vault + `,"equity":"1,5"}]`:                                             `equity: "1,5" is not a decimal number`,
		`[{` + vault + `,"equity":"+1"}]`:                                              `"+1" is not a decimal number`,
		`[{` + vault + `,"equity":".5"}]`:                                              `".5" is not a decimal number`,
		`[{` + vault + `,"equity":"1."}]`:                                              `"1." is not a decimal number`,
		`[{` + vault + `,"equity":"Infinity"}]`:                                        `"Infinity" is not a decimal number`,
		`[{` + vault + `,"equity":" 1"}]`:                                              `" 1" is not a decimal number`,
		`[{` + vault + `,"equity":"1e999999"}]`:                                        `"1e999999" is out of range`,
		`[{` + vault + `,"equity":"1e-101"}]`:                                          `"1e-101" is out of range (exponent -101)`,
		`[{` + vault + `,"equity":true}]`:                                              "equity: want a decimal number, got a boolean",
		`[{` + vault + `,"equity":{"v":1}}]`:                                           "equity: want a decimal number, got an object",
		`[{` + vault + `,"equity":"1"},{` + vault + `,"equity":"x"}]`:                  `vault equity 1: equity: "x" is not a decimal number`,
	}
	for body, want := range cases {
		_, err := decodeVaultEquities([]byte(body))
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want, body)
	}
	// lockedUntilTimestamp is secondary: one that cannot be read is named
	// in Unread, and the equity beside it is kept.
	for _, odd := range []string{`-1`, `1.5`, `"x"`, `"+5"`, `1e3`, `{}`, `[1]`, `true`} {
		body := `[{` + vault + `,"equity":"1","lockedUntilTimestamp":` + odd + `}]`
		got, err := decodeVaultEquities([]byte(body))
		require.NoError(t, err, body)
		assert.Equal(t, []string{"lockedUntilTimestamp"}, got[0].Unread, body)
		assert.True(t, got[0].LockedUntil.IsZero(), body)
		assert.Equal(t, "1", got[0].Equity.String(), body)
	}
}

func TestDecodeMidsForms(t *testing.T) {
	mids, err := decodeMids("", []byte(`{"BTC":30135.5,"ETH":"1903.95","@0":"0.1","ZERO":"0","xyz:CL":"60","A/B":"2"}`))
	require.NoError(t, err)
	assert.Equal(t, 6, mids.Len())
	var keys []string
	for k := range mids.All() {
		keys = append(keys, k)
	}
	assert.Equal(t, []string{"@0", "A/B", "BTC", "ETH", "ZERO", "xyz:CL"}, keys)
	pMid, _ := mids.Get("BTC")
	p := pMid.Price
	assert.Equal(t, "30135.5", p.String())
	m, ok := mids.Get("@0")
	require.True(t, ok)
	assert.Equal(t, Mid{Key: "@0", Kind: KeySpotIndex, Price: m.Price, Index: 0}, m)
	assert.Equal(t, []int{0, 3, 1, 1, 1}, []int{countKind(mids, KeyUnknown), countKind(mids, KeyPerp), countKind(mids, KeySpotPair), countKind(mids, KeySpotIndex), countKind(mids, KeyBuilderDex)})
	assert.Zero(t, countKind(mids, KeyKind(200)))

	empty, err := decodeMids("xyz", []byte(" {} "))
	require.NoError(t, err)
	assert.Zero(t, empty.Len())
	assert.Equal(t, "xyz", empty.dex)
	_, ok = empty.Get("BTC")
	assert.False(t, ok)
	_, ok = empty.Get("BTC")
	assert.False(t, ok)
	_, ok = empty.Get("@1")
	assert.False(t, ok)

	// Keys of forms the SDK does not know decode and stay visible.
	odd, err := decodeMids("", []byte(`{"@x":"1","a:b:c":"2","":"3"}`))
	require.NoError(t, err)
	assert.Equal(t, 3, countKind(odd, KeyUnknown))
	m, ok = odd.Get("a:b:c")
	require.True(t, ok)
	assert.Equal(t, KeyUnknown, m.Kind)
	assert.Equal(t, "2", m.Price.String())
}

func TestDecodeMidsRejects(t *testing.T) {
	cases := map[string]string{
		`null`:                  "want a JSON object, got null",
		`[]`:                    "want a JSON object, got an array",
		`"x"`:                   "want a JSON object, got a string",
		`{"BTC":"1","BTC":"2"}`: `key "BTC" appears twice`,
		`{"BTC":null}`:          `price of "BTC": want a decimal number, got null`,
		`{"BTC":"-1"}`:          `price of "BTC" is negative`,
		`{"BTC":"abc"}`:         `price of "BTC": "abc" is not a decimal number`,
		`{"BTC":["1"]}`:         `price of "BTC": want a decimal number, got an array`,
		`{"BTC":"1"} {}`:        "data after the object",
		`{"BTC":"1"`:            "allMids:",
		`{"BTC" "1"}`:           "allMids:",
		`{"BTC":"1",}`:          "allMids:",
		`{1:"1"}`:               "allMids:",
		`{"BTC":"1e1000"}`:      `price of "BTC": "1e1000" is out of range`,
	}
	for body, want := range cases {
		_, err := decodeMids("", []byte(body))
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want, body)
	}
}

func TestClassify(t *testing.T) {
	cases := []Mid{
		{Key: "BTC", Kind: KeyPerp, Coin: "BTC"},
		{Key: "kPEPE", Kind: KeyPerp, Coin: "kPEPE"},
		{Key: "0G", Kind: KeyPerp, Coin: "0G"},
		{Key: "PURR/USDC", Kind: KeySpotPair, Coin: "PURR/USDC"},
		{Key: "@0", Kind: KeySpotIndex},
		{Key: "@107", Kind: KeySpotIndex, Index: 107},
		{Key: "@2147483647", Kind: KeySpotIndex, Index: 2147483647},
		{Key: "xyz:CL", Kind: KeyBuilderDex, Dex: "xyz", Coin: "CL"},
		{Key: "flx:XYZ100", Kind: KeyBuilderDex, Dex: "flx", Coin: "XYZ100"},
		{Key: ""}, {Key: "@"}, {Key: "@01"}, {Key: "@-1"}, {Key: "@+1"}, {Key: "@1.5"}, {Key: "@2147483648"},
		{Key: "@99999999999"}, {Key: "@PURR"}, {Key: ":CL"}, {Key: "xyz:"}, {Key: "a:b:c"}, {Key: "a:b/c"},
		{Key: "a/b:c"}, {Key: "@1:X"}, {Key: "/USDC"}, {Key: "PURR/"}, {Key: "A/B/C"}, {Key: "A@B"}, {Key: "A/@1"},
	}
	for _, want := range cases {
		assert.Equal(t, want, classify(want.Key), "%q", want.Key)
	}
}

func TestKeyKind(t *testing.T) {
	assert.Equal(t, []string{"unknown", "perp", "spot pair", "spot index", "builder dex", "kind(9)"},
		[]string{KeyUnknown.String(), KeyPerp.String(), KeySpotPair.String(), KeySpotIndex.String(), KeyBuilderDex.String(), KeyKind(9).String()})
	assert.Equal(t, "outcome", KeyKind(5).String(), "KeyOutcome")
}

func TestMidsIteration(t *testing.T) {
	mids, err := decodeMids("", []byte(`{"C":"3","A":"1","B":"2","@2":"5","@10":"4"}`))
	require.NoError(t, err)
	var keys []string
	for k := range mids.All() {
		keys = append(keys, k)
		if k == "A" {
			break
		}
	}
	assert.Equal(t, []string{"@10", "@2", "A"}, keys, "byte order, and break stops the iteration")
	var perps []string
	for _, m := range mids.All() {
		if m.Kind != KeyPerp {
			continue
		}
		perps = append(perps, m.Key)
		if m.Key == "B" {
			break
		}
	}
	assert.Equal(t, []string{"A", "B"}, perps)

	m, ok := mids.Get("@10")
	require.True(t, ok)
	assert.Equal(t, Mid{Key: "@10", Kind: KeySpotIndex, Price: m.Price, Index: 10}, m)
	assert.Equal(t, "4", m.Price.String())
}

func TestCheckDex(t *testing.T) {
	for _, ok := range []string{"", "xyz", "flx", "XYZ", "a-b_c", "abcdefghijklmnopqrstuvwxyz012345"} {
		assert.NoError(t, checkDex(ok), ok)
	}
}

// countKind is the number of mids of kind k.
func countKind(m *Mids, k KeyKind) int {
	n := 0
	for _, e := range m.All() {
		if e.Kind == k {
			n++
		}
	}
	return n
}
