package ton

// The two prefixes of a bounced message's body: 32 one bits, then up to 256
// bits of the original body (the format before protocol version 12), and
// TEP 503's new_bounce_body#fffffffe (version 12 on, for a message whose
// ExtraFlags bit 0 was set).
const (
	bounceOld = 0xffffffff
	bounceNew = 0xfffffffe
	// bounceOldMax is how much of the original body the old format keeps.
	bounceOldMax = 256
)

// BounceBody is what the body of a bounced message says about the message
// that bounced, in either format (Message.ParseBounce reads it).
type BounceBody struct {
	// New is true for the format of protocol version 12 (TEP 503, body
	// prefix 0xfffffffe), which a sender asks for with ExtraFlags bit 0;
	// false for the older format (prefix 0xffffffff).
	New bool
	// Original is the start of the original message's body: the data bits
	// of its root cell, packed from the high bit of the first byte (the
	// bits after OriginalBits are zero). Its first 32 bits, when
	// OriginalBits is at least 32, are the original operation code, and
	// by convention the next 64 its query id. The old format keeps at
	// most 256 bits; the new one the root cell's whole data (up to 1023
	// bits), and, when the sender set ExtraFlags bit 1, the body's
	// references too, which are in Message.Body and not read here.
	Original []byte
	// OriginalBits is the number of bits in Original.
	OriginalBits int
	// Phase is the transaction phase that bounced the message, in the new
	// format: 0 the compute phase was skipped, 1 it failed, 2 the action
	// phase failed. 0 in the old format, which does not say.
	Phase uint8
	// ExitCode is the exit code of that phase, in the new format: for a
	// skipped compute phase -1 (no state), -2 (bad state), -3 (no gas) or
	// -4 (suspended); else the compute or action phase's result code. 0 in
	// the old format.
	ExitCode int32
}

// ParseBounce reads the body of a bounced message. It recognises both
// formats by the prefix of the body's root cell: 0xffffffff followed by at
// most 256 bits and no reference (the old format), or TEP 503's 0xfffffffe
// with the original body and the original message's value and times in
// two references, the phase, the exit code and the optional compute-phase
// figures (the new one). ok is false for any other body, for a body that
// does not follow its format to the bit, and for a message without Body
// (a text comment v2 decoded carries none).
//
// The body alone says it: servers do not decode it, and v2 servers do not
// send the bounced flag either. Where the server sends it (v3), Bounced
// tells a real bounce from a message someone sent with such a prefix.
func (m *Message) ParseBounce() (b BounceBody, ok bool) {
	if len(m.Body) == 0 {
		return BounceBody{}, false
	}
	bag, err := parseBOC(m.Body)
	if err != nil || len(bag.roots) != 1 {
		return BounceBody{}, false
	}
	root := bag.slice(bag.roots[0])
	if root.c.exotic {
		return BounceBody{}, false
	}
	prefix, err := root.loadUint(32)
	if err != nil {
		return BounceBody{}, false
	}
	switch prefix {
	case bounceOld:
		if root.bitsLeft() > bounceOldMax || root.refsLeft() != 0 {
			return BounceBody{}, false
		}
		b.Original, b.OriginalBits = root.loadRest()
		return b, true
	case bounceNew:
		b, err = parseNewBounce(&root)
		return b, err == nil
	}
	return BounceBody{}, false
}

// parseNewBounce reads new_bounce_body after its prefix: original_body:^Cell
// original_info:^NewBounceOriginalInfo bounced_by_phase:uint8 exit_code:int32
// compute_phase:(Maybe NewBounceComputePhaseInfo), the last present exactly
// when the compute phase ran (phase 1 or 2), as the validator writes it.
func parseNewBounce(s *cellSlice) (BounceBody, error) {
	b := BounceBody{New: true}
	if s.refsLeft() != 2 {
		return b, errBOC
	}
	body, err := s.loadRef()
	if err != nil {
		return b, err
	}
	if body.c.exotic {
		return b, errBOC
	}
	b.Original, b.OriginalBits = body.loadRest()
	info, err := s.loadRef()
	if err != nil || checkOriginalInfo(&info) != nil {
		return b, errBOC
	}
	phase, err := s.loadUint(8)
	if err != nil {
		return b, err
	}
	code, err := s.loadUint(32)
	if err != nil {
		return b, err
	}
	b.Phase, b.ExitCode = uint8(phase), int32(uint32(code))
	computed, err := s.loadUint(1)
	if err != nil || phase > 2 || (computed == 1) != (phase > 0) {
		return b, errBOC
	}
	if computed == 1 {
		if _, err := s.loadUint(64); err != nil { // gas_used:uint32 vm_steps:uint32
			return b, err
		}
	}
	if s.bitsLeft() != 0 {
		return b, errBOC
	}
	return b, nil
}

// checkOriginalInfo checks NewBounceOriginalInfo: value:CurrencyCollection
// (grams as VarUInteger 16, then extra currencies as a HashmapE: one bit, and
// a reference when it is 1) created_lt:uint64 created_at:uint32.
func checkOriginalInfo(s *cellSlice) error {
	if s.c.exotic {
		return errBOC
	}
	n, err := s.loadUint(4)
	if err != nil {
		return err
	}
	if err := s.skip(int(n) * 8); err != nil {
		return err
	}
	extra, err := s.loadUint(1)
	if err != nil {
		return err
	}
	if extra == 1 {
		if _, err := s.loadRef(); err != nil {
			return err
		}
	}
	if err := s.skip(64 + 32); err != nil {
		return err
	}
	if s.bitsLeft() != 0 || s.refsLeft() != 0 {
		return errBOC
	}
	return nil
}
