package beacon

import (
	"errors"
	"fmt"
	"io"

	"github.com/nodeaccess/nodeaccess"
)

// proverTee is the Prover that DownloadState builds from the body it
// writes, in a goroutine reading from a pipe.
type proverTee struct {
	pw   *io.PipeWriter
	done chan struct{}
	p    *Prover
	err  error
}

// errAborted ends a tee whose attempt failed.
var errAborted = errors.New("beacon: the download attempt ended")

// checkProverTee checks before anything is sent that a call with
// DownloadOptions.Prover can build one: w reads back, and SSZ may be
// answered; and that a call without one was given no Preset, which only
// the Prover reads.
func (c *Client) checkProverTee(cfg *readConfig, w io.Writer) (io.ReaderAt, error) {
	if cfg.prover == nil {
		if cfg.presetSet {
			return nil, &nodeaccess.InputError{Arg: "DownloadOptions.Preset", Reason: fmt.Sprintf("preset %q given without DownloadOptions.Prover, the only part of a download that reads the state", quoteCap(cfg.preset.Name))}
		}
		return nil, nil
	}
	at, ok := w.(io.ReaderAt)
	if !ok {
		return nil, &nodeaccess.InputError{Arg: "w", Reason: fmt.Sprintf("DownloadOptions.Prover needs a writer that is also an io.ReaderAt (an *os.File), to read the state back from; %T is not", w)}
	}
	if c.enc == EncodingJSON {
		return nil, &nodeaccess.InputError{Arg: "DownloadOptions.Prover", Reason: "needs an SSZ body, and the client asks for JSON (WithEncoding)"}
	}
	return at, nil
}

// startProverTee starts building the Prover of a body of encoding enc and
// fork, size bytes (-1: unknown).
func (c *Client) startProverTee(cfg *readConfig, enc Encoding, fork string, size int64, at io.ReaderAt) (*proverTee, error) {
	if enc != EncodingSSZ {
		return nil, fmt.Errorf("%w: DownloadOptions.Prover needs an SSZ body, and the node answered %s", nodeaccess.ErrInvalidResponse, enc)
	}
	v, err := ParseVersion(fork)
	if err != nil {
		return nil, unsupportedFork(fork, c.t.Mask)
	}
	preset := c.preset
	if cfg.presetSet {
		preset = cfg.preset
	}
	pr, pw := io.Pipe()
	t := &proverTee{pw: pw, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		t.p, t.err = streamProver(pr, v, preset, size, false, at) // a Content-Length is only claimed
		if t.err != nil {
			pr.CloseWithError(t.err) // the writer stops with the decoder's error
		} else {
			pr.Close()
		}
	}()
	return t, nil
}

// write hands the next bytes of the body to the Prover.
func (t *proverTee) write(b []byte) error {
	if _, err := t.pw.Write(b); err != nil {
		<-t.done
		if t.err != nil {
			return t.err
		}
		return err
	}
	return nil
}

// finish ends the body and returns the Prover.
func (t *proverTee) finish() (*Prover, error) {
	t.pw.Close()
	<-t.done
	return t.p, t.err
}

// abort stops a tee that has not finished.
func (t *proverTee) abort() {
	t.pw.CloseWithError(errAborted)
	<-t.done
}
