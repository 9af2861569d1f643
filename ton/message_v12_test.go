package ton_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	v2DocsBlockFixture = "v2_getBlockTransactionsExt_docs_example_mc_seqno1.json"
	v3DatasetFixture   = "v3_transactions_element_mainnet_2026-07_dataset_doc.json"
	v3TracesFixture    = "v3_traces_mainnet_2025-09-26_docs_cookbook.json"
)

// v2 extra currencies are tonlib's extraCurrency list, id a signed int32
// (ton-blockchain/ton ca7d6e45 (2026-07-16) tl/generate/scheme/tonlib_api.tl:53
// `extraCurrency id:int32 amount:int64`): the published example of
// getBlockTransactionsExt (ton-org/docs 278419c2 ecosystem/api/toncenter/v2.json)
// has id 239 and id -17, which is currency 4294967279 (v3's key, the
// unsigned id). ihr_fee is "0" and v2 has no extra_flags.
func TestMessageV2ExtraCurrencies(t *testing.T) {
	var body struct {
		Result struct {
			Transactions []map[string]json.RawMessage `json:"transactions"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(testdata(t, v2DocsBlockFixture), &body))
	require.Len(t, body.Result.Transactions, 1)
	in, err := ton.DecodeMessage(body.Result.Transactions[0]["in_msg"])
	require.NoError(t, err)
	assert.Equal(t, map[uint32]*big.Int{239: nano("666666666666"), 4294967279: nano("1000000000000")}, in.ExtraCurrencies)
	assert.Equal(t, nano("0"), in.Value)
	assert.Equal(t, nano("0"), in.IHRFee)
	assert.Nil(t, in.ExtraFlags, "v2 sends no extra_flags")
	assert.Nil(t, in.Opcode, "v2 sends no opcode")
	assert.Empty(t, in.DecodedOpcode)
	assert.True(t, in.HashNorm == (ton.Hash{}))
	assert.Equal(t, hashOf(t, "5sUeIdwmkqF4ye2/w904xrE2H+Kcg66mZZqT0Dlab8o="), in.Hash)

	// The whole example decodes once its "data" member, which the published
	// example cuts short ("te6cckECCAEAASUAA69w..."), is left out.
	tx := body.Result.Transactions[0]
	delete(tx, "data")
	raw, err := json.Marshal(tx)
	require.NoError(t, err)
	got, err := ton.DecodeBlockTransaction(raw)
	require.NoError(t, err)
	assert.Equal(t, in.ExtraCurrencies, got.InMsg.ExtraCurrencies)
	assert.Equal(t, []ton.Message{}, got.OutMsgs)
}

// A v3 message of a block after protocol version 12 (real mainnet element,
// 2026-07): ihr_fee "0" and extra_flags "0" both present (ton-indexer
// eb9fbfa3 (2026-07-17) ton-index-worker tondb-scanner/src/DataParser.cpp:260-268),
// value_extra_currencies {} (an empty map, not nil), opcode and
// decoded_opcode null.
func TestMessageV3AfterV12(t *testing.T) {
	var tx struct {
		InMsg json.RawMessage `json:"in_msg"`
	}
	require.NoError(t, json.Unmarshal(testdata(t, v3DatasetFixture), &tx))
	m, err := ton.DecodeMessage(tx.InMsg)
	require.NoError(t, err)
	assert.Equal(t, nano("0"), m.ExtraFlags)
	assert.Equal(t, nano("0"), m.IHRFee)
	assert.Equal(t, map[uint32]*big.Int{}, m.ExtraCurrencies)
	assert.Nil(t, m.Opcode)
	assert.Empty(t, m.DecodedOpcode)
	assert.Equal(t, nano("1000000000"), m.Value)
	b, ok := m.ParseBounce()
	assert.False(t, ok, "an empty body is no bounce: %+v", b)
}

// A v3 trace of 2025-09 (before version 12, real): opcode as the string
// "0x%08x" (ton-indexer eb9fbfa3 ton-index-go/index/models/types.go:109-115),
// hash_norm on the external in-message, value_extra_currencies null there
// and {} on internal messages, no extra_flags member at all.
func TestMessageV3BeforeV12(t *testing.T) {
	var body struct {
		Traces []struct {
			Transactions map[string]struct {
				InMsg   json.RawMessage   `json:"in_msg"`
				OutMsgs []json.RawMessage `json:"out_msgs"`
			} `json:"transactions"`
		} `json:"traces"`
	}
	require.NoError(t, json.Unmarshal(testdata(t, v3TracesFixture), &body))
	require.Len(t, body.Traces, 1)
	var ext, internal int
	opcodes := map[uint32]bool{}
	for _, tx := range body.Traces[0].Transactions {
		for _, raw := range append([]json.RawMessage{tx.InMsg}, tx.OutMsgs...) {
			m, err := ton.DecodeMessage(raw)
			require.NoError(t, err)
			assert.Nil(t, m.ExtraFlags)
			if m.Opcode != nil {
				opcodes[*m.Opcode] = true
			}
			if m.Source == nil { // an external in-message
				ext++
				assert.Equal(t, hashOf(t, "kudVqbrlxGq4LdbssZkZL5KGellh4n5Xrnp8BJl7QQ8="), m.HashNorm)
				assert.Nil(t, m.ExtraCurrencies, "null for an external message")
				assert.Nil(t, m.IHRFee)
				continue
			}
			internal++
			assert.True(t, m.HashNorm == (ton.Hash{}))
			assert.Equal(t, map[uint32]*big.Int{}, m.ExtraCurrencies)
			assert.Equal(t, nano("0"), m.IHRFee)
			_, ok := m.ParseBounce()
			assert.False(t, ok)
		}
	}
	assert.Equal(t, 1, ext)
	assert.Equal(t, 10, internal)
	assert.Equal(t, map[uint32]bool{0x9a4f6490: true, 0x6578746e: true, 0: true, 1: true}, opcodes)
}

// Hand-built (no real body with these values was found; FACTS 3.1): a v3
// message with every member version 12 added, in the forms the indexer
// writes and those its published schema states (opcode as a number).
func TestMessageV3NewMembers(t *testing.T) {
	m, err := ton.DecodeMessage([]byte(`{"hash":"BV9uLrHxdTe04PwOYxv4YFebaGIYcVgfPeZtB/Lt65o=","value":"5","value_extra_currencies":{"239":"1000","4294967279":"340282366920938463463374607431768211456"},"ihr_fee":"0","extra_flags":"3","opcode":"0x0f8a7ea5","decoded_opcode":"jetton_transfer","bounce":true,"bounced":false}`))
	require.NoError(t, err)
	two128 := new(big.Int).Lsh(big.NewInt(1), 128)
	assert.Equal(t, map[uint32]*big.Int{239: nano("1000"), 4294967279: two128}, m.ExtraCurrencies)
	assert.Equal(t, nano("3"), m.ExtraFlags)
	require.NotNil(t, m.Opcode)
	assert.Equal(t, uint32(0x0f8a7ea5), *m.Opcode)
	assert.Equal(t, "jetton_transfer", m.DecodedOpcode)

	for body, want := range map[string]uint32{
		`{"opcode":260734629}`:    0x0f8a7ea5,
		`{"opcode":-1}`:           0xffffffff,
		`{"opcode":4294967295}`:   0xffffffff,
		`{"opcode":"0xFFFFFFFE"}`: 0xfffffffe,
		`{"opcode":"7"}`:          7,
	} {
		m, err := ton.DecodeMessage([]byte(body))
		require.NoError(t, err, body)
		require.NotNil(t, m.Opcode, body)
		assert.Equal(t, want, *m.Opcode, body)
	}
	// The two shapes of extra currencies, for one message, agree.
	m, err = ton.DecodeMessage([]byte(`{"extra_currencies":[{"@type":"extraCurrency","id":-17,"amount":"9"}],"value_extra_currencies":{"4294967279":"9"}}`))
	require.NoError(t, err)
	assert.Equal(t, map[uint32]*big.Int{4294967279: nano("9")}, m.ExtraCurrencies)
	// Empty in either shape: an empty map; null: nil.
	for body, want := range map[string]map[uint32]*big.Int{
		`{"extra_currencies":[]}`:         {},
		`{"value_extra_currencies":{}}`:   {},
		`{"value_extra_currencies":null}`: nil,
		`{}`:                              nil,
	} {
		m, err := ton.DecodeMessage([]byte(body))
		require.NoError(t, err, body)
		assert.Equal(t, want, m.ExtraCurrencies, body)
	}
}

func TestMessageV12BadValues(t *testing.T) {
	two248 := new(big.Int).Lsh(big.NewInt(1), 248).String()
	for body, want := range map[string]string{
		`{"extra_currencies":[{"id":4294967296,"amount":"1"}]}`:                           "extra_currencies",
		`{"extra_currencies":[{"id":-2147483649,"amount":"1"}]}`:                          "extra_currencies",
		`{"extra_currencies":[{"amount":"1"}]}`:                                           "extra_currencies",
		`{"extra_currencies":[{"id":1.5,"amount":"1"}]}`:                                  "extra_currencies",
		`{"extra_currencies":[{"id":7}]}`:                                                 "extra_currencies",
		`{"extra_currencies":[{"id":7,"amount":"-1"}]}`:                                   "extra_currencies",
		`{"extra_currencies":[{"id":-17,"amount":"1"},{"id":4294967279,"amount":"2"}]}`:   "extra_currencies",
		`{"value_extra_currencies":{"-17":"1","4294967279":"2"}}`:                         "value_extra_currencies",
		`{"value_extra_currencies":{"x":"1"}}`:                                            "value_extra_currencies",
		`{"value_extra_currencies":{"1":"` + two248 + `"}}`:                               "value_extra_currencies",
		`{"value_extra_currencies":{"1":1.5}}`:                                            "value_extra_currencies",
		`{"value_extra_currencies":"1"}`:                                                  "value_extra_currencies",
		`{"extra_currencies":[{"id":1,"amount":"1"}],"value_extra_currencies":{"1":"2"}}`: "value_extra_currencies",
		`{"extra_currencies":[],"value_extra_currencies":{"1":"2"}}`:                      "value_extra_currencies",
		`{"extra_flags":"-1"}`:                                                            "extra_flags",
		`{"extra_flags":"x"}`:                                                             "extra_flags",
		`{"opcode":"0xzz"}`:                                                               "opcode",
		`{"opcode":"0x100000000"}`:                                                        "opcode",
		`{"opcode":4294967296}`:                                                           "opcode",
		`{"opcode":true}`:                                                                 "opcode",
		`{"decoded_opcode":1}`:                                                            "decoded_opcode",
		`{"hash_norm":"not a hash"}`:                                                      "hash_norm",
	} {
		// Each is a secondary member: named in Unread, never an error.
		m, err := ton.DecodeMessage([]byte(body))
		require.NoError(t, err, body)
		assert.Equal(t, []string{want}, m.Unread, body)
		assert.Nil(t, m.ExtraCurrencies, body)
		assert.Nil(t, m.ExtraFlags, body)
		assert.Nil(t, m.Opcode, body)
		assert.Equal(t, "", m.DecodedOpcode, body)
		assert.Equal(t, ton.Hash{}, m.HashNorm, body)
	}
	// The largest amount, 2^248-1, is read exactly.
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 248), big.NewInt(1))
	m, err := ton.DecodeMessage([]byte(`{"value_extra_currencies":{"1":"` + max.String() + `"}}`))
	require.NoError(t, err)
	assert.Equal(t, max, m.ExtraCurrencies[1])
}

// The v3 indexer stores a message address that is not a standard one as a
// literal (toncenter/ton-index-worker tondb-scanner/src/convert-utils.cpp
// 13-52, read at ton-indexer eb9fbfa3, 2026-07-17: "addr_none",
// "addr_extern", "addr_var"; its v1.3 branch 66150f0f also parses "ext$…"
// and "var$…", index/models/convert.go) and sends it as the message's
// source or destination. Such a message must decode, with no standard
// address (nil) and the literal kept in Raw, never fail the page.
func TestMessageNonStandardAddresses(t *testing.T) {
	const std = "0:1C2201823E6DAE55FADD08CAD27845C77267C462D81B0620FE664DEE28BB8E34"
	for _, lit := range []string{"addr_none", "addr_extern", "addr_var", "ext$10:0a", "var$0:-1:0a"} {
		for _, member := range []string{"source", "destination"} {
			other := map[string]string{"source": "destination", "destination": "source"}[member]
			raw := []byte(`{"hash":"Vy11B+AiGGrDBcGx3UiUFUJozUQ3U2yHvaATSrS03og=","` + member + `":"` + lit + `","` + other + `":"` + std + `","value":"1"}`)
			m, err := ton.DecodeMessage(raw)
			require.NoError(t, err, "%s %s", member, lit)
			want, _ := ton.ParseAddress(std)
			if member == "source" {
				assert.Nil(t, m.Source, lit)
				require.NotNil(t, m.Destination)
				assert.Equal(t, want, *m.Destination)
			} else {
				assert.Nil(t, m.Destination, lit)
				require.NotNil(t, m.Source)
				assert.Equal(t, want, *m.Source)
			}
			assert.Contains(t, string(m.Raw), `"`+lit+`"`)
		}
	}
	// Anything else that is not an address still fails: the literal forms
	// are the indexer's, not a license to read garbage.
	_, err := ton.DecodeMessage([]byte(`{"source":"addr_nonsense"}`))
	assert.Error(t, err)
}
