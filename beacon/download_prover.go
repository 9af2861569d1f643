package beacon

import (
	"errors"
	"fmt"
	"io"

	"github.com/nodeaccess/nodeaccess"
)

// WithProver makes DownloadState build a Prover of the state while it
// saves the body, in the same pass (what ReadProver builds from the saved
// file afterwards), and set *p to it when the call succeeds: the body is
// hashed as it is written, its lists' upper levels kept, and proofs read
// the rest back from the writer, which must therefore also be an
// io.ReaderAt (an *os.File from os.Create) and must not change while the
// Prover is in use. The body must be SSZ of a fork this package decodes,
// with the client's preset or the Preset given to the call:
//
//	f, err := os.Create("state.ssz")
//	var p beacon.Prover
//	d, err := c.DownloadState(ctx, beacon.Finalized, f, beacon.WithProver(&p))
//	g, err := p.GIndexOf("validators", 12345)
//	pr, err := p.Prove(g)
//
// A JSON body, a fork this package does not decode, or a body that is not
// a valid state fails the call (the file keeps what was written). Other
// reads ignore it.
func WithProver(p *Prover) ReadOption {
	return readOption(func(c *readConfig) { c.prover = p })
}

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
// WithProver can build one: w reads back, and SSZ may be answered.
func (c *Client) checkProverTee(cfg *readConfig, w io.Writer) (io.ReaderAt, error) {
	if cfg.prover == nil {
		return nil, nil
	}
	at, ok := w.(io.ReaderAt)
	if !ok {
		return nil, &nodeaccess.InputError{Arg: "w", Reason: fmt.Sprintf("WithProver needs a writer that is also an io.ReaderAt (an *os.File), to read the state back from; %T is not", w)}
	}
	if c.enc == EncodingJSON {
		return nil, &nodeaccess.InputError{Arg: "WithProver", Reason: "needs an SSZ body, and the client asks for JSON (WithEncoding)"}
	}
	return at, nil
}

// startProverTee starts building the Prover of a body of encoding enc and
// fork, size bytes (-1: unknown).
func (c *Client) startProverTee(cfg *readConfig, enc Encoding, fork string, size int64, at io.ReaderAt) (*proverTee, error) {
	if enc != EncodingSSZ {
		return nil, fmt.Errorf("%w: WithProver needs an SSZ body, and the node answered %s", nodeaccess.ErrInvalidResponse, enc)
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
