package ton_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crc16XModem is a bit-by-bit CRC16-XMODEM, independent of the package's
// table-driven one.
func crc16XModem(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c ^= uint16(x) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
	}
	return c
}

func base64URLDecode(s string) ([]byte, error) { return base64.URLEncoding.DecodeString(s) }
func base64URLEncode(b []byte) string          { return base64.URLEncoding.EncodeToString(b) }

func TestShardVectors(t *testing.T) {
	_, shards := vectors(t)
	for _, s := range shards {
		dec, err := ton.ParseShardID(s[0])
		require.NoError(t, err, s[0])
		hex, err := ton.ParseShardID(s[1])
		require.NoError(t, err, s[1])
		assert.Equal(t, dec, hex)
		assert.Equal(t, s[0], strconv.FormatInt(int64(dec), 10))
		assert.Equal(t, s[1], dec.String())
		assert.Equal(t, s[1], fmt.Sprint(dec))
		lower, err := ton.ParseShardID(strings.ToLower(s[1]))
		require.NoError(t, err)
		assert.Equal(t, dec, lower)
		pre, err := ton.ParseShardID("0x" + s[1])
		require.NoError(t, err)
		assert.Equal(t, dec, pre)
	}
	assert.Equal(t, ton.ShardID(math.MinInt64), ton.MasterchainShard)
	assert.Equal(t, "-9223372036854775808", strconv.FormatInt(int64(ton.MasterchainShard), 10))
	assert.Equal(t, "8000000000000000", ton.MasterchainShard.String())
	// A shorter hex with the prefix, and a positive decimal.
	s, err := ton.ParseShardID("0x8")
	require.NoError(t, err)
	assert.Equal(t, ton.ShardID(8), s)
	s, err = ton.ParseShardID("6917529027641081856")
	require.NoError(t, err)
	assert.Equal(t, "6000000000000000", s.String())
}

func TestShardErrors(t *testing.T) {
	for _, in := range []string{"", "0", "0x", "0x0000000000000000", "0000000000000000", "+5", "12ab", "800000000000000G",
		"0x80000000000000000", "9223372036854775808", "-9223372036854775809", " 1", "1.5", "-"} {
		_, err := ton.ParseShardID(in)
		require.Error(t, err, in)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), in)
		assert.Equal(t, "shard", ie.Arg, in)
	}
}

