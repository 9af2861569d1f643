package beacon

import (
	"fmt"
	"io"
	"math/bits"

	"github.com/nodeaccess/nodeaccess/beacon/internal/progress"
)

// readJSON decodes a JSON state as it streams from r (see ReadState for
// what it accepts): cfg.version, when hasVersion, is the fork of a bare
// data object or the one the envelope must name, and fn, when set, gets
// the progress.
//
// Memory: the decoded state plus, for a stream whose size the reader does
// not tell (a size only claimed, a Content-Length, sizes nothing), one
// extra copy of the validator list while it is assembled from chunks; with
// the size told (a file, an in-memory reader) the validator list is
// allocated once, its capacity an upper bound derived from the size (at
// most 1 GiB up front; a list that came out less than half as long as its
// capacity is copied to its exact length). When the size is not told,
// runtime.GC runs after a list of 8 MiB or more was assembled from its
// chunks (on mainnet once, after the validators), so that the next lists
// are not allocated on top of the chunks. A "data" that comes before
// "version" is decoded as it streams with the fields of every fork allowed
// and checked against the fork when "version" comes.
func readJSON(r io.Reader, cfg decodeConfig, fn func(read, total int64)) (*State, *Flags, error) {
	if fn != nil {
		pr := progress.New(r, fn, cfg.sizeHint)
		st, fl, err := decodeJSON(pr, cfg, cfg.version, cfg.hasVersion)
		if err == nil {
			pr.Finish()
		}
		return st, fl, err
	}
	return decodeJSON(r, cfg, cfg.version, cfg.hasVersion)
}

