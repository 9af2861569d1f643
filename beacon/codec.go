package beacon

import (
	"bytes"
	"fmt"
	"io"

	"github.com/nodeaccess/nodeaccess"
)

// Body describes a state's body as a node sends it: its encoding, its
// fork, its size and, for JSON, the flags beside it. Client.State and
// Client.DownloadState return one; ReadState takes one to decode a body
// saved earlier, so that what DownloadState returned is all a later run
// needs to keep with the file.
type Body struct {
	// Encoding is EncodingSSZ or EncodingJSON, as the response's
	// Content-Type said.
	Encoding Encoding
	// Fork is the state's fork as the node named it in the
	// Eth-Consensus-Version header ("fulu", or a fork this package does not
	// decode, such as "heze"); for a JSON body sent without the header, the
	// body's "version" member, before or after "data" (Lodestar sends it
	// after); "" when neither named it. ReadState needs it for SSZ, which
	// names no fork of its own; for JSON it gives the fork of a bare data
	// object, or is checked against the envelope's "version" ("": any).
	Fork string
	// Bytes is the body's size. ReadState takes it as the input's size
	// when it is above 0 (for SSZ, the input must be exactly that long),
	// and otherwise asks the reader, when the reader can tell (a file, an
	// in-memory reader). A reader that tells it holds less than Bytes (a
	// file cut short since it was saved) is refused; over one that cannot
	// tell, Bytes is a claim that nothing is allocated for.
	Bytes int64
	// ContentType is the response's Content-Type header; ReadState does
	// not read it.
	ContentType string
	// Flags holds execution_optimistic and finalized for a JSON body that
	// has both, once each, as booleans (true, or the string "true"),
	// before or after "data"; nil otherwise, and always nil for SSZ, which
	// does not carry them. ReadState does not read it.
	Flags *Flags
}

// Flags are the execution_optimistic and finalized flags a beacon node
// sends beside a JSON state. SSZ responses do not carry them.
type Flags struct {
	// ExecutionOptimistic is true when the state refers to an execution
	// payload not yet verified, which may still be invalidated.
	ExecutionOptimistic bool
	// Finalized is true when the state is in the finalized history of the
	// chain.
	Finalized bool
}

