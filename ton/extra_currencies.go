package ton

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// maxExtraBits bounds an extra-currency amount: VarUInteger 32, at most
// 2^248-1.
const maxExtraBits = 248

// extraField decodes extra currencies in either shape servers send them:
// v2's list [{"@type":"extraCurrency","id":-17,"amount":"1000"}] (tonlib's
// extraCurrency, id a signed 32-bit number) or v3's map {"4294967279":"1000"}
// (the indexer's, keyed by the unsigned id as a decimal string). null and
// absence leave it unset; [] and {} give an empty map.
type extraField struct {
	m   map[uint32]*big.Int
	set bool
}

func (f *extraField) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	switch {
	case bytes.Equal(t, []byte("null")):
		*f = extraField{}
		return nil
	case len(t) > 0 && t[0] == '[':
		var list []struct {
			ID     json.RawMessage `json:"id"`
			Amount num             `json:"amount"`
		}
		if err := json.Unmarshal(t, &list); err != nil {
			return fmt.Errorf("extra currencies: %v", err)
		}
		m := make(map[uint32]*big.Int, len(list))
		for i, e := range list {
			var id num
			if len(e.ID) == 0 || json.Unmarshal(e.ID, &id) != nil || !id.set {
				return fmt.Errorf("extra currency %d: the id is missing or not an integer", i)
			}
			if err := putExtra(m, id.text, e.Amount); err != nil {
				return fmt.Errorf("extra currency %d: %v", i, err)
			}
		}
		*f = extraField{m: m, set: true}
		return nil
	case len(t) > 0 && t[0] == '{':
		var obj map[string]num
		if err := json.Unmarshal(t, &obj); err != nil {
			return fmt.Errorf("extra currencies: %v", err)
		}
		m := make(map[uint32]*big.Int, len(obj))
		for id, amount := range obj {
			if err := putExtra(m, id, amount); err != nil {
				return err
			}
		}
		*f = extraField{m: m, set: true}
		return nil
	}
	return fmt.Errorf("extra currencies are neither a list nor an object")
}

// putExtra adds one currency to m: its id as sent (decimal, signed as v2
// sends it or unsigned as v3 does) and its amount.
func putExtra(m map[uint32]*big.Int, idText string, amount num) error {
	id, err := currencyID(idText)
	if err != nil {
		return err
	}
	if _, dup := m[id]; dup {
		return fmt.Errorf("extra currency %d is listed twice", id)
	}
	if !amount.set {
		return fmt.Errorf("extra currency %d has no amount", id)
	}
	v, ok := new(big.Int).SetString(amount.text, 10)
	if !ok || v.Sign() < 0 || v.BitLen() > maxExtraBits {
		return fmt.Errorf("extra currency %d: amount %s is not a non-negative integer below 2^%d", id, quoteValue(amount.text, maxQuoted), maxExtraBits)
	}
	m[id] = v
	return nil
}

// currencyID reads a currency id: -2^31 to 2^32-1, a negative id (tonlib's
// int32) taken as the unsigned number with the same 32 bits.
func currencyID(s string) (uint32, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < math.MinInt32 || v > math.MaxUint32 {
		return 0, fmt.Errorf("currency id %s is not a 32-bit integer", quoteValue(s, maxQuoted))
	}
	return uint32(v), nil
}

// pickExtra returns the extra currencies of a message from v2's
// extra_currencies or v3's value_extra_currencies (a server sends one of
// them; two that differ are an error).
func pickExtra(v2, v3 extraField) (map[uint32]*big.Int, error) {
	switch {
	case !v3.set:
		return v2.m, nil
	case !v2.set:
		return v3.m, nil
	}
	if len(v2.m) != len(v3.m) {
		return nil, fmt.Errorf("extra_currencies and value_extra_currencies differ")
	}
	for id, a := range v2.m {
		if b, ok := v3.m[id]; !ok || a.Cmp(b) != 0 {
			return nil, fmt.Errorf("extra_currencies and value_extra_currencies differ")
		}
	}
	return v3.m, nil
}

// opcodeField decodes v3's opcode: the indexer writes "0x%08x", its
// published schema an integer (signed or unsigned 32 bits are both read).
// null and absence leave it unset.
type opcodeField struct {
	v   uint32
	set bool
}

func (f *opcodeField) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	if bytes.Equal(t, []byte("null")) {
		*f = opcodeField{}
		return nil
	}
	var s string
	if len(t) > 0 && t[0] == '"' {
		if err := json.Unmarshal(t, &s); err != nil {
			return err
		}
		if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
			v, err := strconv.ParseUint(s[2:], 16, 32)
			if err != nil {
				return fmt.Errorf("opcode %s is not 32 bits in hex", quoteValue(s, maxQuoted))
			}
			*f = opcodeField{v: uint32(v), set: true}
			return nil
		}
	} else {
		s = string(t)
	}
	v, err := currencyID(s) // the same range: int32 or uint32
	if err != nil {
		return fmt.Errorf("opcode %s is not a 32-bit integer", quoteValue(s, maxQuoted))
	}
	*f = opcodeField{v: v, set: true}
	return nil
}

func (f opcodeField) ptr() *uint32 {
	if !f.set {
		return nil
	}
	v := f.v
	return &v
}
