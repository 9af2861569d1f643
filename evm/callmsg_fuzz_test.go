package evm

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// gethCallArgs mirrors the members of go-ethereum's
// internal/ethapi.TransactionArgs that a CallMsg sends, with its JSON
// spellings and hexutil's decoding, and "type", which go-ethereum does not
// read (reth's and alloy's TransactionRequest does).
type gethCallArgs struct {
	From                 *common.Address   `json:"from"`
	To                   *common.Address   `json:"to"`
	Gas                  *hexutil.Uint64   `json:"gas"`
	GasPrice             *hexutil.Big      `json:"gasPrice"`
	MaxFeePerGas         *hexutil.Big      `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *hexutil.Big      `json:"maxPriorityFeePerGas"`
	Value                *hexutil.Big      `json:"value"`
	Data                 *hexutil.Bytes    `json:"data"`
	Input                *hexutil.Bytes    `json:"input"`
	Nonce                *hexutil.Uint64   `json:"nonce"`
	ChainID              *hexutil.Big      `json:"chainId"`
	Type                 *hexutil.Uint64   `json:"type"`
	AccessList           *types.AccessList `json:"accessList"`
	BlobFeeCap           *hexutil.Big      `json:"maxFeePerBlobGas"`
	BlobHashes           []common.Hash     `json:"blobVersionedHashes"`
}

// FuzzCallMsgJSON: for any combination of fields and each spelling of the
// call data, a message that passes check encodes to one JSON object that
// go-ethereum's spellings and hex decoding read back field for field, with
// no unknown member, nothing unset sent and nothing set dropped; and the
// eth_call params of the default spelling respelt (respell, as a Batch does
// for its client) are those made in the spelling.
func FuzzCallMsgJSON(f *testing.F) {
	f.Add(uint16(0), uint64(0), []byte{})
	f.Add(uint16(0xffff), uint64(1)<<63, []byte{0x70, 0xa0, 0x82, 0x31}) // refused: Create with To
	f.Add(uint16(0x1ff5), uint64(30_000_000_000), []byte{1, 2})          // every EIP-1559 and blob field
	f.Add(uint16(0x01cd), uint64(7), []byte{0xab})                       // legacy price, value, data
	f.Add(uint16(0x0102), uint64(0), []byte{0x60, 0x00})                 // a creation
	f.Add(uint16(0xe100), uint64(2), []byte{0xab})                       // nonce, chain id, type, data as data and input
	f.Add(uint16(0x8100), uint64(0x80), []byte{0xab})                    // refused: type 0x80
	f.Fuzz(func(t *testing.T, mask uint16, n uint64, data []byte) {
		on := func(bit uint) bool { return mask&(1<<bit) != 0 }
		amount := func(bit uint) *big.Int {
			if !on(bit) {
				return nil
			}
			return new(big.Int).SetUint64(n + uint64(bit))
		}
		var m CallMsg
		if on(0) {
			m.From = common.BytesToAddress(append([]byte{0xf0}, data...))
		}
		m.To = common.BytesToAddress(data)
		m.Create = on(1)
		if on(2) {
			m.Gas = n
		}
		m.GasPrice, m.MaxFeePerGas, m.Value, m.MaxFeePerBlobGas = amount(3), amount(4), amount(6), amount(7)
		if on(5) {
			m.MaxPriorityFeePerGas = new(big.Int).SetUint64(n) // at most the fee cap, n+4
		}
		if on(8) {
			m.Data = data
		}
		if on(9) {
			m.AccessList = types.AccessList{}
			if on(10) {
				m.AccessList = append(m.AccessList, types.AccessTuple{Address: m.To, StorageKeys: []common.Hash{common.BytesToHash(data)}})
			}
		}
		if on(11) {
			m.BlobHashes = []common.Hash{}
			if on(12) {
				m.BlobHashes = append(m.BlobHashes, common.BytesToHash(data))
			}
		}
		if on(13) {
			m.Nonce = &n
		}
		m.ChainID = amount(14)
		if on(15) {
			typ := uint8(n)
			m.Type = &typ
		}
		spell := callDataSpelling(n % 3)
		if m.check() != nil {
			return
		}
		raw, err := m.appendJSON(nil, spell)
		if err != nil {
			t.Fatal(err)
		}
		// A batch respells the default's eth_call params for its client.
		base, err := callParams(nil, &m, Latest, spellData)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := callParams(nil, &m, Latest, spell); !bytes.Equal(respell(base, spell), want) {
			t.Fatalf("respelt %s as %s, want %s", base, respell(base, spell), want)
		}
		var got gethCallArgs
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if (got.From != nil) != (m.From != common.Address{}) || got.From != nil && *got.From != m.From {
			t.Fatalf("%s: from", raw)
		}
		if (got.To != nil) == m.Create || got.To != nil && *got.To != m.To {
			t.Fatalf("%s: to", raw)
		}
		if (got.Gas != nil) != (m.Gas != 0) || got.Gas != nil && uint64(*got.Gas) != m.Gas {
			t.Fatalf("%s: gas", raw)
		}
		for name, p := range map[string][2]*big.Int{
			"gasPrice": {m.GasPrice, (*big.Int)(got.GasPrice)}, "maxFeePerGas": {m.MaxFeePerGas, (*big.Int)(got.MaxFeePerGas)},
			"maxPriorityFeePerGas": {m.MaxPriorityFeePerGas, (*big.Int)(got.MaxPriorityFeePerGas)},
			"value":                {m.Value, (*big.Int)(got.Value)}, "maxFeePerBlobGas": {m.MaxFeePerBlobGas, (*big.Int)(got.BlobFeeCap)},
		} {
			if (p[0] == nil) != (p[1] == nil) || p[0] != nil && p[0].Cmp(p[1]) != 0 {
				t.Fatalf("%s: %s", raw, name)
			}
		}
		for name, got := range map[string]*hexutil.Bytes{"data": got.Data, "input": got.Input} {
			want := len(m.Data) > 0 && (spell == spellBoth || spell.member() == name)
			if (got != nil) != want || got != nil && !bytes.Equal(*got, m.Data) {
				t.Fatalf("%s: %s (spelling %d)", raw, name, spell)
			}
		}
		if (got.Nonce != nil) != (m.Nonce != nil) || got.Nonce != nil && uint64(*got.Nonce) != *m.Nonce {
			t.Fatalf("%s: nonce", raw)
		}
		if (got.ChainID != nil) != (m.ChainID != nil) || got.ChainID != nil && got.ChainID.ToInt().Cmp(m.ChainID) != 0 {
			t.Fatalf("%s: chainId", raw)
		}
		if (got.Type != nil) != (m.Type != nil) || got.Type != nil && uint64(*got.Type) != uint64(*m.Type) {
			t.Fatalf("%s: type", raw)
		}
		if (got.AccessList != nil) != (m.AccessList != nil) || got.AccessList != nil && len(*got.AccessList) != len(m.AccessList) {
			t.Fatalf("%s: accessList", raw)
		}
		for i, tu := range m.AccessList {
			g := (*got.AccessList)[i]
			if g.Address != tu.Address || len(g.StorageKeys) != len(tu.StorageKeys) || len(g.StorageKeys) > 0 && g.StorageKeys[0] != tu.StorageKeys[0] {
				t.Fatalf("%s: accessList[%d]", raw, i)
			}
		}
		if (got.BlobHashes != nil) != (m.BlobHashes != nil) || len(got.BlobHashes) != len(m.BlobHashes) || len(m.BlobHashes) > 0 && got.BlobHashes[0] != m.BlobHashes[0] {
			t.Fatalf("%s: blobVersionedHashes", raw)
		}
	})
}

// member is the one member name of a spelling that sends one.
func (s callDataSpelling) member() string {
	if s == spellInput {
		return "input"
	}
	return "data"
}
