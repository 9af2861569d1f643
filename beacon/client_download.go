package beacon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon/internal/progress"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// downloadBuf is the copy buffer of a download.
const downloadBuf = 256 << 10

// DownloadState writes the body of the state id names to w as it arrives,
// without decoding it: SSZ or JSON as negotiated (see WithEncoding), byte
// for byte, for a fork this package decodes or not (heze, after gloas, included). It
// returns the Body's description (encoding, fork, size, flags), which is
// all ReadState needs to decode the saved body later. A state asked for by
// its root is not verified here; ReadState and then HashTreeRoot do that.
//
// Nothing is written before the response's status and headers were checked
// (an error response, an unknown Content-Type or an SSZ body without its
// Eth-Consensus-Version header writes nothing). Retries: an attempt that
// fails before the body starts is retried as usual. Once bytes have gone to
// w, only the caller can say how to start w again, so what happens when the
// body breaks off is the caller's choice:
//
//   - by default the call fails at once, with an error matching
//     nodeaccess.ErrUnavailable and the cause, and w keeps what was
//     written (DownloadState never seeks, truncates or rewrites w);
//   - with WithRestart(reset), the body is fetched again while attempts
//     remain, and reset is called first, once before each attempt that
//     writes again, to put w back to where the body should start (truncate
//     a file, reset a buffer). An error from reset ends the call.
//
// On any error, w may hold part of a body after what it held before:
// discard that part. WithProgress reports the bytes as they are written;
// WithProver builds the state's Prover from them in the same pass.
func (c *Client) DownloadState(ctx context.Context, id StateID, w io.Writer, opts ...ReadOption) (Body, error) {
	if err := transport.NilContext(ctx); err != nil {
		return Body{}, c.t.Wrap(opState, err)
	}
	cfg := newReadConfig(opts)
	if w == nil {
		return Body{}, c.t.Wrap(opState, &nodeaccess.InputError{Arg: "w", Reason: "nil io.Writer"})
	}
	at, err := c.checkProverTee(&cfg, w)
	if err != nil {
		return Body{}, c.t.Wrap(opState, err)
	}
	req, err := c.request(opState, id)
	if err != nil {
		return Body{}, c.t.Wrap(opState, err)
	}
	dl := downloader{c: c, w: w, at: at, cfg: &cfg, buf: make([]byte, downloadBuf)}
	if err := c.t.Stream(ctx, req, dl.attempt); err != nil {
		return Body{}, c.t.Wrap(opState, stateError(err, id, c.t.Mask, c.enc))
	}
	return dl.out, nil
}

// downloader is one DownloadState call; attempt runs once per HTTP attempt.
type downloader struct {
	c       *Client
	w       io.Writer
	at      io.ReaderAt // w, for WithProver
	cfg     *readConfig
	buf     []byte
	written int64 // bytes the last attempt that wrote has written
	out     Body
}

func (d *downloader) attempt(r *transport.Response) error {
	d.out = Body{}
	ct := r.Header.Get("Content-Type")
	enc, err := d.c.responseEncoding(ct)
	if err != nil {
		return err
	}
	fork := strings.TrimSpace(r.Header.Get("Eth-Consensus-Version"))
	if fork == "" && enc == EncodingSSZ {
		return fmt.Errorf("%w: an SSZ body without an Eth-Consensus-Version header names no fork, so it could not be decoded later", nodeaccess.ErrInvalidResponse)
	}
	if d.written > 0 { // an earlier attempt wrote part of a body (so restart is set)
		if err := d.cfg.restart(); err != nil {
			return transport.Final(fmt.Errorf("WithRestart: %w", err))
		}
		d.written = 0
	}
	var tee *proverTee
	if d.cfg.prover != nil {
		if tee, err = d.c.startProverTee(d.cfg, enc, fork, r.ContentLength, d.at); err != nil {
			return transport.Final(err)
		}
		defer tee.abort()
	}
	pr := progress.New(r.Stream, d.cfg.progress, r.ContentLength)
	var env *envelopeScanner
	if enc == EncodingJSON {
		env = &envelopeScanner{}
	}
	for {
		n, rerr := pr.Read(d.buf)
		if n > 0 {
			if env != nil {
				env.write(d.buf[:n])
			}
			m, werr := d.w.Write(d.buf[:n])
			d.written += int64(m)
			if werr == nil && m < n {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				return transport.Final(fmt.Errorf("writing the state after %d bytes: %w", d.written, werr))
			}
			if tee != nil {
				if err := tee.write(d.buf[:n]); err != nil {
					return transport.Final(decodeFailure(err, d.c.t.Mask))
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if d.written > 0 && d.cfg.restart == nil && !errors.Is(rerr, nodeaccess.ErrResponseTooLarge) {
				return transport.Final(fmt.Errorf("%w: the body broke off after %d bytes had been written (WithRestart lets the call fetch it again): %w",
					nodeaccess.ErrUnavailable, d.written, rerr))
			}
			return rerr
		}
	}
	if tee != nil {
		p, err := tee.finish()
		if err != nil {
			return transport.Final(decodeFailure(err, d.c.t.Mask))
		}
		*d.cfg.prover = *p
	}
	d.out = Body{Fork: d.c.t.MaskCut(fork, maxQuoted), Encoding: enc, ContentType: d.c.t.Mask(ct), Bytes: d.written}
	if env != nil {
		version, flags := env.result()
		if d.out.Fork == "" {
			d.out.Fork = d.c.t.MaskCut(version, maxQuoted)
		}
		d.out.Flags = flags
	}
	return nil
}
