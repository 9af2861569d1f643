package beacon

import (
	"context"
	"net/url"
	"strings"

	"github.com/nodeaccess/nodeaccess/beacon/internal/bridge"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// The hooks package beacon/light uses (see internal/bridge).
func init() {
	bridge.PayloadHeaderRoot = func(h any, fork uint8) [32]byte {
		return headerRoot(h.(*ExecutionPayloadHeader), Version(fork), MainnetPreset().MaxExtraDataBytes)
	}
	bridge.Fetch = func(ctx context.Context, c any, path string, query url.Values) (bridge.Raw, error) {
		return c.(*Client).fetchRaw(ctx, path, query)
	}
}

// fetchRaw is Get for a body in the client's encoding (SSZ or JSON): the
// body is copied out of the transport's buffer.
func (c *Client) fetchRaw(ctx context.Context, path string, query url.Values) (bridge.Raw, error) {
	if err := transport.NilContext(ctx); err != nil {
		return bridge.Raw{}, c.t.Wrap("get", err)
	}
	op := "/" + strings.TrimPrefix(path, "/")
	segs, err := c.pathSegments(path, query)
	if err != nil {
		return bridge.Raw{}, c.t.Wrap(c.t.MaskCut(op, maxQuoted), err)
	}
	req, err := c.newRequest(op, segs, query, c.enc.accept())
	if err != nil {
		return bridge.Raw{}, c.t.Wrap(op, err)
	}
	resp, err := c.t.Do(ctx, req)
	if err != nil {
		return bridge.Raw{}, c.t.Wrap(op, withMessage(err, c.t.Mask))
	}
	defer resp.Release()
	enc, err := c.responseEncoding(resp.Header.Get("Content-Type"))
	if err != nil {
		return bridge.Raw{}, c.t.Wrap(op, err)
	}
	return bridge.Raw{
		Body:    append([]byte(nil), resp.Body...),
		SSZ:     enc == EncodingSSZ,
		Version: strings.TrimSpace(resp.Header.Get("Eth-Consensus-Version")),
		Mask:    c.t.Mask,
	}, nil
}
