package hypercore

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeaccess/nodeaccess/hyper"
)

// TestMarketKindReasons: a Market of the wrong kind for a perp or a spot
// read is named with the right article for every kind ("an outcome", not
// "a outcome").
func TestMarketKindReasons(t *testing.T) {
	perp := map[hyper.KeyKind]string{
		hyper.KeyUnknown:   `market "k" is an unknown key, not a perp`,
		hyper.KeySpotPair:  `market "k" is a spot pair, not a perp`,
		hyper.KeySpotIndex: `market "k" is a spot index, not a perp`,
		hyper.KeyOutcome:   `market "k" is an outcome, not a perp`,
		hyper.KeyKind(9):   `market "k" is a kind(9), not a perp`,
	}
	for k, want := range perp {
		_, got := perpArg(hyper.Market{Key: "k", Kind: k})
		assert.Equal(t, want, got, k)
	}
	spot := map[hyper.KeyKind]string{
		hyper.KeyUnknown:    `market "k" is an unknown key, not a spot pair`,
		hyper.KeyPerp:       `market "k" is a perp, not a spot pair`,
		hyper.KeyBuilderDex: `market "k" is a builder dex, not a spot pair`,
		hyper.KeyOutcome:    `market "k" is an outcome, not a spot pair`,
	}
	for k, want := range spot {
		_, got := spotArg(hyper.Market{Key: "k", Kind: k})
		assert.Equal(t, want, got, k)
	}
}
