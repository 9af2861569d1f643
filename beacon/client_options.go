package beacon

import (
	"fmt"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// Defaults of the state calls. nodeaccess.WithTimeout and
// nodeaccess.WithMaxResponseBytes replace them for a client.
const (
	// stateTimeout is the per-attempt timeout of the state calls:
	// long enough for a mainnet state's ~900 MB of JSON at about 1 MB/s,
	// decoding included. The context passed to a call still bounds the call
	// as a whole; a stalled connection is only noticed when this timeout or
	// the context ends the attempt, so pass a shorter WithTimeout on fast
	// links.
	stateTimeout = 15 * time.Minute
	// maxStateBytes caps a state body: 4 GiB, over four times a
	// mainnet state's JSON and over ten times its SSZ. A larger body fails with nodeaccess.ErrResponseTooLarge.
	maxStateBytes = 4 << 30
)

// Encoding selects the body format a client asks for.
type Encoding uint8

// The encodings.
const (
	// EncodingAuto asks for SSZ and accepts JSON
	// ("Accept: application/octet-stream;q=1,application/json;q=0.9"). The
	// default: SSZ is a third of the size and decodes faster; nodes that
	// cannot serve SSZ answer JSON.
	EncodingAuto Encoding = iota
	// EncodingSSZ asks for SSZ only ("Accept: application/octet-stream").
	EncodingSSZ
	// EncodingJSON asks for JSON only ("Accept: application/json"). Only
	// JSON responses carry the execution_optimistic and finalized flags.
	EncodingJSON
)

var encodingNames = [...]string{"auto", "ssz", "json"}

// String returns "auto", "ssz" or "json".
func (e Encoding) String() string {
	if int(e) < len(encodingNames) {
		return encodingNames[e]
	}
	return fmt.Sprintf("Encoding(%d)", uint8(e))
}

// accept returns the Accept header of e.
func (e Encoding) accept() string {
	switch e {
	case EncodingSSZ:
		return mediaSSZ
	case EncodingJSON:
		return mediaJSON
	}
	return acceptAuto
}

const (
	mediaSSZ   = "application/octet-stream"
	mediaJSON  = "application/json"
	acceptAuto = "application/octet-stream;q=1,application/json;q=0.9"
)

type encodingKey struct{}
type presetKey struct{}

// Option configures a Client when New makes it: a setting every client
// takes (the With… functions of package nodeaccess), or one of this
// package's With… functions, which another package's New refuses. It is
// nodeaccess.Option, so one slice of options serves clients of several
// chains.
type Option = nodeaccess.Option

// option makes an option of this package, called pkg.name in errors.
func option(name string, f config.Func) Option {
	return transport.Option("beacon", "beacon."+name, f)
}

// WithEncoding sets the body format the client asks for (EncodingAuto by
// default). Whatever was asked, each response is decoded by its own
// Content-Type, so a node that answers JSON to a request for SSZ still works.
func WithEncoding(e Encoding) Option {
	return option("WithEncoding", func(c *config.Config) error {
		if e > EncodingJSON {
			return fmt.Errorf("beacon: WithEncoding: unknown encoding %d", uint8(e))
		}
		c.SetExt(encodingKey{}, e)
		return nil
	})
}

// WithPreset sets the preset states are decoded with: MainnetPreset (the
// default; mainnet, Sepolia, Holesky, Hoodi) or MinimalPreset (devnets, the
// consensus-specs test vectors), or a custom one, which is checked here
// (see Preset). The zero Preset means MainnetPreset, as it does in
// State.Preset and as a ReadOption.
func WithPreset(p Preset) Option {
	return option("WithPreset", func(c *config.Config) error {
		if p == (Preset{}) {
			p = MainnetPreset()
		}
		if err := p.validate(); err != nil {
			return fmt.Errorf("beacon: WithPreset: %w", err)
		}
		c.SetExt(presetKey{}, p)
		return nil
	})
}
