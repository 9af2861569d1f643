package beacon_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
)

// A Root prints as the beacon API writes it with %s and %v, and as the bytes
// of a [32]byte with %x, so that existing "%x" formatting keeps working.
func TestRootFormat(t *testing.T) {
	var r beacon.Root
	for i := range r {
		r[i] = byte(0xa0 + i)
	}
	hex := "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	assert.Equal(t, "0x"+hex, r.String())
	assert.Equal(t, "0x"+hex, fmt.Sprint(r))
	assert.Equal(t, "0x"+hex, fmt.Sprintf("%s", r))
	assert.Equal(t, "0x"+hex, fmt.Sprintf("%v", r))
	assert.Equal(t, "{0x"+hex+"}", fmt.Sprintf("%v", struct{ R beacon.Root }{r}))
	assert.Equal(t, `"0x`+hex+`"`, fmt.Sprintf("%q", r))
	assert.Equal(t, hex, fmt.Sprintf("%x", r))
	assert.Equal(t, strings.ToUpper(hex), fmt.Sprintf("%X", r))
	assert.Equal(t, "0x"+hex, fmt.Sprintf("%#x", r))
	assert.Equal(t, "0X"+strings.ToUpper(hex), fmt.Sprintf("%#X", r))
	assert.Equal(t, "0x"+strings.Repeat("00", 32), beacon.Root{}.String())
}
