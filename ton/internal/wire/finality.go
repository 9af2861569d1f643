package wire

import (
	"encoding/json"
	"fmt"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Finality decodes a v3 finality member: a string, as the indexer writes it
// ("pending", "confirmed", "finalized"), an integer of its published schema
// (0, 1, 2 as those; n as "unknown_n", the indexer's own spelling for an
// unknown value) or null (""); anything else is an error.
type Finality string

// UnmarshalJSON reads a string, an integer or null.
func (f *Finality) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = Finality(s)
		return nil
	}
	var n Num
	if err := n.UnmarshalJSON(b); err != nil {
		return fmt.Errorf("finality %s is neither a string nor an integer", transport.Quote(string(b)))
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