// decodeJSON decodes with cfg; a bare object is decoded as fork bare when
// hasBare (the fork named outside the body: Body.Fork, or the node's
// Eth-Consensus-Version header), and an envelope's version is checked
// against cfg's version only.
func decodeJSON(r io.Reader, cfg decodeConfig, bare Version, hasBare bool) (*State, *Flags, error) {
	if err := cfg.preset.validate(); err != nil {
		return nil, nil, err
	}
	if cfg.hasVersion && !cfg.version.isKnown() {
		return nil, nil, unsupportedVersion(cfg.version.String())
	}
	if hasBare && !bare.isKnown() {
		return nil, nil, unsupportedVersion(bare.String())
	}
	d := newJSONDecoder(r, cfg.sizeHint)
	d.size = -1
	if cfg.sizeKnown { // a size the reader told, not only claimed
		d.size = cfg.sizeHint
	}
	d.preset = cfg.preset
	if err := d.expect('{', "'{' (a JSON object)"); err != nil {
		return nil, nil, err
	}

	const (
		modeUnknown = iota
		modeEnvelope
		modeBare
	)
	var (
		mode       = modeUnknown
		st         *State
		flags      Flags
		envVersion Version
		hasEnv     bool
		// seenEnv holds the envelope's members read so far (a bit per
		// envelopeKeys entry): each may come once.
		seenEnv uint8
		// pend is set when "data" came before "version": st holds the
		// fields of any fork until the version settles it.
		pend *unsettled
	)
	// decided checks the envelope's version against the fork named outside
	// the body and
	// against a state already decoded.
	decided := func(off int64) error {
		if cfg.hasVersion && envVersion != cfg.version {
			return &DecodeError{Format: "json", Path: "version", Offset: off,
				Reason: fmt.Sprintf("the envelope's version is %s but the body's fork was named %s (Body.Fork, or the node's Eth-Consensus-Version header)", envVersion, cfg.version)}
		}
		return nil
	}
	for first := true; ; first = false {
		more, err := d.more(first, '}')
		if err != nil {
			return nil, nil, err
		}
		if !more {
			break
		}
		keyOff := d.offset()
		k, err := d.key()
		if err != nil {
			return nil, nil, err
		}
		if mode == modeBare {
			// Unreachable: stateBody consumes the rest of a bare object.
			return nil, nil, d.errAt(keyOff, "internal error: key after a bare state")
		}
		for i, name := range envelopeKeys {
			if string(k) != name {
				continue
			}
			if seenEnv&(1<<i) != 0 {
				return nil, nil, d.errAt(keyOff, "%s given twice (a key may come once in the envelope)", name)
			}
			seenEnv |= 1 << i
		}
		switch string(k) {
		case "version":
			mode = modeEnvelope
			off := d.offset()
			name, err := d.stringv(64)
			if err != nil {
				return nil, nil, inField(err, "version")
			}
			v, err := ParseVersion(name)
			if err != nil {
				if cfg.unsupported != nil {
					err = cfg.unsupported(name)
				}
				return nil, nil, err
			}
			envVersion, hasEnv = v, true
			if err := decided(off); err != nil {
				return nil, nil, err
			}
		case "execution_optimistic", "finalized":
			name := string(k)
			mode = modeEnvelope
			b, err := d.boolv()
			if err != nil {
				return nil, nil, inField(err, name)
			}
			if name == "finalized" {
				flags.Finalized = b
			} else {
				flags.ExecutionOptimistic = b
			}
		case "data":
			mode = modeEnvelope
			v := envVersion
			switch {
			case hasEnv:
			case cfg.hasVersion:
				v = cfg.version
			default:
				// "data" before "version" (Lodestar's order): decode
				// it with the fields of every fork and check them
				// against the fork when "version" has come.
				st = &State{Preset: cfg.preset}
				if err := d.expect('{', "'{' (the state object)"); err != nil {
					return nil, nil, err
				}
				if pend, err = d.unsettledBody(st); err != nil {
					return nil, nil, err
				}
				continue
			}
			st = &State{Version: v, Preset: cfg.preset}
			if err := d.expect('{', "'{' (the state object)"); err != nil {
				return nil, nil, err
			}
			if err := d.stateBody(st, nil); err != nil {
				return nil, nil, err
			}
		default:
			if mode == modeUnknown && k != nil {
				if _, ok := stateFieldForks[string(k)]; ok {
					if !hasBare {
						return nil, nil, d.errAt(keyOff, "a bare state object (no beacon API envelope) needs its fork named: set Body.Fork")
					}
					mode = modeBare
					st = &State{Version: bare, Preset: cfg.preset}
					if err := d.stateBody(st, k); err != nil {
						return nil, nil, err
					}
					if err := d.trailing(); err != nil {
						return nil, nil, err
					}
					return st, nil, nil
				}
			}
			if err := d.skipValue(0); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := d.trailing(); err != nil {
		return nil, nil, err
	}
	switch {
	case mode == modeUnknown && hasBare:
		// An object with no state field at all: report the first one.
		st = &State{Version: bare, Preset: cfg.preset}
		return nil, nil, d.missing(st.fields(), 0)
	case st == nil:
		return nil, nil, &DecodeError{Format: "json", Path: "data", Offset: -1, Reason: "missing field (no state in the input)"}
	case !hasEnv && !cfg.hasVersion:
		return nil, nil, &DecodeError{Format: "json", Path: "version", Offset: -1,
			Reason: `missing field: the envelope has "data" but no "version" to name its fork (name the fork in Body.Fork to decode such input)`}
	case pend != nil:
		if err := d.settle(st, envVersion, pend); err != nil {
			return nil, nil, err
		}
	}
	if mode == modeEnvelope && hasEnv {
		if err := decided(-1); err != nil {
			return nil, nil, err
		}
	}
	return st, &flags, nil
}

// envelopeKeys are the members of the beacon API's state envelope.
var envelopeKeys = [...]string{"version", "execution_optimistic", "finalized", "data"}

// stateFieldForks maps every state field's JSON name to the forks that
// have it (a bit per Version).
var stateFieldForks = func() map[string]uint32 {
	m := make(map[string]uint32)
	for _, v := range versions() {
		s := &State{Version: v}
		for _, f := range s.fields() {
			m[f.name] |= 1 << v
		}
	}
	return m
}()

// forkRange names the forks in a stateFieldForks mask: "altair and later",
// "phase0 only", "bellatrix to fulu". A field the newest fork has is
// "<fork> and later" even when that fork alone has it ("gloas and
// later"), so the wording does not change when the next fork is added.
func forkRange(mask uint32) string {
	lo := Version(bits.TrailingZeros32(mask))
	hi := Version(31 - bits.LeadingZeros32(mask))
	switch {
	case hi == newestFork:
		return lo.String() + " and later"
	case lo == hi:
		return lo.String() + " only"
	}
	return lo.String() + " to " + hi.String()
}

// stateBody decodes the members of a state object whose '{' is consumed.
// k, when not nil, is the first member's key, already read with its colon.
func (d *jsonDecoder) stateBody(s *State, k []byte) error {
	fields := s.fields()
	seen, err := d.members(s, fields, k, nil)
	if err != nil {
		return err
	}
	if seen != 1<<len(fields)-1 {
		return d.missing(fields, seen)
	}
	return nil
}

// members decodes the members of a state object whose '{' is consumed,
// the ones named in fields, and returns which came (a bit per field). k,
// when not nil, is the first member's key, already read with its colon.
// at, when not nil, receives the offset of each field's key.
func (d *jsonDecoder) members(s *State, fields []field, k []byte, at []int64) (uint64, error) {
	var seen uint64
	have := k != nil
	for first := !have; ; first = false {
		keyOff := d.offset()
		if !have {
			more, err := d.more(first, '}')
			if err != nil {
				return 0, err
			}
			if !more {
				break
			}
			keyOff = d.offset()
			if k, err = d.key(); err != nil {
				return 0, err
			}
		}
		have = false
		i := -1
		for j := range fields {
			if string(k) == fields[j].name {
				i = j
				break
			}
		}
		if i < 0 {
			if mask, ok := stateFieldForks[string(k)]; ok {
				return 0, &DecodeError{Format: "json", Path: string(k), Offset: keyOff,
					Reason: fmt.Sprintf("not a field of %s %s state (it is %s): the version is wrong", article(s.Version), s.Version, forkRange(mask))}
			}
			if err := d.skipValue(0); err != nil {
				return 0, err
			}
			continue
		}
		if seen&(1<<i) != 0 {
			// A repeated key is refused rather than decoded again: the
			// last value would win, and each repeat of a list could
			// reserve memory for the rest of the input anew.
			return 0, &DecodeError{Format: "json", Path: fields[i].name, Offset: keyOff, Reason: "given twice (a field may come once in the state)"}
		}
		if at != nil {
			at[i] = keyOff
		}
		if err := d.field(s, fields[i]); err != nil {
			return 0, inField(err, fields[i].name)
		}
		seen |= 1 << i
	}
	return seen, nil
}

// missing reports the first field of fields not in seen.
func (d *jsonDecoder) missing(fields []field, seen uint64) error {
	i := bits.TrailingZeros64(^seen)
	return &DecodeError{Format: "json", Path: fields[i].name, Offset: d.offset(), Reason: "missing field"}
}
