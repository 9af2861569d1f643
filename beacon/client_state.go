package beacon

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon/internal/progress"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// opState names the state calls in errors, hooks and logs (the beacon API's
// operationId of the route).
const opState = "getStateV2"

// State fetches the state id names and decodes it while it streams in,
// without holding the body in memory: with the decoder the response's
// Content-Type selects (SSZ or JSON, whatever was asked for), the fork the
// Eth-Consensus-Version header names, the body's Content-Length as the
// decoder's size hint, and the client's preset.
//
// When id is a state root (RootID), the decoded state's hash tree root must
// equal it; otherwise the call fails with an error matching ErrIntegrity
// (and nodeaccess.ErrInvalidResponse) and returns no state. WithoutVerify skips the check.
//
// Errors: a zero or bad id, a *nodeaccess.InputError with nothing sent; an
// error response, the *nodeaccess.HTTPError with the node's message
// (ErrDebugDisabled when the node does not serve the debug routes,
// nodeaccess.ErrNotFound when the state is not there); a
// fork this package cannot decode (such as heze, the fork after gloas), an error matching
// ErrUnsupportedVersion that names it (DownloadState still saves such a
// state); a body that is not a valid state, an error matching both
// nodeaccess.ErrInvalidResponse and ErrInvalidState (with the *DecodeError);
// an SSZ body without an Eth-Consensus-Version header or a Content-Type that
// is neither SSZ nor JSON, nodeaccess.ErrInvalidResponse. A body that breaks
// off is fetched again while attempts remain (decoding starts over), then
// fails with nodeaccess.ErrUnavailable.
//
// Memory: the decoded state (about the size of the SSZ body, ~300 MB for
// mainnet) plus the decoder's working space; the body is never buffered
// whole. The Content-Length is a claim that sizes nothing: the lists grow
// as their bytes arrive, and the process's peak is about twice the SSZ
// size (ReadState from a saved file allocates each list once).
func (c *Client) State(ctx context.Context, id StateID, opts ...ReadOption) (*State, Body, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, Body{}, c.t.Wrap(opState, err)
	}
	cfg := newReadConfig(opts)
	req, err := c.request(opState, id)
	if err != nil {
		return nil, Body{}, c.t.Wrap(opState, err)
	}
	var (
		st   *State
		body Body
	)
	err = c.t.Stream(ctx, req, func(r *transport.Response) error {
		st, body = nil, Body{} // a retried attempt starts over
		var err error
		st, body, err = c.decodeState(r, &cfg)
		return err
	})
	if err != nil {
		return nil, Body{}, c.t.Wrap(opState, stateError(err, id, c.t.Mask, c.enc))
	}
	if root, ok := id.root(); ok && !cfg.noVerify {
		got, err := st.hashTreeRoot()
		if err != nil {
			return nil, Body{}, c.t.Wrap(opState, fmt.Errorf("%w: hash tree root of the decoded state: %w", nodeaccess.ErrInvalidResponse, err))
		}
		if got != root {
			return nil, Body{}, c.t.Wrap(opState, integrityError(root, got))
		}
	}
	return st, body, nil
}

// decodeState decodes one attempt's body.
func (c *Client) decodeState(r *transport.Response, cfg *readConfig) (*State, Body, error) {
	ct := r.Header.Get("Content-Type")
	enc, err := c.responseEncoding(ct)
	if err != nil {
		return nil, Body{}, err
	}
	fork := r.Header.Get("Eth-Consensus-Version")
	var (
		v       Version
		hasFork = strings.TrimSpace(fork) != ""
	)
	if hasFork {
		if v, err = ParseVersion(fork); err != nil {
			return nil, Body{}, unsupportedFork(fork, c.t.Mask)
		}
	} else if enc == EncodingSSZ {
		return nil, Body{}, fmt.Errorf("%w: an SSZ body without an Eth-Consensus-Version header cannot be decoded (the header is the only place that names its fork)", nodeaccess.ErrInvalidResponse)
	}
	pr := progress.New(r.Stream, cfg.progress, r.ContentLength)
	dc := decodeConfig{preset: c.preset, sizeHint: r.ContentLength, version: v, hasVersion: hasFork}
	if cfg.presetSet { // a Preset given to this call
		dc.preset = cfg.preset
	}
	dc.unsupported = func(name string) error { return unsupportedFork(name, c.t.Mask) }
	var (
		st    *State
		flags *Flags
	)
	switch enc {
	case EncodingSSZ:
		st, err = decodeSSZ(pr, v, dc.preset, dc.sizeHint, false)
	default:
		st, flags, err = decodeJSON(pr, dc, v, hasFork)
	}
	if err != nil {
		return nil, Body{}, decodeFailure(err, c.t.Mask)
	}
	if st == nil {
		return nil, Body{}, fmt.Errorf("%w: the decoder returned no state", nodeaccess.ErrInvalidResponse)
	}
	if hasFork && st.Version != v {
		return nil, Body{}, fmt.Errorf("%w: the Eth-Consensus-Version header says %s, the body is %s %s state", nodeaccess.ErrInvalidResponse, v, article(st.Version), st.Version)
	}
	pr.Finish()
	if flags != nil {
		f := *flags // the response's own copy
		flags = &f
	}
	return st, Body{Encoding: enc, Fork: st.Version.String(), Bytes: pr.N(), ContentType: c.t.Mask(ct), Flags: flags}, nil
}

// responseEncoding reads a response's Content-Type. Parameters (charset)
// are ignored. A response without one is taken to be in the encoding asked
// for, when only one was asked for.
func (c *Client) responseEncoding(ct string) (Encoding, error) {
	if strings.TrimSpace(ct) == "" {
		if c.enc != EncodingAuto {
			return c.enc, nil
		}
		return 0, fmt.Errorf("%w: the response has no Content-Type, so neither SSZ nor JSON can be chosen", nodeaccess.ErrInvalidResponse)
	}
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case err != nil:
	case mt == mediaSSZ:
		return EncodingSSZ, nil
	case mt == mediaJSON:
		return EncodingJSON, nil
	}
	return 0, fmt.Errorf("%w: Content-Type %q is neither application/octet-stream (SSZ) nor application/json", nodeaccess.ErrInvalidResponse, c.t.MaskCut(ct, maxQuoted))
}

// decodeFailure shapes a decoder's error: a *DecodeError becomes an error
// matching nodeaccess.ErrInvalidResponse and ErrInvalidState, with the
// access key masked in its path and reason.
func decodeFailure(err error, mask func(string) string) error {
	var de *DecodeError
	if errors.As(err, &de) {
		cp := *de // the key masked, should the body have echoed it
		cp.Reason, cp.Path, cp.inCall = mask(de.Reason), mask(de.Path), true
		return fmt.Errorf("%w: %w", nodeaccess.ErrInvalidResponse, &cp)
	}
	return err
}

// unsupportedFork is the error of a response whose fork (from the
// Eth-Consensus-Version header or the JSON body) this package does not
// decode: it matches ErrUnsupportedVersion and nodeaccess.ErrInvalidResponse
// (an answer it cannot read), with the name masked and cut.
func unsupportedFork(name string, mask func(string) string) error {
	return fmt.Errorf("%w: %w %q: this package decodes phase0 to %s (DownloadState still saves such a state undecoded)",
		nodeaccess.ErrInvalidResponse, ErrUnsupportedVersion, quoteCap(mask(name)), newestFork)
}

// quoteCap cuts a server's value to a length fit for a message.
func quoteCap(s string) string { return transport.Cut(s, maxQuoted) }
