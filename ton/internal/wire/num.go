package wire

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Num is an integer a server sent either as a JSON number or as a string of
// decimal digits (logical times, balances, seqnos). It keeps the digits;
// null and absence leave it unset.
type Num struct {
	// Text is the integer's decimal digits, with a leading '-' when negative.
	Text string
	// Set is false when the member was null or absent.
	Set bool
}

// UnmarshalJSON accepts 123, "123", -1, "-1" and null; it rejects fractions,
// exponents, empty strings and anything else.
func (n *Num) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*n = Num{}
		return nil
	}
	if len(s) > 0 && s[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	if !isInteger(s) {
		return fmt.Errorf("%s is not an integer", transport.Quote(s))
	}
	*n = Num{Text: s, Set: true}
	return nil
}

func isInteger(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Uint64 returns the number as a uint64; field names it in the error.
func (n Num) Uint64(field string) (uint64, error) {
	v, err := strconv.ParseUint(n.Text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not an unsigned 64-bit integer", field, transport.Quote(n.Text))
	}
	return v, nil
}

// Int64 returns the number as an int64; field names it in the error.
func (n Num) Int64(field string) (int64, error) {
	v, err := strconv.ParseInt(n.Text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not a signed 64-bit integer", field, transport.Quote(n.Text))
	}
	return v, nil
}

// Uint32 returns the number as a uint32; field names it in the error.
func (n Num) Uint32(field string) (uint32, error) {
	v, err := strconv.ParseUint(n.Text, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not an unsigned 32-bit integer", field, transport.Quote(n.Text))
	}
	return uint32(v), nil
}

// Int32 returns the number as an int32; field names it in the error.
func (n Num) Int32(field string) (int32, error) {
	v, err := strconv.ParseInt(n.Text, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%s %s is not a 32-bit integer", field, transport.Quote(n.Text))
	}
	return int32(v), nil
}

// UnixTime returns the time of a Unix-seconds member, UTC. Unset (null or
// absent) and 0 give the zero time.Time: servers send 0 for "no time", and
// 1970-01-01 would read as a real date.
func UnixTime(n Num, field string) (time.Time, error) {
	if !n.Set {
		return time.Time{}, nil
	}
	u, err := n.Int64(field)
	if err != nil || u == 0 {
		return time.Time{}, err
	}
	return time.Unix(u, 0).UTC(), nil
}

// maxAmountDigits bounds the decimal digits of an amount: nanoton amounts
// are VarUInteger 16 (at most 2^120-1, 37 digits).
const maxAmountDigits = 40

// Amount returns a non-negative amount (nanotons) exactly.
func (n Num) Amount(field string) (*big.Int, error) {
	if len(n.Text) > maxAmountDigits || n.Text[0] == '-' {
		return nil, fmt.Errorf("%s %s is not a non-negative amount", field, transport.Quote(n.Text))
	}
	v, _ := new(big.Int).SetString(n.Text, 10)
	return v, nil
}

// OptAmount is Amount for an optional member: nil when unset.
func (n Num) OptAmount(field string) (*big.Int, error) {
	if !n.Set {
		return nil, nil
	}
	return n.Amount(field)
}
