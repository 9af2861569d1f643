package evm

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureSlots are the slots that answer was asked for.
var fixtureSlots = []common.Hash{
	common.HexToHash("0x7dfffd491032be8126dbe672d9a72b65bfd457df8a72365ff467144fc2c1196c"), // balanceOf[Holder]
	common.HexToHash("0x952e562d4f6ec20bcfe68270eba5cce854c64a239cb9c7b6f7536fafe46d6ad5"), // never written
}

var fixtureToken = common.HexToAddress("0x000000000000000000000000000000000000E020")

func readProofFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/proof/" + name)
	require.NoError(t, err)
	return bytes.TrimSpace(b)
}

// The recorded answer decodes to what it says.
func TestProofFixtureDecodes(t *testing.T) {
	raw := readProofFixture(t, "evmtest_token_block5.json")
	p, err := decodeProofFor(raw, fixtureToken, fixtureSlots)
	require.NoError(t, err)
	assert.Equal(t, big.NewInt(1_200_000_000), p.StorageProof[0].Value)
	assert.Zero(t, p.StorageProof[1].Value.Sign())
	assert.Len(t, p.AccountProof, 3)
}

// EIP-1186's own example elides its nodes: refused, naming the node.
func TestProofEIPExampleRefused(t *testing.T) {
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal(readProofFixture(t, "eip1186_example.json"), &env))
	_, _, err := decodeProof(env.Result)
	assert.ErrorContains(t, err, "accountProof[0]: hex string")
	// With its nodes whole (here: empty), the rest of it decodes, an
	// absent address being the one asked for.
	fixed := testkit.SetJSON(t, env.Result, `[]`, "accountProof")
	fixed = testkit.SetJSON(t, fixed, `[]`, "storageProof", 0, "proof")
	key := common.HexToHash("0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")
	p, err := decodeProofFor(fixed, fixtureToken, []common.Hash{key})
	require.NoError(t, err)
	assert.Equal(t, fixtureToken, p.Address)
	assert.Equal(t, types.EmptyCodeHash, p.CodeHash)
	assert.Equal(t, big.NewInt(1), p.StorageProof[0].Value)
}

// The decoding policy: every member of the answer is load-bearing, and one
// that is missing or not what EIP-1186 says refuses the answer, naming it.
func TestProofDecodePolicy(t *testing.T) {
	body := testkit.RoundTripJSON(t, readProofFixture(t, "evmtest_token_block5.json"))
	_, _, err := decodeProof(body)
	require.NoError(t, err)
	members := []struct {
		path []any
		name string
	}{
		{[]any{"address"}, "address"},
		{[]any{"balance"}, "balance"},
		{[]any{"nonce"}, "nonce"},
		{[]any{"codeHash"}, "codeHash"},
		{[]any{"storageHash"}, "storageHash"},
		{[]any{"accountProof"}, "accountProof"},
		{[]any{"accountProof", 1}, "accountProof[1]"},
		{[]any{"storageProof"}, "storageProof"},
		{[]any{"storageProof", 1}, "storageProof[1]"},
		{[]any{"storageProof", 0, "key"}, "storageProof[0].key"},
		{[]any{"storageProof", 0, "value"}, "storageProof[0].value"},
		{[]any{"storageProof", 1, "proof"}, "storageProof[1].proof"},
		{[]any{"storageProof", 0, "proof", 0}, "storageProof[0].proof[0]"},
	}
	for _, m := range members {
		for _, shape := range testkit.OddJSONShapes {
			if m.name == "address" && shape == "null" {
				continue // no address: the account asked for
			}
			_, _, err := decodeProof(testkit.SetJSON(t, body, shape, m.path...))
			require.Error(t, err, "%s = %s", m.name, shape)
			assert.True(t, strings.HasPrefix(err.Error(), m.name), "%s = %s: %v", m.name, shape, err)
		}
	}
	for _, tc := range []struct {
		path []any
		v    string
		want string
	}{
		{[]any{"balance"}, `"0x1` + strings.Repeat("0", 64) + `"`, "balance: 257 bits"},
		{[]any{"nonce"}, `"0x10000000000000000"`, "nonce: 65 bits"},
		{[]any{"storageProof", 0, "value"}, `"0x1` + strings.Repeat("0", 64) + `"`, "storageProof[0].value: 257 bits"},
		{[]any{"storageProof", 0, "key"}, `"0x` + strings.Repeat("1", 65) + `"`, "storageProof[0].key: want 1 to 64 hex digits, got 65"},
		{[]any{"storageProof", 0, "key"}, `"0x"`, "storageProof[0].key: want 1 to 64 hex digits, got 0"},
		{[]any{"storageProof", 0, "key"}, `"12"`, "storageProof[0].key: hex string lacks the 0x prefix"},
		{[]any{"codeHash"}, `"0x1234"`, "codeHash: want 0x and 64 hex digits"},
		{[]any{"accountProof", 0}, `"0x123"`, "accountProof[0]: hex string has an odd number of digits"},
	} {
		_, _, err := decodeProof(testkit.SetJSON(t, body, tc.v, tc.path...))
		assert.ErrorContains(t, err, tc.want)
	}
	// Leading zeros and a quantity key (as some nodes send) read as the
	// same numbers.
	p, _, err := decodeProof(testkit.SetJSON(t, testkit.SetJSON(t, body, `"0x0"`, "storageProof", 0, "key"), `"0x0005"`, "nonce"))
	require.NoError(t, err)
	assert.Equal(t, common.Hash{}, p.StorageProof[0].Key)
	assert.Equal(t, uint64(5), p.Nonce)
	for _, whole := range []string{`null`, `[]`, `"x"`, `1`, `{"balance":"0x0"}`} {
		_, _, err := decodeProof([]byte(whole))
		assert.Error(t, err, whole)
	}
}

func FuzzDecodeProof(f *testing.F) {
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	require.NoError(f, json.Unmarshal(readProofFixture(f, "eip1186_example.json"), &env))
	f.Add([]byte(env.Result))
	f.Add(readProofFixture(f, "evmtest_token_block5.json"))
	f.Add([]byte(`{"address":"0x0000000000000000000000000000000000000001","balance":"0x0","nonce":"0x0","codeHash":"0x0000000000000000000000000000000000000000000000000000000000000000","storageHash":"0x0000000000000000000000000000000000000000000000000000000000000000","accountProof":[],"storageProof":[{"key":"0x0","value":"0x0","proof":[]}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, _, err := decodeProof(raw)
		if err != nil {
			return
		}
		if p.Balance == nil || p.Balance.Sign() < 0 || p.Balance.BitLen() > 256 {
			t.Fatalf("balance %v", p.Balance)
		}
		for i, sp := range p.StorageProof {
			if sp.Value == nil || sp.Value.Sign() < 0 || sp.Value.BitLen() > 256 {
				t.Fatalf("storageProof[%d].value %v", i, sp.Value)
			}
		}
		for i, n := range p.AccountProof {
			if len(n) == 0 {
				t.Fatalf("accountProof[%d] is empty", i)
			}
		}
	})
}
