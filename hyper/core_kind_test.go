package hyper

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMarketKindReasons: a Market of the wrong kind for a perp or a spot
// read is named with the right article for every kind ("an outcome", not
// "a outcome").
func TestMarketKindReasons(t *testing.T) {
	perp := map[KeyKind]string{
		KeyUnknown:   `market "k" is an unknown key, not a perp`,
		KeySpotPair:  `market "k" is a spot pair, not a perp`,
		KeySpotIndex: `market "k" is a spot index, not a perp`,
		KeyOutcome:   `market "k" is an outcome, not a perp`,
		KeyKind(9):   `market "k" is a kind(9), not a perp`,
	}
	for k, want := range perp {
		_, got := perpArg(Market{Key: "k", Kind: k})
		assert.Equal(t, want, got, k)
	}
	spot := map[KeyKind]string{
		KeyUnknown:    `market "k" is an unknown key, not a spot pair`,
		KeyPerp:       `market "k" is a perp, not a spot pair`,
		KeyBuilderDex: `market "k" is a builder dex, not a spot pair`,
		KeyOutcome:    `market "k" is an outcome, not a spot pair`,
	}
	for k, want := range spot {
		_, got := spotArg(Market{Key: "k", Kind: k})
		assert.Equal(t, want, got, k)
	}
}
