package beacon

// ReadOption adjusts one read of a state: a Client call (State,
// DownloadState) or ReadState. The options are WithProgress, WithoutVerify,
// WithRestart, WithProver, and a Preset itself (MinimalPreset(), say), which
// reads with that preset instead of the client's or the mainnet one.
//
// The options given to New configure a client once (its HTTP stack,
// retries, the encoding it asks for, the preset of its network); a
// ReadOption belongs to one read (a progress bar for this download, how to
// start this file over) and also serves ReadState, which has no client. An
// option that does not concern a read is ignored by it: WithoutVerify by
// all but State, WithRestart and WithProver by all but DownloadState, a
// Preset by DownloadState unless WithProver is given (it decodes nothing
// otherwise).
type ReadOption interface {
	applyRead(*readConfig)
}

// readConfig is what the ReadOptions of one read set.
type readConfig struct {
	decodeConfig
	presetSet bool
	progress  func(read, total int64)
	noVerify  bool
	restart   func() error
	prover    *Prover // WithProver's
}

type decodeConfig struct {
	preset Preset
	// sizeHint is the input's size (-1: unknown): Body.Bytes, a
	// Content-Length, or what the reader told; sizeKnown says that the
	// reader told it (or held at least as much), so that lists may be
	// allocated from it before their bytes arrive.
	sizeHint   int64
	sizeKnown  bool
	version    Version
	hasVersion bool
	// unsupported, when set, makes the error of a fork name in the body
	// that this package does not decode (the client's, which masks it).
	unsupported func(name string) error
}

// readOption is a ReadOption made of a function.
type readOption func(*readConfig)

func (o readOption) applyRead(c *readConfig) { o(c) }

func newReadConfig(opts []ReadOption) readConfig {
	c := readConfig{decodeConfig: decodeConfig{preset: MainnetPreset(), sizeHint: -1}}
	for _, o := range opts {
		if o != nil {
			o.applyRead(&c)
		}
	}
	return c
}

// applyRead makes a Preset a ReadOption: the read decodes with p instead of
// the client's preset (WithPreset) or the mainnet one. The zero Preset means
// MainnetPreset, as it does in State.Preset.
func (p Preset) applyRead(c *readConfig) {
	if p == (Preset{}) {
		p = MainnetPreset()
	}
	c.preset, c.presetSet = p, true
}

// WithProgress calls fn as the body arrives: each time another MiB has been
// read, and once more when the body ends, with the bytes read so far and
// the body's total size (its Content-Length, or for ReadState the Body's
// Bytes or the reader's size; -1 when unknown). fn runs on the calling goroutine,
// between reads, so a slow fn slows the read. When an attempt is retried
// after the body broke off, the next attempt counts from 0 again.
func WithProgress(fn func(read, total int64)) ReadOption {
	return readOption(func(c *readConfig) { c.progress = fn })
}

// WithoutVerify skips the check that State makes when the id is a state
// root (RootID): that the decoded state's hash tree root equals it. The check
// costs about a second on a mainnet state; skip it only for a node you trust.
func WithoutVerify() ReadOption {
	return readOption(func(c *readConfig) { c.noVerify = true })
}

// WithRestart lets DownloadState fetch a body that broke off again: reset
// is called before the next attempt writes, once for each such attempt, and
// must put the writer back to where the body should start (truncate and
// rewind a file to its size before the call, reset a buffer). Without it,
// a body that breaks off after its first byte was written ends the call,
// and DownloadState never seeks, truncates or rewrites the writer. An error
// from reset ends the call with that error. Other reads ignore it: they
// decode from the start again on each attempt.
func WithRestart(reset func() error) ReadOption {
	return readOption(func(c *readConfig) { c.restart = reset })
}
