package hyper

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// The decoding policy (docs/options-and-errors.md) for the metadata and
// vault equities: a load-bearing member (an index, a name keys use, a
// number of decimals, an address, an amount) that cannot be read refuses
// the answer, naming the item; a secondary one is named in the item's
// Unread, its field left as when not sent; an enumeration (marginMode) is
// kept as sent.

type hyperPolicy struct {
	wire                          any
	loadBearing, secondary, enums []string
}

var hyperPolicies = map[string]hyperPolicy{
	"pair":    {wireSpotPair{}, []string{"tokens", "name", "index"}, []string{"isCanonical"}, nil},
	"token":   {wireToken{}, []string{"name", "szDecimals", "weiDecimals", "index", "evmContract"}, []string{"tokenId", "isCanonical", "fullName", "deployerTradingFeeShare"}, nil},
	"perp":    {wirePerp{}, []string{"name", "szDecimals"}, []string{"maxLeverage", "marginTableId", "onlyIsolated", "isDelisted"}, []string{"marginMode"}},
	"outcome": {wireOutcome{}, []string{"outcome", "name", "sideSpecs"}, []string{"description", "quoteToken"}, nil},
}

func TestHyperDecodePolicyCoversEveryMember(t *testing.T) {
	for name, p := range hyperPolicies {
		typ := reflect.TypeOf(p.wire)
		var tags []string
		for i := range typ.NumField() {
			tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			tags = append(tags, tag)
		}
		all := slices.Concat(p.loadBearing, p.secondary, p.enums)
		slices.Sort(all)
		slices.Sort(tags)
		assert.Equal(t, tags, all, "%s: every member is load-bearing, secondary or an enumeration", name)
	}
}

type hyperItem struct {
	value  any
	unread []string
}

// hyperTargets are the recorded answers, where their items are, and how
// they decode.
var hyperTargets = []struct {
	policy, file string
	items        []any
	decode       func([]byte) ([]hyperItem, error)
}{
	{"pair", "testdata/spotMeta_2025-08.json", []any{"universe"}, func(b []byte) ([]hyperItem, error) {
		pairs, _, err := decodeSpotMeta(b)
		var out []hyperItem
		for _, p := range pairs {
			out = append(out, hyperItem{p, p.Unread})
		}
		return out, err
	}},
	{"token", "testdata/spotMeta_2025-08.json", []any{"tokens"}, func(b []byte) ([]hyperItem, error) {
		_, tokens, err := decodeSpotMeta(b)
		var out []hyperItem
		for _, t := range tokens {
			out = append(out, hyperItem{t, t.Unread})
		}
		return out, err
	}},
	{"perp", "testdata/meta_2025-12.json", []any{"universe"}, func(b []byte) ([]hyperItem, error) {
		perps, _, err := decodePerpMeta(b)
		var out []hyperItem
		for _, p := range perps {
			out = append(out, hyperItem{p, p.Unread})
		}
		return out, err
	}},
	{"outcome", "testdata/outcomeMeta_handbuilt.json", []any{"outcomes"}, func(b []byte) ([]hyperItem, error) {
		outcomes, err := decodeOutcomeMeta(b)
		var out []hyperItem
		for _, o := range outcomes {
			out = append(out, hyperItem{o, o.Unread})
		}
		return out, err
	}},
}

// TestHyperDecodePolicyOddShapes feeds every odd shape to every secondary
// member and enumeration of the first item of each recorded answer, and a
// wrong shape to every load-bearing member.
func TestHyperDecodePolicyOddShapes(t *testing.T) {
	for _, tg := range hyperTargets {
		p := hyperPolicies[tg.policy]
		raw, err := os.ReadFile(tg.file)
		require.NoError(t, err)
		body := testkit.RoundTripJSON(t, raw)
		base, err := tg.decode(body)
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(base), 2, tg.policy)
		item0 := append(slices.Clone(tg.items), 0)
		for _, member := range slices.Concat(p.secondary, p.enums) {
			for _, shape := range slices.Concat(testkit.OddJSONShapes, []string{`["x"]`}) {
				what := tg.policy + " " + member + " = " + shape
				got, err := tg.decode(testkit.SetJSON(t, body, shape, append(item0, member)...))
				require.NoError(t, err, "%s: one odd member lost the answer", what)
				require.Len(t, got, len(base), what)
				for i := 1; i < len(base); i++ {
					if !reflect.DeepEqual(base[i].value, got[i].value) {
						t.Errorf("%s: item %d changed", what, i)
					}
				}
				if shape == `["x"]` && !slices.Contains(p.enums, member) {
					assert.Contains(t, got[0].unread, member, "%s: reported on the item", what)
				}
			}
		}
		for _, member := range p.loadBearing {
			path := append(item0, member)
			if !testkit.HasJSON(t, body, path...) {
				continue
			}
			_, err := tg.decode(testkit.SetJSON(t, body, `{"x":[1]}`, path...))
			require.Error(t, err, "%s %s: a load-bearing member that cannot be read refuses the answer", tg.policy, member)
			assert.Contains(t, err.Error(), tg.policy+" 0", "%s %s: the item is named", tg.policy, member)
		}
	}
}

// TestVaultEquityDecodePolicy: vaultAddress and equity are load-bearing,
// lockedUntilTimestamp secondary.
func TestVaultEquityDecodePolicy(t *testing.T) {
	raw, err := os.ReadFile("testdata/userVaultEquities_2025-08.json")
	require.NoError(t, err)
	body := testkit.RoundTripJSON(t, raw)
	base, err := decodeVaultEquities(body)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(base), 2)
	for _, shape := range testkit.OddJSONShapes {
		got, err := decodeVaultEquities(testkit.SetJSON(t, body, shape, 0, "lockedUntilTimestamp"))
		require.NoError(t, err, shape)
		assert.Equal(t, base[1], got[1], shape)
		assert.Equal(t, base[0].Equity, got[0].Equity, shape)
	}
	for _, member := range []string{"vaultAddress", "equity"} {
		_, err := decodeVaultEquities(testkit.SetJSON(t, body, `{"x":[1]}`, 0, member))
		require.Error(t, err, member)
		assert.Contains(t, err.Error(), "vault equity 0", member)
	}
}
