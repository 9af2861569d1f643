package evm

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The conversions under ParseBlock and the go-ethereum adapter.

func TestParseHashIsStrict(t *testing.T) {
	h, err := parseHash("0x5C504ED432CB51138BCF09AA5E8A410DD4A1E204EF84BFED1BE16DFBA1B22060")
	require.NoError(t, err)
	assert.Equal(t, common.HexToHash("0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"), h)
	for _, s := range []string{"", "0x", "5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
		"0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b2206",
		"0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060aa",
		"0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b2206g"} {
		_, err := parseHash(s)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, s)
	}
}

func TestBlockFromBig(t *testing.T) {
	for n, want := range map[int64]string{-1: "pending", -2: "latest", -3: "finalized", -4: "safe", -5: "earliest", 0: "0", 17: "17"} {
		b, err := blockFromBig(big.NewInt(n))
		require.NoError(t, err)
		assert.Equal(t, want, fmt.Sprint(b))
	}
	b, err := blockFromBig(nil)
	require.NoError(t, err)
	assert.Equal(t, "latest", fmt.Sprint(b))
	for _, n := range []int64{-6, -100} {
		_, err := blockFromBig(big.NewInt(n))
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	}
}

func TestBlockFromBigHugeNegative(t *testing.T) {
	huge, _ := new(big.Int).SetString("-18446744073709551617", 10)
	_, err := blockFromBig(huge)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Contains(t, err.Error(), "negative block number -18446744073709551617")
}
