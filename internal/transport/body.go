package transport

import (
	"bytes"
	"io"
)

// inlineBody is the largest request body a bodyBox holds without a second
// allocation; JSON-RPC requests of this SDK are smaller.
const inlineBody = 512

// bodyBox is an attempt's own copy of the request body, with no allocation
// of its own when the body is small: it is part of the attempt's context
// (see attempt), or one allocation when the attempt has none. net/http may
// read a body after the attempt returned, so each attempt needs a copy
// nobody else reuses.
//
// The body net/http gets is a *bytes.Reader under io.NopCloser, a reader
// net/http knows to be in memory: it then writes the headers and the body
// in one write. Any other reader makes it flush the headers on their own
// first (in case reading the body blocks), which costs a second write and,
// on a TCP connection, two allocations (net's sendfile probe and
// io.Copy's buffer).
type bodyBox struct {
	data   []byte
	r      bytes.Reader
	inline [inlineBody]byte
}

// fill copies body into the empty box b.
func (b *bodyBox) fill(body []byte) {
	if len(body) <= len(b.inline) {
		b.data = b.inline[:copy(b.inline[:], body)]
	} else {
		b.data = bytes.Clone(body)
	}
	b.r.Reset(b.data)
}

// reader is the body for the attempt's request.
func (b *bodyBox) reader() io.ReadCloser { return io.NopCloser(&b.r) }

// getBody returns a fresh reader over the same bytes. net/http needs it to
// resend a request with a body when a pooled keep-alive connection turned out
// dead before anything was written.
func (b *bodyBox) getBody() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(b.data)), nil
}
