package jsontext

import (
	"bytes"
	"encoding/json"
)

// Soft decodes a secondary member of an item: one that informs about the
// item but does not identify it or carry its value (an opcode, a flag, an
// extra currency map, a decoded comment). A shape it cannot read costs
// neither the item nor the page: UnmarshalJSON never fails; Err says what
// went wrong, and the item reports the member as unread (its value stays
// in the item's Raw).
type Soft[T any] struct {
	// V is the value, when Err is nil.
	V T
	// Err is why the member could not be read; nil when it was, or when
	// it was absent.
	Err error
}

// UnmarshalJSON decodes b into V, keeping the error in Err.
func (s *Soft[T]) UnmarshalJSON(b []byte) error {
	var zero T
	s.V = zero
	s.Err = json.Unmarshal(b, &s.V)
	if s.Err != nil {
		s.V = zero
	}
	return nil
}

// Unread collects the names of the secondary members of one item that
// could not be read, in the order they were met.
type Unread []string

// Check adds name when err is not nil, and reports whether err was nil.
func (u *Unread) Check(name string, err error) bool {
	if err != nil {
		*u = append(*u, name)
		return false
	}
	return true
}

// Nested adds the names of a nested item's unread members, each under
// prefix ("out_msgs[0].opcode").
func (u *Unread) Nested(prefix string, names []string) {
	for _, n := range names {
		*u = append(*u, prefix+"."+n)
	}
}

// IsNull reports whether b is JSON null (or empty: absent).
func IsNull(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// Enum decodes an enumeration's member: a string is its value, null or
// absence "", and any other JSON value is kept as sent, its text compacted
// (which no constant is). It never fails.
type Enum string

// UnmarshalJSON reads a string, null, or keeps anything else as text.
func (e *Enum) UnmarshalJSON(b []byte) error {
	var s *string
	if json.Unmarshal(b, &s) == nil {
		*e = ""
		if s != nil {
			*e = Enum(*s)
		}
		return nil
	}
	var c bytes.Buffer
	if json.Compact(&c, b) != nil {
		c.Reset()
		c.Write(bytes.TrimSpace(b))
	}
	*e = Enum(c.String())
	return nil
}
