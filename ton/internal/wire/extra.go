package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// maxExtraBits bounds an extra-currency amount: VarUInteger 32, at most
// 2^248-1.
const maxExtraBits = 248

// Extra decodes extra currencies in either shape servers send them:
// v2's list [{"@type":"extraCurrency","id":-17,"amount":"1000"}] (tonlib's
// extraCurrency, id a signed 32-bit number) or v3's map {"4294967279":"1000"}
// (the indexer's, keyed by the unsigned id as a decimal string). null and
// absence leave it unset; [] and {} give an empty map.
type Extra struct {
	// M are the amounts by currency id; nil when not sent.
	M map[uint32]*big.Int
	// Set is false when the member was null or absent.
	Set bool
}

// UnmarshalJSON reads the list, the map or null.
func (f *Extra) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	switch {
	case bytes.Equal(t, []byte("null")):
		*f = Extra{}
		return nil
	case len(t) > 0 && t[0] == '[':
		var list []struct {
			ID     json.RawMessage `json:"id"`
			Amount Num             `json:"amount"`
		}
		if err := json.Unmarshal(t, &list); err != nil {
			return fmt.Errorf("extra currencies: %v", err)
		}
		m := make(map[uint32]*big.Int, len(list))
		for i, e := range list {
			var id Num
			if len(e.ID) == 0 || json.Unmarshal(e.ID, &id) != nil || !id.Set {
				return fmt.Errorf("extra currency %d: the id is missing or not an integer", i)
			}
			if err := putExtra(m, id.Text, e.Amount); err != nil {
				return fmt.Errorf("extra currency %d: %v", i, err)
			}
		}
		*f = Extra{M: m, Set: true}
		return nil
	case len(t) > 0 && t[0] == '{':
		var obj map[string]Num
		if err := json.Unmarshal(t, &obj); err != nil {
			return fmt.Errorf("extra currencies: %v", err)
		}
		m := make(map[uint32]*big.Int, len(obj))
		for id, amount := range obj {
			if err := putExtra(m, id, amount); err != nil {
				return err
			}
		}
		*f = Extra{M: m, Set: true}
		return nil
	}
	return fmt.Errorf("extra currencies are neither a list nor an object")
}

// putExtra adds one currency to m: its id as sent (decimal, signed as v2
// sends it or unsigned as v3 does) and its amount.
func putExtra(m map[uint32]*big.Int, idText string, amount Num) error {
	id, err := currencyID(idText)
	if err != nil {
		return err
	}
	if _, dup := m[id]; dup {
		return fmt.Errorf("extra currency %d is listed twice", id)
	}
	if !amount.Set {
		return fmt.Errorf("extra currency %d has no amount", id)
	}
	v, ok := new(big.Int).SetString(amount.Text, 10)
	if !ok || v.Sign() < 0 || v.BitLen() > maxExtraBits {
		return fmt.Errorf("extra currency %d: amount %s is not a non-negative integer below 2^%d", id, transport.Quote(amount.Text), maxExtraBits)
	}
	m[id] = v
	return nil
}

// currencyID reads a currency id: -2^31 to 2^32-1, a negative id (tonlib's
// int32) taken as the unsigned number with the same 32 bits.
func currencyID(s string) (uint32, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < math.MinInt32 || v > math.MaxUint32 {
		return 0, fmt.Errorf("currency id %s is not a 32-bit integer", transport.Quote(s))
	}
	return uint32(v), nil
}

// PickExtra returns the extra currencies of a message from v2's
// extra_currencies or v3's value_extra_currencies (a server sends one of
// them; two that differ are an error).
func PickExtra(v2, v3 Extra) (map[uint32]*big.Int, error) {
	switch {
	case !v3.Set:
		return v2.M, nil
	case !v2.Set:
		return v3.M, nil
	}
	if len(v2.M) != len(v3.M) {
		return nil, fmt.Errorf("extra_currencies and value_extra_currencies differ")
	}
	for id, a := range v2.M {
		if b, ok := v3.M[id]; !ok || a.Cmp(b) != 0 {
			return nil, fmt.Errorf("extra_currencies and value_extra_currencies differ")
		}
	}
	return v3.M, nil
}

// Opcode decodes v3's opcode: the indexer writes "0x%08x", its
// published schema an integer (signed or unsigned 32 bits are both read).
// null and absence leave it unset.
type Opcode struct {
	// V is the opcode.
	V uint32
	// Set is false when the member was null or absent.
	Set bool
}

// UnmarshalJSON reads "0x…", a number or null.
func (f *Opcode) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	if bytes.Equal(t, []byte("null")) {
		*f = Opcode{}
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
				return fmt.Errorf("opcode %s is not 32 bits in hex", transport.Quote(s))
			}
			*f = Opcode{V: uint32(v), Set: true}
			return nil
		}
	} else {
		s = string(t)
	}
	v, err := currencyID(s) // the same range: int32 or uint32
	if err != nil {
		return fmt.Errorf("opcode %s is not a 32-bit integer", transport.Quote(s))
	}
	*f = Opcode{V: v, Set: true}
	return nil
}

// Ptr returns the opcode, nil when not sent.
func (f Opcode) Ptr() *uint32 {
	if !f.Set {
		return nil
	}
	v := f.V
	return &v
}