// ReadState decodes one state from r as it streams: the body of a beacon
// API state response (saved by DownloadState, fetched elsewhere, or
// written by WriteState) or any SSZ or JSON state. b says how: its
// Encoding (EncodingSSZ or EncodingJSON), its Fork (required for SSZ) and
// its Bytes, when known; pass what DownloadState returned. Nothing reads the
// input whole into memory. The options are a Preset (MinimalPreset(), for a
// devnet or the consensus-specs test vectors; the mainnet preset
// otherwise) and WithProgress.
//
// SSZ is read strictly as the SSZ specification defines it: offsets in
// order and in range, lists within the preset's limits, vectors of the
// preset's length, booleans 0 or 1, bitlists with their length bit, no
// trailing bytes. With the input's size told by the reader (a file, an
// in-memory reader) every list is allocated once with its exact length,
// about 1.05 × the SSZ size in all. Over a stream that cannot tell, b.Bytes
// checks the offsets but is only a claim: the lists grow as their bytes
// arrive, so an input that claims more than it holds costs no more than a
// small multiple of what it holds. A *bytes.Buffer is decoded in place,
// its validators on all cores, and drained.
//
// JSON is the beacon API's envelope {version, execution_optimistic,
// finalized, data}, its keys in any order (Lodestar sends "data" first),
// or a bare data object whose fork b.Fork gives. Integers are decimal
// strings (bare JSON numbers are accepted too, but not negative numbers,
// fractions, leading zeros or values beyond the type), bytes are
// 0x-prefixed hex of exactly the type's length (either case), bitfields
// the hex of their SSZ bytes, booleans JSON booleans or the strings "true"
// and "false"; any character of a string may be a JSON escape. Unknown keys
// are skipped; a missing field, a field of another fork, or a key given
// twice is an error. The returned Flags are those of the envelope (missing
// ones read as false), nil for a bare object and for SSZ. A list in the
// input is never nil in the State, even when empty.
//
// Errors: a bad b (another encoding, an SSZ body without a fork) is a
// *nodeaccess.InputError; a fork this package does not decode, in b or in
// the envelope, an error matching ErrUnsupportedVersion; input that is not
// a valid state a *DecodeError (matching ErrInvalidState) naming the field
// and the byte offset, which also matches io.ErrUnexpectedEOF when the
// input ends early (a reader that tells it holds fewer bytes than b.Bytes
// ends early before anything is decoded, and the error says both sizes);
// a failure of r itself is returned wrapped.
func ReadState(r io.Reader, b Body, opts ...ReadOption) (*State, *Flags, error) {
	cfg := newReadConfig(opts)
	if err := cfg.preset.validate(); err != nil {
		return nil, nil, err
	}
	switch b.Encoding {
	case EncodingSSZ:
		if b.Fork == "" {
			return nil, nil, &nodeaccess.InputError{Arg: "Body.Fork", Reason: "empty: an SSZ body names no fork of its own"}
		}
		v, err := ParseVersion(b.Fork)
		if err != nil {
			return nil, nil, err
		}
		if buf, ok := r.(*bytes.Buffer); ok && (b.Bytes <= 0 || b.Bytes == int64(buf.Len())) {
			st, err := unmarshalSSZ(buf.Bytes(), v, cfg.preset)
			if err == nil {
				if cfg.progress != nil {
					cfg.progress(int64(buf.Len()), int64(buf.Len()))
				}
				buf.Reset()
			}
			return st, nil, err
		}
		if cfg.sizeHint, cfg.sizeKnown, err = inputSize(r, b.Bytes, "ssz"); err != nil {
			return nil, nil, err
		}
		st, err := readSSZ(r, v, cfg.preset, cfg.sizeHint, cfg.sizeKnown, cfg.progress)
		return st, nil, err
	case EncodingJSON:
		if b.Fork != "" {
			v, err := ParseVersion(b.Fork)
			if err != nil {
				return nil, nil, err
			}
			cfg.version, cfg.hasVersion = v, true
		}
		var err error
		if cfg.sizeHint, cfg.sizeKnown, err = inputSize(r, b.Bytes, "json"); err != nil {
			return nil, nil, err
		}
		return readJSON(r, cfg.decodeConfig, cfg.progress)
	}
	return nil, nil, &nodeaccess.InputError{Arg: "Body.Encoding", Reason: fmt.Sprintf("%s is not a body encoding (want EncodingSSZ or EncodingJSON)", b.Encoding)}
}

// WriteState writes s to w in the encoding enc, EncodingSSZ or
// EncodingJSON, as a beacon node serves it: SSZ, or the beacon API's JSON
// response {"version":…,"execution_optimistic":…,"finalized":…,"data":…}
// (compact, keys in the consensus specs' order, integers as decimal
// strings, bytes as lower-case 0x-hex), the flags from f (without f, the
// envelope has only "version" and "data"). SSZ carries no flags: f must be
// nil. ReadState reads either back.
//
// s is checked first: a known Version, a valid preset, vectors of exactly
// the preset's length, lists within its limits, no field of another fork
// set, well-formed bitfields, an SSZ encoding within 4 GiB. A state that
// fails is an error naming the field, and nothing is written. The output
// streams through one bounded buffer (64 KiB for SSZ, 256 KiB for JSON), so
// a mainnet state is never built whole; a *bytes.Buffer grows once to the
// SSZ size. A failure of w is returned wrapped.
func WriteState(w io.Writer, s *State, enc Encoding, f *Flags) error {
	switch enc {
	case EncodingSSZ:
		if f != nil {
			return &nodeaccess.InputError{Arg: "f", Reason: "SSZ carries no flags (give nil)"}
		}
		return s.encodeSSZ(w)
	case EncodingJSON:
		return s.encodeJSON(w, f)
	}
	return &nodeaccess.InputError{Arg: "enc", Reason: fmt.Sprintf("%s is not a body encoding (want EncodingSSZ or EncodingJSON)", enc)}
}