// A 16-digit decimal is the one string both forms read: ParseShardID
// reads it as hex, as documented; "0x" says hex whatever the length, and a
// decimal of known form is strconv.ParseInt and a conversion. Every other
// length reads as its one form.
func TestShardOverlappingForms(t *testing.T) {
	const dec16 = "1125899906842624" // 2^50: a valid v2 shard with 16 decimal digits
	guessed, err := ton.ParseShardID(dec16)
	require.NoError(t, err)
	assert.Equal(t, ton.ShardID(0x1125899906842624), guessed, "ParseShardID reads 16 digits as hex")
	n, err := strconv.ParseInt(dec16, 10, 64)
	require.NoError(t, err)
	assert.Equal(t, "0004000000000000", ton.ShardID(n).String(), "the documented way to read a decimal of known form")

	for _, in := range []string{"8000000000000000", "0x8000000000000000", "0X8000000000000000", "0x8000000000000000"[2:], "-9223372036854775808"} {
		h, err := ton.ParseShardID(in)
		require.NoError(t, err, in)
		assert.Equal(t, ton.MasterchainShard, h, in)
	}
	for in, want := range map[string]ton.ShardID{
		"0x8":                 8,
		"0x123":               0x123,
		"123":                 123, // not 16 digits: a decimal
		"e000000000000000":    -2305843009213693952,
		"6917529027641081856": 0x6000000000000000,
		"-1":                  -1,
	} {
		got, err := ton.ParseShardID(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err = ton.ParseShardID("xyz")
	assert.EqualError(t, err, `invalid input: shard: "xyz" is not a shard id (16 hex digits, hex digits after 0x, or a signed decimal in the int64 range)`)
	_, err = ton.ParseShardID("0x0")
	assert.EqualError(t, err, `invalid input: shard: "0x0" is zero, which is not a shard id`)
}

func TestShardText(t *testing.T) {
	out, err := json.Marshal(map[string]ton.ShardID{"s": ton.MasterchainShard})
	require.NoError(t, err)
	assert.Equal(t, `{"s":"8000000000000000"}`, string(out))
	var in []ton.ShardID
	require.NoError(t, json.Unmarshal([]byte(`["-9223372036854775808","E000000000000000","6917529027641081856"]`), &in))
	assert.Equal(t, []ton.ShardID{ton.MasterchainShard, ton.ShardID(-2305843009213693952), ton.ShardID(6917529027641081856)}, in)
	assert.Error(t, json.Unmarshal([]byte(`["xyz"]`), &in))
}

func TestBlockRef(t *testing.T) {
	b := ton.MasterchainBlock(39984096)
	assert.Equal(t, ton.BlockRef{Workchain: -1, Shard: ton.MasterchainShard, Seqno: 39984096}, b)
	assert.Equal(t, "(-1,8000000000000000,39984096)", b.String())
	for _, in := range []string{"(-1,8000000000000000,39984096)", "-1,-9223372036854775808,39984096", "(-1,0x8000000000000000,39984096)"} {
		got, err := ton.ParseBlockRef(in)
		require.NoError(t, err, in)
		assert.Equal(t, b, got, in)
	}
	for in, why := range map[string]string{
		"(-1,8000000000000000)":            "want (workchain,shard,seqno)",
		"(x,8000000000000000,1)":           "workchain",
		"(+1,8000000000000000,1)":          "workchain",
		"(,8000000000000000,1)":            "workchain",
		"(0,zz,1)":                         "is not a shard id",
		"(0,0,1)":                          "is zero",
		"(0,8000000000000000,-1)":          "seqno",
		"(0,8000000000000000,)":            "seqno",
		"(0,8000000000000000,4294967296)":  "seqno",
		"(0,8000000000000000,+1)":          "seqno",
		"(99999999999,8000000000000000,1)": "workchain",
	} {
		_, err := ton.ParseBlockRef(in)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), in)
		assert.Equal(t, "block", ie.Arg)
		assert.Contains(t, ie.Reason, why, in)
	}
	id := ton.BlockID{BlockRef: b}
	id.RootHash[0] = 0xff
	assert.Equal(t, "(-1,8000000000000000,39984096):/wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", id.String())
}

func TestHash(t *testing.T) {
	const b64 = "RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk="
	h, err := ton.ParseHash(b64)
	require.NoError(t, err)
	assert.Equal(t, b64, h.String())
	assert.Equal(t, "473a1119c132c7921ae6d10a516942a456e0f01d2c729b974b23577fd6b836c9", h.Hex())
	for _, in := range []string{strings.TrimSuffix(b64, "="), h.Hex(), strings.ToUpper(h.Hex())} {
		g, err := ton.ParseHash(in)
		require.NoError(t, err, in)
		assert.Equal(t, h, g, in)
	}
	// URL-safe alphabet.
	const std = "0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A="
	u, err := ton.ParseHash(strings.NewReplacer("+", "-", "/", "_").Replace(std))
	require.NoError(t, err)
	assert.Equal(t, std, u.String())
	assert.False(t, u == (ton.Hash{}))
	for _, in := range []string{"", "abc", strings.Repeat("A", 44), strings.Repeat("g", 64), "RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Ns==", "RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk!"} {
		_, err := ton.ParseHash(in)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, in)
	}
	out, err := json.Marshal(h)
	require.NoError(t, err)
	assert.Equal(t, `"`+b64+`"`, string(out))
	var back ton.Hash
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, h, back)
}

func TestAccountStatus(t *testing.T) {
	assert.Len(t, knownStatuses, 4)
	assert.Equal(t, "active", fmt.Sprint(ton.StatusActive))
	assert.Equal(t, "uninit", fmt.Sprint(ton.StatusUninit))
	assert.Equal(t, "frozen", fmt.Sprint(ton.StatusFrozen))
	assert.Equal(t, "nonexist", fmt.Sprint(ton.StatusNonexist))
	assert.NotContains(t, knownStatuses, ton.AccountStatus("suspended"))
	assert.Equal(t, "suspended", fmt.Sprint(ton.AccountStatus("suspended")))
	assert.NotContains(t, knownStatuses, ton.AccountStatus(""))
}

// knownStatuses are the statuses of the package's constants.
var knownStatuses = []ton.AccountStatus{ton.StatusActive, ton.StatusUninit, ton.StatusFrozen, ton.StatusNonexist}
