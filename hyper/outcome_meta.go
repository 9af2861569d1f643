package hyper

import (
	"encoding/json"
	"fmt"

	"github.com/nodeaccess/nodeaccess/internal/jsontext"
)

// Outcome is a HIP-4 outcome market, an entry of the public API's
// outcomeMeta. Each side of it trades as its own coin, allMids key "#N"
// with N = 10*ID + side.
type Outcome struct {
	// ID is the outcome's id: its sides are keyed "#<10*ID>", "#<10*ID+1>".
	ID int
	// Name is the outcome's name ("Recurring" for the recurring price
	// markets, whose Description says the rest).
	Name string
	// Description is the outcome's description as written; for recurring
	// markets a structured text ("class:priceBinary|underlying:BTC|…").
	Description string
	// Sides are the names of the outcome's sides, in the order of its
	// sideSpecs: side i is Sides[i]. They are the metadata's own names:
	// often "Yes" and "No", but not always, and the SDK assumes neither.
	Sides []string
	// QuoteToken is the name of the token the outcome settles in, as
	// outcomeMeta writes it ("USDC"); "" when the answer does not say.
	QuoteToken string
	// Question is the name of the question this outcome is a named or
	// fallback outcome of, "" when it belongs to none.
	Question string
	// Unread names the secondary members the SDK could not read (see the
	// package documentation): the fields they fill are left as when not
	// sent. Nil when every member was read.
	Unread []string
}

// wireOutcome is one element of outcomeMeta's outcomes.
type wireOutcome struct {
	Outcome   *int    `json:"outcome"`
	Name      *string `json:"name"`
	SideSpecs []struct {
		Name *string `json:"name"`
	} `json:"sideSpecs"`
	// Secondary: one that cannot be read is named in Unread.
	Description jsontext.Soft[string] `json:"description"`
	QuoteToken  jsontext.Soft[string] `json:"quoteToken"`
}

// decodeOutcomeMeta decodes an outcomeMeta body: {"outcomes":[outcome…],
// "questions":[question…], …}. questions, quoteToken and the members the
// SDK does not use (deployers, feeScale, …) may be absent; sideSpecs may be
// empty. An outcome without its id or name, a side without a name and an
// id given twice are errors.
func decodeOutcomeMeta(body []byte) ([]Outcome, error) {
	var wire struct {
		Outcomes  *[]json.RawMessage `json:"outcomes"`
		Questions []struct {
			Name     string `json:"name"`
			Fallback *int   `json:"fallbackOutcome"`
			Named    []int  `json:"namedOutcomes"`
			Settled  []int  `json:"settledNamedOutcomes"`
		} `json:"questions"`
	}
	if err := unmarshalObject("outcomeMeta", body, &wire); err != nil {
		return nil, err
	}
	if wire.Outcomes == nil {
		return nil, fmt.Errorf(`outcomeMeta: want an "outcomes" array`)
	}
	out := make([]Outcome, len(*wire.Outcomes))
	pos := make(map[int]int, len(out))
	for i, raw := range *wire.Outcomes {
		var w wireOutcome
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, fmt.Errorf("outcomeMeta: outcome %d: %v", i, err)
		}
		switch {
		case w.Outcome == nil || *w.Outcome < 0 || *w.Outcome > maxOutcome:
			return nil, fmt.Errorf("outcomeMeta: outcome %d has no id from 0 to %d", i, maxOutcome)
		case w.Name == nil:
			return nil, fmt.Errorf("outcomeMeta: outcome %d has no name", *w.Outcome)
		}
		if _, dup := pos[*w.Outcome]; dup {
			return nil, fmt.Errorf("outcomeMeta: outcome %d appears twice", *w.Outcome)
		}
		o := Outcome{ID: *w.Outcome, Name: *w.Name, Description: w.Description.V, QuoteToken: w.QuoteToken.V, Sides: make([]string, len(w.SideSpecs))}
		u := (*jsontext.Unread)(&o.Unread)
		u.Check("description", w.Description.Err)
		u.Check("quoteToken", w.QuoteToken.Err)
		for j, s := range w.SideSpecs {
			if s.Name == nil {
				return nil, fmt.Errorf("outcomeMeta: outcome %d: side %d has no name", o.ID, j)
			}
			o.Sides[j] = *s.Name
		}
		pos[o.ID] = i
		out[i] = o
	}
	for _, q := range wire.Questions {
		ids := append(append([]int(nil), q.Named...), q.Settled...)
		if q.Fallback != nil {
			ids = append(ids, *q.Fallback)
		}
		for _, id := range ids {
			if i, ok := pos[id]; ok && out[i].Question == "" {
				out[i].Question = q.Name
			}
		}
	}
	return out, nil
}

// maxOutcome is the largest outcome id whose side keys "#N" the SDK reads
// (N = 10*outcome + side up to 2^31 - 1).
const maxOutcome = (maxSpotIndex - 9) / 10
