package beacon

import (
	"bytes"
	"encoding/json"
)

// envelopeScanner follows the top level of a JSON state envelope while
// DownloadState writes it, without holding the body: it skips the value of
// "data" (and of any other member) as it streams past, and keeps the small
// values of "version", "execution_optimistic" and "finalized" wherever
// they come (beacon nodes send them before "data", Lodestar after it).
type envelopeScanner struct {
	state int  // one of the sc* states, outside the top-level values
	inStr bool // inside a string (a key or a value's)
	esc   bool // the previous byte inside the string was a backslash
	depth int  // nesting inside the current member's value
	// key is the current member's key, raw and quoted; keyLong says it
	// was longer than maxEnvelopeKey and names none of ours.
	key     []byte
	keyLong bool
	// val is the current member's value, raw, while it is one we keep
	// and no longer than maxEnvelopeValue (valLong otherwise).
	val     []byte
	keep    bool
	valLong bool

	version          string
	opt, fin         bool
	seen, ambiguous  uint8 // envelope members found (a bit each), and found twice
	versionIsAString bool
}

// The scanner's states between the top-level values.
const (
	scStart   = iota // before the opening '{'
	scKey            // expecting a key or '}'
	scColon          // after a key
	scValue          // after the colon
	scInValue        // inside a member's value
	scDone           // after the closing '}' (or the input is not an envelope)
)

const (
	maxEnvelopeKey   = 64
	maxEnvelopeValue = 256
)

// envelope member bits for seen and ambiguous.
const (
	envVersion = 1 << iota
	envOptimistic
	envFinalized
)

// write follows p, the next bytes of the body.
func (s *envelopeScanner) write(p []byte) {
	for i := 0; i < len(p) && s.state != scDone; i++ {
		c := p[i]
		if s.inStr {
			if !s.esc && !s.keep && s.state == scInValue {
				// The bulk of a state: a string inside "data". Jump
				// to its closing quote when no escape comes first.
				rest := p[i:]
				j := bytes.IndexByte(rest, '"')
				seg := rest
				if j >= 0 {
					seg = rest[:j]
				}
				k := bytes.IndexByte(seg, '\\')
				if k < 0 {
					if j < 0 {
						return
					}
					i += j
					s.inStr = false
					continue
				}
				i += k // the escape, which stringByte takes
				c = p[i]
			}
			s.stringByte(c)
			continue
		}
		switch s.state {
		case scStart:
			switch c {
			case '{':
				s.state = scKey
			case ' ', '\t', '\n', '\r':
			default:
				s.state = scDone
			}
		case scKey:
			switch c {
			case '"':
				s.inStr = true
				s.key, s.keyLong = append(s.key[:0], c), false
			case '}':
				s.state = scDone
			case ' ', '\t', '\n', '\r', ',':
			default:
				s.state = scDone
			}
		case scColon:
			switch c {
			case ':':
				s.state = scValue
			case ' ', '\t', '\n', '\r':
			default:
				s.state = scDone
			}
		case scValue:
			switch c {
			case ' ', '\t', '\n', '\r':
				continue
			}
			s.state, s.depth = scInValue, 0
			s.keep = s.member() != 0
			s.val, s.valLong = s.val[:0], false
			s.valueByte(c)
		case scInValue:
			s.valueByte(c)
		}
	}
}

// stringByte takes the byte c inside a string.
func (s *envelopeScanner) stringByte(c byte) {
	switch {
	case s.esc:
		s.esc = false
	case c == '\\':
		s.esc = true
	case c == '"':
		s.inStr = false
	}
	switch s.state {
	case scKey:
		if len(s.key) < maxEnvelopeKey+2 {
			s.key = append(s.key, c)
		} else {
			s.keyLong = true
		}
		if !s.inStr {
			s.state = scColon
		}
	case scInValue:
		s.keepByte(c)
	}
}

// valueByte takes the byte c of a member's value, outside its strings.
func (s *envelopeScanner) valueByte(c byte) {
	if s.depth == 0 && (c == ',' || c == '}') {
		s.endMember()
		s.state = scKey
		if c == '}' {
			s.state = scDone
		}
		return
	}
	switch c {
	case '"':
		s.inStr = true
	case '{', '[':
		s.depth++
	case '}', ']':
		s.depth--
	}
	s.keepByte(c)
}

func (s *envelopeScanner) keepByte(c byte) {
	if !s.keep {
		return
	}
	if len(s.val) < maxEnvelopeValue {
		s.val = append(s.val, c)
	} else {
		s.valLong = true
	}
}

// member returns the bit of the current key when it is one of the members
// kept, or 0.
func (s *envelopeScanner) member() uint8 {
	var k string
	if s.keyLong || json.Unmarshal(s.key, &k) != nil {
		return 0
	}
	switch k {
	case "version":
		return envVersion
	case "execution_optimistic":
		return envOptimistic
	case "finalized":
		return envFinalized
	}
	return 0
}

// endMember records the value of the member just ended, when kept.
func (s *envelopeScanner) endMember() {
	if !s.keep {
		return
	}
	bit := s.member()
	if s.seen&bit != 0 {
		s.ambiguous |= bit
	}
	s.seen |= bit
	if s.valLong {
		s.ambiguous |= bit
		return
	}
	v := bytes.TrimSpace(s.val)
	switch bit {
	case envVersion:
		s.versionIsAString = json.Unmarshal(v, &s.version) == nil
	case envOptimistic:
		s.opt, _ = envelopeBool(v)
	case envFinalized:
		s.fin, _ = envelopeBool(v)
	}
	if bit != envVersion {
		if _, ok := envelopeBool(v); !ok {
			s.ambiguous |= bit
		}
	}
}

// envelopeBool reads a flag as DecodeJSON does: true or false, or the
// strings "true" and "false" (escapes and all).
func envelopeBool(v []byte) (b, ok bool) {
	text := string(v)
	if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &text) != nil {
		return false, false
	}
	switch text {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// result returns the envelope's version ("" when it had none, or more
// than one, or not a string) and its flags (nil unless both came, once
// each, as booleans).
func (s *envelopeScanner) result() (version string, flags *Flags) {
	if s.seen&envVersion != 0 && s.ambiguous&envVersion == 0 && s.versionIsAString {
		version = s.version
	}
	const both = envOptimistic | envFinalized
	if s.seen&both == both && s.ambiguous&both == 0 {
		flags = &Flags{ExecutionOptimistic: s.opt, Finalized: s.fin}
	}
	return version, flags
}
