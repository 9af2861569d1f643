package hyper

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var decimalOne = decimal.NewFromInt(1)

// HIP-4 outcome sides come in allMids as "#N", N = 10*outcome + side
// (Hyperliquid's API docs, "Asset IDs": "#10 = outcome 1, side 0").
func TestClassifyOutcome(t *testing.T) {
	cases := []Mid{
		{Key: "#10", Kind: KeyOutcome, Index: 10},
		{Key: "#11", Kind: KeyOutcome, Index: 11},
		{Key: "#20", Kind: KeyOutcome, Index: 20},
		{Key: "#21", Kind: KeyOutcome, Index: 21},
		{Key: "#0", Kind: KeyOutcome},
		{Key: "#5161", Kind: KeyOutcome, Index: 5161},
		{Key: "#14880", Kind: KeyOutcome, Index: 14880},
		{Key: "#2147483647", Kind: KeyOutcome, Index: 2147483647},
		// Not an outcome key, and not a perp either.
		{Key: "#"}, {Key: "#01"}, {Key: "#-1"}, {Key: "#+1"}, {Key: "#1.5"}, {Key: "#2147483648"},
		{Key: "#YES"}, {Key: "#1:X"}, {Key: "#1/USDC"}, {Key: "+10"}, {Key: "$BTC"}, {Key: " BTC"},
	}
	for _, want := range cases {
		assert.Equal(t, want, classify(want.Key), "%q", want.Key)
	}
}

// The class: a key that starts with a character a perp symbol does not
// start with (every byte that is not an ASCII letter or digit) is never
// taken for a perp, whatever follows; it is one of the marked forms or
// KeyUnknown.
func TestClassifyMarkedKeysAreNeverPerps(t *testing.T) {
	for b := 0; b < 256; b++ {
		c := byte(b)
		if isAlnum(c) {
			continue
		}
		for _, rest := range []string{"", "10", "21", "BTC", "kPEPE", "0G"} {
			key := string([]byte{c}) + rest
			m := classify(key)
			assert.NotEqual(t, KeyPerp, m.Kind, "%q", key)
			switch c {
			case '@':
				if rest == "10" || rest == "21" {
					assert.Equal(t, KeySpotIndex, m.Kind, "%q", key)
				}
			case '#':
				if rest == "10" || rest == "21" {
					assert.Equal(t, KeyOutcome, m.Kind, "%q", key)
				}
			}
		}
	}
}

func TestMidOutcome(t *testing.T) {
	for key, want := range map[string][2]int{"#20": {2, 0}, "#21": {2, 1}, "#10": {1, 0}, "#0": {0, 0}, "#1": {0, 1}, "#5161": {516, 1}, "#14880": {1488, 0}, "#37": {3, 7}} {
		m := classify(key)
		require.Equal(t, KeyOutcome, m.Kind, key)
		assert.Equal(t, want, [2]int{m.Index / 10, m.Index % 10}, key)
	}
	for _, key := range []string{"BTC", "@20", "xyz:CL", "PURR/USDC", "#x", ""} {
		assert.NotEqual(t, KeyOutcome, classify(key).Kind, key)
	}
}

// A hand-written body of the documented shape (testdata/SOURCES.md): the
// outcome sides are counted, iterated and looked up as outcomes, and never
// handed out as perps.
func TestHandWrittenHIP4Mids(t *testing.T) {
	body := readFixture(t, "allMids_hip4_handwritten.json")
	mids, err := decodeMids("", body)
	require.NoError(t, err)
	var plain map[string]string
	require.NoError(t, json.Unmarshal(body, &plain))
	require.Equal(t, len(plain), mids.Len())

	assert.Equal(t, map[KeyKind]int{KeyPerp: 4, KeySpotPair: 1, KeySpotIndex: 1, KeyOutcome: 4},
		map[KeyKind]int{KeyPerp: countKind(mids, KeyPerp), KeySpotPair: countKind(mids, KeySpotPair), KeySpotIndex: countKind(mids, KeySpotIndex), KeyOutcome: countKind(mids, KeyOutcome)})
	assert.Zero(t, countKind(mids, KeyUnknown))
	assert.Zero(t, countKind(mids, KeyBuilderDex))

	var perps, outcomes []string
	for _, m := range mids.All() {
		if m.Kind != KeyPerp {
			continue
		}
		perps = append(perps, m.Key)
		assert.False(t, strings.HasPrefix(m.Key, "#"), "an outcome side handed out as a perp: %q", m.Key)
	}
	assert.Equal(t, []string{"BTC", "ETH", "HYPE", "kPEPE"}, perps)
	for _, m := range mids.All() {
		if m.Kind != KeyOutcome {
			continue
		}
		outcomes = append(outcomes, m.Key)
		assertExact(t, plain[m.Key], m.Price, m.Key)
		assert.True(t, m.Price.IsPositive() && m.Price.LessThan(decimalOne), "%s priced %s", m.Key, m.Price)
	}
	assert.Equal(t, []string{"#10", "#11", "#20", "#21"}, outcomes)

	yes, ok := mids.Get("#20")
	require.True(t, ok)
	assert.Equal(t, Mid{Key: "#20", Kind: KeyOutcome, Price: yes.Price, Index: 20}, yes)
	assert.Equal(t, "0.5125", yes.Price.String())
	no, ok := mids.Get("#21")
	require.True(t, ok)
	assert.Equal(t, "#21", no.Key)
	assert.True(t, yes.Price.Add(no.Price).Equal(decimalOne), "the two sides of outcome 2 add up to 1")
	assert.Equal(t, []any{KeyOutcome, 21}, []any{no.Kind, no.Index})

	// Every key lands in one kind, and the counts add up.
	total := 0
	for k := KeyUnknown; k <= KeyOutcome; k++ {
		total += countKind(mids, k)
	}
	assert.Equal(t, mids.Len(), total)
	assert.Equal(t, "outcome", KeyOutcome.String())
	assert.Equal(t, "kind("+strconv.Itoa(int(KeyOutcome)+1)+")", (KeyOutcome + 1).String())
}
