package evm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Seeds: result members as nodes send them (Erigon, reth and anvil shapes for
// ots_getInternalOperations; eth_call outputs).
var opsSeeds = []string{
	`[]`,
	`null`,
	`[{"type":0,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","value":"0xde0b6b3a7640000"}]`,
	`[{"type":1,"from":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","to":"0x00000000219ab540356cbb839cbe05303d7705fa","value":"0x0"},{"type":3,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0x2222222222222222222222222222222222222222","value":"0x00"}]`,
	`[{"type":4,"from":"0x00000000219AB540356cBB839Cbe05303d7705Fa","to":"0x1111111111111111111111111111111111111111","value":"0x1","extra":true}]`,
	`[{"type":1e2,"from":"0x00","to":"0x00","value":"0x"}]`,
}

func FuzzDecodeInternalOperations(f *testing.F) {
	for _, s := range opsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		ops, err := decodeInternalOperations(raw)
		if err != nil {
			return
		}
		for i, op := range ops {
			if op.Value == nil || op.Value.Sign() < 0 {
				t.Fatalf("op %d: value %v", i, op.Value)
			}
		}
	})
}

func FuzzDecodeHexBytes(f *testing.F) {
	for _, s := range []string{`"0x"`, `"0x00"`, `"0x000000000000000000000000000000000000000000000000000000000000002a"`, `"0X0aFf"`, `"0x1"`, `""`, `null`, `"0x0g"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := decodeHexBytes(raw)
		var ref hexutil.Bytes
		refErr := ref.UnmarshalJSON(raw)
		// hexutil accepts only a lower-case 0x prefix and is otherwise the
		// same grammar: where both accept, they must agree byte for byte.
		if err == nil && refErr == nil && !bytes.Equal(out, ref) {
			t.Fatalf("%s: got %x, hexutil %x", raw, out, []byte(ref))
		}
		if err == nil && out == nil {
			t.Fatalf("%s: nil slice without error", raw)
		}
		if refErr == nil && err != nil {
			t.Fatalf("%s: rejected what hexutil accepts: %v", raw, err)
		}
	})
}

// FuzzDecodeRevertData decodes revert data as go-ethereum's
// abi.UnpackRevert does, another implementation of the same ABI rules:
// where it reads an Error(string), the reason is the same; a reason or a
// panic code is found only in data it reads too.
func FuzzDecodeRevertData(f *testing.F) {
	f.Add(common.FromHex("0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000036e6f700000000000000000000000000000000000000000000000000000000000"))
	f.Add(common.FromHex("0x4e487b710000000000000000000000000000000000000000000000000000000000000011"))
	f.Add(common.FromHex("0x08c379a0ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"))
	f.Add(common.FromHex("0x08c379a000000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002c3a9"))
	f.Add(common.FromHex("0x08c379a000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000000"))
	f.Add(common.FromHex("0xcf4791810000000000000000000000000000000000000000000000000000000000000001"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		reason, code := decodeRevertData(data)
		if len(reason) > len(data) {
			t.Fatalf("reason longer than the data")
		}
		if code != nil && code.Cmp(new(big.Int).Lsh(big.NewInt(1), 256)) >= 0 {
			t.Fatalf("panic code over 256 bits")
		}
		ref, refErr := abi.UnpackRevert(data)
		isError := len(data) >= 4 && [4]byte(data[:4]) == errorSelector
		if isError && refErr == nil && reason != ref {
			t.Fatalf("%x: reason %q, go-ethereum reads %q", data, reason, ref)
		}
		if (reason != "" || code != nil) && refErr != nil {
			t.Fatalf("%x: reason %q, code %v from data go-ethereum refuses: %v", data, reason, code, refErr)
		}
		// The error message never panics and names the reason.
		if msg := (&RevertError{Data: data, Reason: reason, PanicCode: code}).Error(); reason != "" && !strings.Contains(msg, strconv.Quote(reason)) {
			t.Fatalf("%q does not name the reason %q", msg, reason)
		}
	})
}

func FuzzParseBlock(f *testing.F) {
	for _, s := range []string{"latest", "safe", "1234", "0x4d2", "-1", "0x", "0x7d3a1c0e3f7f0c8ab2d4b9f8d8a5d9e0c5b1a2f3e4d5c6b7a8998877665544ff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBlock(s)
		if err != nil {
			return
		}
		// What parses re-parses to the same selector from its printed form
		// (hashes print without the canonical flag, which ParseBlock never sets).
		b2, err := ParseBlock(fmt.Sprint(b))
		j1, _ := appendBlockJSON(nil, b)
		j2, err2 := appendBlockJSON(nil, b2)
		if err != nil || err2 != nil || string(j1) != string(j2) {
			t.Fatalf("%q -> %q -> %v, %v", s, fmt.Sprint(b), b2, err)
		}
	})
}

// quantitySeeds are the results of testdata/rpc's recordings (eth_blockNumber,
// eth_chainId, eth_getBalance), with the shapes servers differ in.
var quantitySeeds = []string{`"0x14"`, `"0xc72dd9d5e883e"`, `"0x73"`, `"0x56"`, `"0x0"`, `"0x00"`, `"0X1b4"`, `"0x"`, `null`, `"0x\u0031"`, `"0xffffffffffffffffff"`}

// FuzzDecodeQuantity checks the decoder of BlockNumber and ChainID against
// go-ethereum's hexutil: what hexutil reads, it reads to the same value
// (it also takes leading zeros and 0X, which hexutil refuses), and what it
// reads is never negative.
func FuzzDecodeQuantity(f *testing.F) {
	for _, s := range quantitySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := decodeBigQuantity(raw)
		if err == nil && v.Sign() < 0 {
			t.Fatalf("%q decoded to %s", raw, v)
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return
		}
		if want, herr := hexutil.DecodeBig(s); herr == nil {
			if err != nil || want.Cmp(v) != 0 {
				t.Fatalf("%q: hexutil reads %s, decodeBigQuantity %v (%v)", raw, want, v, err)
			}
		}
		if want, herr := hexutil.DecodeUint64(s); herr == nil {
			if n, err := decodeUint64(raw); err != nil || n != want {
				t.Fatalf("%q: hexutil reads %d, decodeUint64 %d (%v)", raw, want, n, err)
			}
		}
	})
}
