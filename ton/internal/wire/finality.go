package wire

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Finality decodes a v3 finality member: a string, as the indexer writes it
// ("pending", "confirmed", "finalized"), an integer of its published schema
// (0, 1, 2 as those; n as "unknown_n", the indexer's own spelling for an
// unknown value) or null (""). Any other value (1.5, an object, a list, a
// boolean) is kept as sent: its JSON text, compacted, which no constant
// of the SDK is. It never fails: finality informs about a transaction, it
// does not identify one.
type Finality string

// UnmarshalJSON reads a string, an integer or null, and keeps anything else
// as its JSON text.
func (f *Finality) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = Finality(s)
		return nil
	}
	var n Num
	if err := n.UnmarshalJSON(b); err != nil || strings.ContainsAny(n.Text, ".eE") {
		var c bytes.Buffer
		if json.Compact(&c, b) != nil {
			c.Reset()
			c.Write(bytes.TrimSpace(b))
		}
		*f = Finality(c.String())
		return nil
	}
	switch n.Text {
	case "":
		*f = ""
	case "0":
		*f = "pending"
	case "1":
		*f = "confirmed"
	case "2":
		*f = "finalized"
	default:
		*f = Finality("unknown_" + n.Text)
	}
	return nil
}
