package wire

import (
	"fmt"
	"strconv"
)

// MaxQuoted is the longest number-like value an error message quotes.
const MaxQuoted = 48

// Quote returns s quoted (%q) for an error message when it has at most n
// bytes, and only its length when it is longer. A value taken from a
// server or a caller is never quoted cut short: a cut could end inside the
// access key, which the client's masking recognises only whole (a whole key
// in a quoted value is masked when the error is wrapped).
func Quote(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("a %d-byte value", len(s))
}
