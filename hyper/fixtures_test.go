package hyper

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return b
}

// decimals returns the number of digits after the point in a decimal text.
func decimals(s string) int32 {
	if _, frac, ok := strings.Cut(s, "."); ok {
		return int32(len(frac))
	}
	return 0
}

// assertExact checks that d is the number written as text, digit for digit.
func assertExact(t *testing.T, text string, d decimal.Decimal, what string) {
	t.Helper()
	assert.True(t, d.Equal(decimal.RequireFromString(text)), "%s: %s != %s", what, d, text)
	assert.Equal(t, text, d.StringFixed(decimals(text)), what)
	assert.Equal(t, -decimals(text), d.Exponent(), "%s: the scale the server wrote is kept", what)
}

func TestRecordedVaultEquities(t *testing.T) {
	body := readFixture(t, "userVaultEquities_2025-08.json")
	got, err := decodeVaultEquities(body)
	require.NoError(t, err)

	// Every entry against the text of the file, read independently.
	re := regexp.MustCompile(`\{"vaultAddress":"(0x[0-9a-f]{40})","equity":"([0-9.]+)","lockedUntilTimestamp":([0-9]+)\}`)
	raw := re.FindAllStringSubmatch(string(body), -1)
	require.Len(t, raw, 2)
	require.Len(t, got, len(raw))
	for i, m := range raw {
		assert.Equal(t, common.HexToAddress(m[1]), got[i].VaultAddress, "entry %d", i)
		assertExact(t, m[2], got[i].Equity, "equity")
		var ms int64
		require.NoError(t, json.Unmarshal([]byte(m[3]), &ms))
		assert.Equal(t, ms, got[i].LockedUntil.UnixMilli())
		assert.Equal(t, time.UTC, got[i].LockedUntil.Location())
	}

	// And the values spelled out.
	want := []VaultEquity{
		{common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d"), decimal.RequireFromString("688536.0314879999"),
			time.Date(2025, 1, 24, 5, 48, 51, 869_000_000, time.UTC), nil},
		{common.HexToAddress("0x7f6ce756bdee0db22a8fbda15aa48023aae5a8be"), decimal.RequireFromString("100.003834"),
			time.Date(2025, 6, 13, 23, 27, 19, 300_000_000, time.UTC), nil},
	}
	for i := range want {
		assert.Equal(t, want[i].VaultAddress, got[i].VaultAddress)
		assert.True(t, want[i].Equity.Equal(got[i].Equity))
		assert.Equal(t, "688536.0314879999", got[0].Equity.String())
		assert.True(t, want[i].LockedUntil.Equal(got[i].LockedUntil), "%s", got[i].LockedUntil)
	}
	// The recording is from 2025-08-22: both lock-ups had ended by then.
	recorded := time.Date(2025, 8, 22, 0, 0, 0, 0, time.UTC)
	assert.False(t, recorded.Before(got[0].LockedUntil))
	assert.False(t, recorded.Before(got[1].LockedUntil))
	assert.True(t, time.Date(2025, 6, 13, 23, 27, 19, 299_000_000, time.UTC).Before(got[1].LockedUntil))
}

// midsFile is a recorded allMids body with what the test knows of it.
type midsFile struct {
	name   string
	counts map[KeyKind]int
	sample map[string]string
}

var recordedMids = []midsFile{
	{"allMids_2023-07.json",
		map[KeyKind]int{KeyPerp: 28},
		map[string]string{"BTC": "30135.0", "ETH": "1903.95", "kPEPE": "0.001565", "APE": "1.96595", "CFX": "0.186535", "DOGE": "0.069277"}},
	{"allMids_2025-12.json",
		// 482 keys: 223 perps, 1 named spot pair, 258 spot index keys
		// (@1..@258), no builder-dex keys (this body is the first dex's).
		map[KeyKind]int{KeyPerp: 223, KeySpotPair: 1, KeySpotIndex: 258},
		map[string]string{"BTC": "89926.5", "ETH": "3102.75", "HYPE": "28.7295", "kPEPE": "0.004376", "kSHIB": "0.008298",
			"0G": "0.898545", "2Z": "0.12065", "PURR/USDC": "0.0664375", "@1": "21.522", "@10": "0.00003066",
			"@107": "28.718", "@142": "89976.5", "@149": "1.0", "@173": "1962800.5"}},
}

func TestRecordedMids(t *testing.T) {
	for _, f := range recordedMids {
		t.Run(f.name, func(t *testing.T) {
			body := readFixture(t, f.name)
			mids, err := decodeMids("", body)
			require.NoError(t, err)

			// The file read independently, as a plain map of strings.
			var plain map[string]string
			require.NoError(t, json.Unmarshal(body, &plain))
			require.Equal(t, len(plain), mids.Len())
			total := 0
			for _, k := range []KeyKind{KeyUnknown, KeyPerp, KeySpotPair, KeySpotIndex, KeyBuilderDex, KeyOutcome} {
				assert.Equal(t, f.counts[k], countKind(mids, k), "count of %s", k)
				total += f.counts[k]
			}
			assert.Equal(t, mids.Len(), total)

			// Every price, exactly as the file writes it.
			for k, text := range plain {
				m, ok := mids.Get(k)
				require.True(t, ok, k)
				assertExact(t, text, m.Price, k)
			}
			// The sample, spelled out.
			for k, text := range f.sample {
				pMid, ok := mids.Get(k)
				p := pMid.Price
				require.True(t, ok, k)
				assert.Equal(t, text, p.StringFixed(decimals(text)), k)
				assert.Equal(t, plain[k], text, "the sample agrees with the file")
			}

			// Deterministic order: the keys sorted.
			keys := make([]string, 0, len(plain))
			for k := range plain {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			var order []string
			for k, m := range mids.All() {
				assert.Equal(t, k, m.Key)
				order = append(order, k)
			}
			assert.Equal(t, keys, order)
		})
	}
}

func TestRecordedMidsKeyForms(t *testing.T) {
	mids, err := decodeMids("", readFixture(t, "allMids_2025-12.json"))
	require.NoError(t, err)
	for n := 1; n <= 258; n++ {
		m, ok := mids.Get("@" + strconv.Itoa(n))
		require.True(t, ok, "@%d", n)
		assert.Equal(t, KeySpotIndex, m.Kind)
		assert.Equal(t, n, m.Index)
		assert.Empty(t, m.Coin)
	}
	_, ok := mids.Get("@0") // index 0 is PURR/USDC, sent by its name
	assert.False(t, ok)
	_, ok = mids.Get("@259")
	assert.False(t, ok)
	m, ok := mids.Get("@107")
	require.True(t, ok)
	assert.Equal(t, Mid{Key: "@107", Kind: KeySpotIndex, Price: m.Price, Index: 107}, m)
	assert.Equal(t, "28.718", m.Price.String())

	purr, ok := mids.Get("PURR/USDC")
	require.True(t, ok)
	assert.Equal(t, KeySpotPair, purr.Kind)
	assert.Equal(t, "PURR/USDC", purr.Coin)
	assert.Zero(t, purr.Index)

	btc, ok := mids.Get("BTC")
	require.True(t, ok)
	assert.Equal(t, Mid{Key: "BTC", Kind: KeyPerp, Price: btc.Price, Coin: "BTC"}, btc)

	var perps []string
	for _, m := range mids.All() {
		if m.Kind != KeyPerp {
			continue
		}
		perps = append(perps, m.Key)
	}
	assert.Len(t, perps, 223)
	assert.Equal(t, []string{"0G", "2Z", "AAVE"}, perps[:3])
	assert.Equal(t, "kSHIB", perps[len(perps)-1])
}
