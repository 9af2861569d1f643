package evm

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAddress(t *testing.T) {
	want := common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d")
	for _, s := range []string{
		"0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D",
		"0x07fd993f0fa3a185f7207adccd29f7a87404689d",
		"0x07FD993F0FA3A185F7207ADCCD29F7A87404689D",
		"0X07FD993F0FA3A185F7207ADCCD29F7A87404689D",
	} {
		a, err := ParseAddress(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, a)
	}
	_, err := ParseAddress("0x07fD993f0fA3A185F7207ADcCD29f7A87404689D")
	require.Error(t, err)
	assert.Equal(t, `invalid input: address: "0x07fD993f0fA3A185F7207ADcCD29f7A87404689D": the mixed case does not match the address's EIP-55 checksum: check it for a typo`, err.Error())
	_, err = ParseAddress("0x" + string(make([]byte, 100)))
	require.Error(t, err)
	assert.Equal(t, "invalid input: address: a 102-byte value: want 0x and 40 hex digits (42 characters), got 102 characters", err.Error())
	_, err = ParseAddress("0xéé993f0fa3a185f7207adccd29f7a87404689d")
	assert.Contains(t, err.Error(), "is not a hex digit")
}

func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D", "0x07fd993f0fa3a185f7207adccd29f7a87404689d", "0x07fD993f0fA3A185F7207ADcCD29f7A87404689D", "", "0x", "0X07FD993F0FA3A185F7207ADCCD29F7A87404689D"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAddress(s)
		if err != nil {
			if strings.Contains(err.Error(), "invalid input: address: ") {
				return
			}
			t.Fatalf("error of another kind: %v", err)
		}
		if len(s) != 42 || !strings.EqualFold(a.Hex(), "0x"+s[2:]) {
			t.Fatalf("%q parsed as %s", s, a.Hex())
		}
		// The canonical forms parse to the same address.
		for _, form := range []string{a.Hex(), strings.ToLower(a.Hex())} {
			if b, err := ParseAddress(form); err != nil || b != a {
				t.Fatalf("%s does not parse back: %v", form, err)
			}
		}
	})
}
