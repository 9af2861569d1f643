package hyper

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

const maxDexName = 32

// checkDex validates a dex name before it is sent.
func checkDex(name string) error {
	if len(name) > maxDexName {
		return &nodeaccess.InputError{Arg: "dex", Reason: fmt.Sprintf("%s is longer than %d bytes", transport.Quote(name), maxDexName)}
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_') {
			return &nodeaccess.InputError{Arg: "dex", Reason: fmt.Sprintf("%s is not a dex name: want ASCII letters, digits, '-' or '_'", transport.Quote(name))}
		}
	}
	return nil
}

// AllMids asks the official public API (not the node, which does not serve
// it) for the mid price of every coin of a perp dex: POST {public}/info
// with {"type":"allMids"} for dex "", the first perp dex, the only one
// whose answer carries the spot mids, or {"type":"allMids","dex":"xyz"}
// for the builder-deployed perp dex named dex, whose keys have the form
// "xyz:COIN". The node's access key is never sent there. A dex name is up
// to 32 ASCII letters, digits, '-' or '_'; any other is refused before
// sending. A dex the public API does not know fails with an error matching
// nodeaccess.ErrNotFound ("unknown perp dex").
//
// The result tells the five key forms apart (perp "BTC", spot pair
// "PURR/USDC", spot index "@107", builder dex "xyz:CL", outcome side "#20")
// and looks a key up in one map access; see Mids. The request weighs 2 in
// the public API's weight budget.
func (c *Client) AllMids(ctx context.Context, dex string) (*Mids, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.node.Wrap("allMids", err)
	}
	const op = "allMids"
	if c.node.Mask(dex) != dex { // checked first, so that no message quotes it
		return nil, c.node.Wrap(op, &nodeaccess.InputError{Arg: "dex", Reason: "the dex name holds the access key"})
	}
	if err := checkDex(dex); err != nil {
		return nil, c.node.Wrap(op, err)
	}
	var buf [96]byte
	body := append(buf[:0], `{"type":"allMids"`...)
	if dex != "" {
		body = append(body, `,"dex":`...)
		body = appendJSONString(body, dex)
	}
	body = append(body, '}')
	t, resp, err := c.post(ctx, onPublic, op, body)
	if err != nil {
		return nil, err
	}
	defer resp.Release()
	if dex != "" && string(bytes.TrimSpace(resp.Body)) == "null" {
		return nil, c.node.Wrap(op, fmt.Errorf("dex %q: %w (the public API answered null)", dex, errUnknownDex))
	}
	mids, err := decode(t, &resp, func(b []byte) (*Mids, error) { return decodeMids(dex, b) })
	if err != nil {
		return nil, c.node.Wrap(op, err)
	}
	return mids, nil
}

// decodeMids decodes an allMids body: a JSON object from key to mid price,
// the price a decimal string (or number). A key given twice is an error, as
// is a price that is not a non-negative decimal.
func decodeMids(dex string, body []byte) (*Mids, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("allMids: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("allMids: want a JSON object, got %s", tokenKind(tok))
	}
	entries := make([]Mid, 0, len(body)/20)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("allMids: %v", err)
		}
		key, ok := tok.(string)
		if !ok { // the decoder allows only strings here; this is a guard
			return nil, fmt.Errorf("allMids: malformed object key")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("allMids: value of %s: %v", transport.Quote(key), err)
		}
		price, err := parseDecimal(raw)
		if err != nil {
			return nil, fmt.Errorf("allMids: price of %s: %v", transport.Quote(key), err)
		}
		if price.IsNegative() {
			return nil, fmt.Errorf("allMids: price of %s is negative", transport.Quote(key))
		}
		m := classify(key)
		m.Price = price
		entries = append(entries, m)
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, fmt.Errorf("allMids: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("allMids: data after the object")
	}
	return newMids(dex, entries)
}

// tokenKind names a JSON token for a message.
func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return string(t)
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "something else"
}
