package ton_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vectors reads testdata/address_vectors.txt: "name value" lines, and the
// shard lines "shard [masterchain] <decimal> = <hex>".
func vectors(t *testing.T) (addrs map[string]string, shards [][2]string) {
	addrs = map[string]string{}
	for _, line := range strings.Split(string(testdata(t, vectorsFixture)), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if f[0] == "shard" {
			shards = append(shards, [2]string{f[len(f)-3], f[len(f)-1]})
			continue
		}
		addrs[strings.Join(f[:len(f)-1], " ")] = f[len(f)-1]
	}
	require.Len(t, addrs, 9)
	require.Len(t, shards, 3)
	return addrs, shards
}

func TestAddressVectors(t *testing.T) {
	v, _ := vectors(t)
	want := ton.Address{Workchain: 0}
	copy(want.ID[:], []byte{0x5b, 0x6a, 0x64, 0x3c, 0xf4, 0xe3, 0x2f, 0xf0})
	base, err := ton.ParseAddress(v["raw-lower"])
	require.NoError(t, err)
	assert.Equal(t, int8(0), base.Workchain)
	assert.Equal(t, want.ID[:8], base.ID[:8])
	assert.Equal(t, byte(0x75), base.ID[31])

	// Every form parses to the same account, and == says so.
	for _, name := range []string{"raw-upper", "raw-lower", "bounceable", "non-bounceable", "bounceable-test", "non-bounce-test", "std-base64 form"} {
		a, err := ton.ParseAddress(v[name])
		require.NoError(t, err, name)
		assert.True(t, a == base, name)
	}
	// Every form formats back exactly.
	assert.Equal(t, v["raw-lower"], base.String())
	assert.Equal(t, v["raw-lower"], base.String())
	assert.Equal(t, v["raw-upper"], strings.ToUpper(base.String()))
	assert.Equal(t, v["bounceable"], base.Friendly(true, false).String())
	assert.Equal(t, v["non-bounceable"], base.Friendly(false, false).String())
	assert.Equal(t, v["bounceable-test"], base.Friendly(true, true).String())
	assert.Equal(t, v["non-bounce-test"], base.Friendly(false, true).String())
	assert.Equal(t, v["std-base64 form"], stdBase64(base.Friendly(false, false)))

	// The user-friendly forms keep their flags.
	for name, flags := range map[string][2]bool{
		"bounceable": {true, false}, "non-bounceable": {false, false},
		"bounceable-test": {true, true}, "non-bounce-test": {false, true},
		"std-base64 form": {false, false},
	} {
		f, err := ton.ParseFriendlyAddress(v[name])
		require.NoError(t, err, name)
		assert.Equal(t, ton.FriendlyAddress{Address: base, Bounceable: flags[0], Testnet: flags[1]}, f, name)
		if name != "std-base64 form" {
			assert.Equal(t, v[name], f.String(), name)
		}
	}

	// The masterchain account of the block fixture.
	mc, err := ton.ParseAddress(v["masterchain"])
	require.NoError(t, err)
	assert.Equal(t, int8(-1), mc.Workchain)
	assert.Equal(t, v["masterchain-raw"], mc.String())
	assert.Equal(t, mc, mustAddress(v["masterchain-raw"]))
	assert.Equal(t, v["masterchain"], mc.Friendly(true, false).String())
	assert.Equal(t, strings.Repeat("33", 32), mc.String()[3:])
}

func TestAddressAsMapKey(t *testing.T) {
	v, _ := vectors(t)
	book := map[ton.Address]string{mustAddress(v["raw-upper"]): "alice"}
	for _, name := range []string{"raw-lower", "bounceable", "non-bounce-test", "std-base64 form"} {
		assert.Equal(t, "alice", book[mustAddress(v[name])], name)
	}
	assert.NotEqual(t, mustAddress(v["raw-lower"]), mustAddress(v["masterchain"]))
}

