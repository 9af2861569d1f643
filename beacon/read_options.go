package beacon

import (
	"strings"

	"github.com/nodeaccess/nodeaccess"
)

// The settings of one read of a state. The options given to New configure
// a client once (its HTTP stack, retries, the encoding it asks for, the
// preset of its network); these structs belong to one read: a progress
// bar for this download, how to start this file over. Each kind of read
// has its own, holding only the settings that concern it, and each one's
// zero value reads with the defaults.

// StateOptions are the settings of one Client.State call; the zero value
// decodes with the client's preset, reports no progress and verifies a
// state asked for by its root.
type StateOptions struct {
	// Preset decodes this call's state with this preset instead of the
	// client's (WithPreset); the zero Preset means the client's.
	Preset Preset
	// Progress, when set, is called as the body arrives: each time another
	// MiB has been read, and once more when the body ends, with the bytes
	// read so far and the body's Content-Length (-1 when the response has
	// none). It runs on the calling goroutine, between reads, so a slow
	// Progress slows the read. When an attempt is retried after the body
	// broke off, the next attempt counts from 0 again.
	Progress func(read, total int64)
	// SkipVerify skips the check State makes when the id is a state root
	// (RootID): that the decoded state's hash tree root equals it. The
	// check costs about a second on a mainnet state; skip it only for a
	// node you trust.
	SkipVerify bool
}

// DownloadOptions are the settings of one Client.DownloadState call; the
// zero value saves the body as it arrives, reports no progress, ends the
// call when a body breaks off after its first byte was written, and
// builds no Prover.
type DownloadOptions struct {
	// Progress is called as the body is written, as StateOptions.Progress
	// is as it is decoded.
	Progress func(read, total int64)
	// Restart, when set, lets DownloadState fetch a body that broke off
	// again: it is called before the next attempt writes, once for each
	// such attempt, and must put the writer back to where the body should
	// start (truncate and rewind a file to its size before the call, reset
	// a buffer). Without it, a body that breaks off after its first byte
	// was written ends the call, and DownloadState never seeks, truncates
	// or rewrites the writer. An error from Restart ends the call with
	// that error.
	Restart func() error
	// Prover, when set, makes DownloadState build a Prover of the state
	// while it saves the body, in the same pass (what ReadProver builds
	// from the saved file afterwards), and set *Prover to it when the call
	// succeeds. The writer must then also be an io.ReaderAt (an *os.File
	// from os.Create), which proofs read the lists back from, and must not
	// change while the Prover is in use; the body must be SSZ of a fork
	// this package decodes. A JSON body, a fork this package does not
	// decode, or a body that is not a valid state fails the call (the
	// writer keeps what was written).
	Prover *Prover
	// Preset builds the Prover with this preset instead of the client's
	// (WithPreset); the zero Preset means the client's. Only the Prover
	// reads the state, so a Preset without a Prover is refused with a
	// *nodeaccess.InputError before anything is sent.
	Preset Preset
}

// ReadOptions are the settings of one ReadState or ReadProver call; the
// zero value reads with the mainnet preset and reports no progress.
type ReadOptions struct {
	// Preset reads a state of this preset (MinimalPreset(), for a devnet
	// or the consensus-specs test vectors); the zero Preset means
	// MainnetPreset.
	Preset Preset
	// Progress, when set, is called as the input is read: each time
	// another MiB has been read, and once more at its end, with the bytes
	// read so far and the input's size (the Body's Bytes or what the
	// reader tells; -1 when unknown). It runs on the calling goroutine,
	// between reads.
	Progress func(read, total int64)
}

// readConfig is what the settings of one read set.
type readConfig struct {
	decodeConfig
	presetSet bool // preset was given to this read (else: the client's)
	progress  func(read, total int64)
	noVerify  bool
	restart   func() error
	prover    *Prover
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

// newReadConfig returns the configuration of a read with preset p (the
// zero Preset: not given, so the client's, or else the mainnet one).
func newReadConfig(p Preset, progress func(read, total int64)) readConfig {
	c := readConfig{decodeConfig: decodeConfig{preset: MainnetPreset(), sizeHint: -1}, progress: progress}
	if p != (Preset{}) {
		c.preset, c.presetSet = p, true
	}
	return c
}

// checkPreset checks a Preset given to one client call (arg names the
// field) before anything is sent, as WithPreset checks the client's.
func (c *readConfig) checkPreset(arg string) error {
	if !c.presetSet {
		return nil
	}
	if err := c.preset.validate(); err != nil {
		return &nodeaccess.InputError{Arg: arg, Reason: strings.TrimPrefix(err.Error(), "beacon: ")}
	}
	return nil
}

func (o ReadOptions) config() readConfig { return newReadConfig(o.Preset, o.Progress) }

func (o StateOptions) config() readConfig {
	c := newReadConfig(o.Preset, o.Progress)
	c.noVerify = o.SkipVerify
	return c
}

func (o DownloadOptions) config() readConfig {
	c := newReadConfig(o.Preset, o.Progress)
	c.restart, c.prover = o.Restart, o.Prover
	return c
}
