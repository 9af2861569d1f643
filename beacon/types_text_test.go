package beacon_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seq returns n bytes counting up from start.
func seq(n int, start byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = start + byte(i)
	}
	return b
}

// Every fixed-size byte type marshals to the beacon API's 0x-hex, parses it
// back (UnmarshalText), prints it with %v and %s, and keeps %x as the
// bytes. Root is go-ethereum's common.Hash, which does the same.
func TestHexTypesRoundTrip(t *testing.T) {
	var (
		root beacon.Root
		key  beacon.BLSPubKey
		sig  beacon.BLSSignature
		ver  beacon.ForkVersion
	)
	copy(root[:], seq(32, 0xa0))
	copy(key[:], seq(48, 0x80))
	copy(sig[:], seq(96, 0x10))
	copy(ver[:], []byte{0x05, 0, 0, 0xfe})
	cases := []struct {
		name  string
		v     any
		bytes []byte
		parse func(string) (any, error)
	}{
		{"Root", root, root[:], func(s string) (any, error) { var v beacon.Root; return v, v.UnmarshalText([]byte(s)) }},
		{"BLSPubKey", key, key[:], func(s string) (any, error) { var v beacon.BLSPubKey; err := v.UnmarshalText([]byte(s)); return v, err }},
		{"BLSSignature", sig, sig[:], func(s string) (any, error) {
			var v beacon.BLSSignature
			err := v.UnmarshalText([]byte(s))
			return v, err
		}},
		{"ForkVersion", ver, ver[:], func(s string) (any, error) {
			var v beacon.ForkVersion
			err := v.UnmarshalText([]byte(s))
			return v, err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hex := fmt.Sprintf("%x", c.bytes) // the standard library's own hex of the bytes
			want := "0x" + hex
			assert.Equal(t, want, fmt.Sprint(c.v))
			assert.Equal(t, want, fmt.Sprintf("%s", c.v))
			assert.Equal(t, want, fmt.Sprintf("%v", c.v))
			assert.Equal(t, "{"+want+"}", fmt.Sprintf("%v", struct{ X any }{c.v}))
			assert.Equal(t, `"`+want+`"`, fmt.Sprintf("%q", c.v))
			assert.Equal(t, hex, fmt.Sprintf("%x", c.v))
			assert.Equal(t, strings.ToUpper(hex), fmt.Sprintf("%X", c.v))
			assert.Equal(t, want, fmt.Sprintf("%#x", c.v))

			js, err := json.Marshal(c.v)
			require.NoError(t, err)
			assert.Equal(t, `"`+want+`"`, string(js))
			js, err = json.Marshal(map[string]any{"k": c.v})
			require.NoError(t, err)
			assert.Equal(t, `{"k":"`+want+`"}`, string(js))

			got, err := c.parse(want)
			require.NoError(t, err)
			assert.Equal(t, c.v, got)
			got, err = c.parse("0X" + strings.ToUpper(hex)) // either case, as hex allows
			require.NoError(t, err)
			assert.Equal(t, c.v, got)
		})
	}
}

// Parsing is strict, and each refusal of the package's own byte types is an
// InputError that quotes the bad value and says what is wrong with it.
func TestHexTypesStrict(t *testing.T) {
	good := "0x" + strings.Repeat("ab", 48)
	bad := []struct{ in, why string }{
		{"", "does not start with 0x"},
		{"0x", "has 0 hex digits, want 96"},
		{strings.Repeat("ab", 48), "does not start with 0x"},
		{"00" + strings.Repeat("ab", 48), "does not start with 0x"},
		{good[:len(good)-1], "has 95 hex digits, want 96"},
		{good + "a", "has 97 hex digits, want 96"},
		{good + "ab", "has 98 hex digits, want 96"},
		{good[:10] + "zz" + good[12:], "not a hex digit"},
		{" " + good, "does not start with 0x"},
		{good + " ", "has 97 hex digits"},
		{"0x" + strings.Repeat("g", 96), "not a hex digit"},
	}
	for _, b := range bad {
		var k beacon.BLSPubKey
		err := k.UnmarshalText([]byte(b.in))
		require.Error(t, err, "%q", b.in)
		assert.True(t, errors.Is(err, nodeaccess.ErrInvalidInput), "%v", err)
		assert.Contains(t, err.Error(), b.why)
		assert.Contains(t, err.Error(), fmt.Sprintf("%q", b.in)[:min(len(b.in), 78)], "quoted, cut to 80 bytes")
		assert.Equal(t, beacon.BLSPubKey{}, k, "a refused value leaves the key zero")
	}
	// Root is common.Hash: as strict, in its own words.
	for _, in := range []string{"", "0x", "0x" + strings.Repeat("ab", 31), "0x" + strings.Repeat("ab", 33), strings.Repeat("ab", 32), "0x" + strings.Repeat("zz", 32)} {
		var r beacon.Root
		require.Error(t, json.Unmarshal([]byte(`"`+in+`"`), &r), "%q", in)
		require.Error(t, r.UnmarshalText([]byte(in)), "%q", in)
	}
	// JSON that is not a string is refused by encoding/json itself.
	var r beacon.Root
	require.Error(t, json.Unmarshal([]byte(`[1,2]`), &r))

	var v beacon.ForkVersion
	assert.ErrorContains(t, v.UnmarshalText([]byte("0x050000")), "has 6 hex digits, want 8 (4 bytes)")
	var sig beacon.BLSSignature
	assert.ErrorContains(t, sig.UnmarshalText([]byte("0x00")), "has 2 hex digits, want 192 (96 bytes)")

	// A long bad value is quoted cut, never whole.
	var k beacon.BLSPubKey
	err := k.UnmarshalText([]byte("0x" + strings.Repeat("f", 10000)))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 300)
}

// A Bitlist marshals as its serialized bytes in 0x-hex, and parsing needs
// the length bit.
func TestBitlistText(t *testing.T) {
	b := beacon.Bitlist{0xff, 0x05}
	assert.Equal(t, "ff05", fmt.Sprintf("%x", b))
	js, err := json.Marshal(b)
	require.NoError(t, err)
	assert.Equal(t, `"0xff05"`, string(js))
	var back beacon.Bitlist
	require.NoError(t, json.Unmarshal(js, &back))
	assert.Equal(t, b, back)
	for _, in := range []string{"0x", "0xff00", "ff05", "0xf", "0xzz"} {
		var x beacon.Bitlist
		err := x.UnmarshalText([]byte(in))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), fmt.Sprintf("%q", in))
	}
	// Text that would not read back is not written: a bitlist without its
	// length bit (the zero Bitlist encoding/json leaves for a missing
	// member, or a last byte of zero) is an InputError, also through
	// encoding/json.
	for name, bad := range map[string]beacon.Bitlist{"nil": nil, "empty": {}, "last byte zero": {0xff, 0x00}} {
		_, err := bad.MarshalText()
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie, name)
		assert.Equal(t, "bitlist", ie.Arg, name)
		_, err = json.Marshal(struct{ B beacon.Bitlist }{bad})
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, name)
	}
}

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