func TestAddressParseErrors(t *testing.T) {
	v, _ := vectors(t)
	good := v["bounceable"]
	flipLast := good[:47] + "x"
	cases := map[string]string{
		flipLast:   "checksum mismatch",
		good[:47]:  "has 47 characters, want 48",
		good + "A": "has 49 characters",
		"":         "has 0 characters",
		"EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4d+Ew": "mixes the base64url and standard base64 alphabets",
		"EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4d!Ew": "not base64",
		"128:" + strings.Repeat("00", 32):                  "workchain 128 is outside -128..127",
		"-129:" + strings.Repeat("00", 32):                 "workchain -129 is outside -128..127",
		"99999999999:" + strings.Repeat("00", 32):          "workchain is not a number",
		"+0:" + strings.Repeat("00", 32):                   "workchain is not a number in canonical decimal form",
		// Item 12: only the canonical decimal spelling of the workchain.
		"00:" + strings.Repeat("00", 32):       "workchain is not a number in canonical decimal form",
		"-0:" + strings.Repeat("00", 32):       "workchain is not a number in canonical decimal form",
		"-00:" + strings.Repeat("00", 32):      "workchain is not a number in canonical decimal form",
		"-01:" + strings.Repeat("00", 32):      "workchain is not a number in canonical decimal form",
		"007:" + strings.Repeat("00", 32):      "workchain is not a number in canonical decimal form",
		"+1:" + strings.Repeat("00", 32):       "workchain is not a number in canonical decimal form",
		"-:" + strings.Repeat("00", 32):        "workchain is not a number in canonical decimal form",
		" 0:" + strings.Repeat("00", 32):       "workchain is not a number in canonical decimal form",
		"0x0:" + strings.Repeat("00", 32):      "workchain is not a number in canonical decimal form",
		":" + strings.Repeat("00", 32):         "needs a workchain number",
		"x:" + strings.Repeat("00", 32):        "workchain is not a number",
		"0:" + strings.Repeat("00", 31):        "account id has 62 hex digits, want 64",
		"0:" + strings.Repeat("zz", 32):        "account id is not hex",
		"0:" + strings.Repeat("00", 32) + ":1": "account id has 66 hex digits",
	}
	for in, want := range cases {
		_, err := ton.ParseAddress(in)
		require.Error(t, err, in)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), in)
		assert.Equal(t, "address", ie.Arg)
		assert.Contains(t, ie.Reason, want, in)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	}
	// A valid checksum over a tag that is neither 0x11 nor 0x51.
	bad := mustAddress(v["raw-lower"]).Friendly(true, false)
	_, err := ton.ParseFriendlyAddress(withTag(t, bad, 0x12))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown tag byte 0x12")
	// The raw form has no flags.
	_, err = ton.ParseFriendlyAddress(v["raw-lower"])
	assert.ErrorContains(t, err, "want 48")
	assert.Panics(t, func() { mustAddress("nope") })
}

// withTag rewrites the tag byte of f's user-friendly form, with a matching
// checksum.
func withTag(t *testing.T, f ton.FriendlyAddress, tag byte) string {
	t.Helper()
	b, err := base64URLDecode(f.String())
	require.NoError(t, err)
	b[0] = tag
	c := crc16XModem(b[:34])
	b[34], b[35] = byte(c>>8), byte(c)
	return base64URLEncode(b)
}

func TestAddressJSONAndText(t *testing.T) {
	v, _ := vectors(t)
	a := mustAddress(v["bounceable"])
	out, err := json.Marshal(struct {
		A ton.Address         `json:"a"`
		F ton.FriendlyAddress `json:"f"`
		M map[ton.Address]int `json:"m"`
	}{a, a.Friendly(false, true), map[ton.Address]int{a: 1}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":"`+v["raw-lower"]+`","f":"`+v["non-bounce-test"]+`","m":{"`+v["raw-lower"]+`":1}}`, string(out))

	var in struct {
		A []ton.Address       `json:"a"`
		F ton.FriendlyAddress `json:"f"`
		M map[ton.Address]int `json:"m"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"a":["`+v["raw-upper"]+`","`+v["std-base64 form"]+`"],"f":"`+v["bounceable-test"]+`","m":{"`+v["bounceable"]+`":7}}`), &in))
	assert.Equal(t, []ton.Address{a, a}, in.A)
	assert.Equal(t, ton.FriendlyAddress{Address: a, Bounceable: true, Testnet: true}, in.F)
	assert.Equal(t, map[ton.Address]int{a: 7}, in.M)

	var bad ton.Address
	err = json.Unmarshal([]byte(`"EQnope"`), &bad)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var badF ton.FriendlyAddress
	assert.Error(t, json.Unmarshal([]byte(`"`+v["raw-lower"]+`"`), &badF))

	txt, err := a.MarshalText()
	require.NoError(t, err)
	var back ton.Address
	require.NoError(t, back.UnmarshalText(txt))
	assert.Equal(t, a, back)
}

// stdBase64 is the user-friendly form in standard base64, as the
// FriendlyAddress documentation writes it.
func stdBase64(f ton.FriendlyAddress) string {
	return strings.NewReplacer("-", "+", "_", "/").Replace(f.String())
}
