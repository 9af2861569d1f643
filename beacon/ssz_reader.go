package beacon

import (
	"errors"
	"fmt"
	"io"
)

// readBufSize is the streaming decoder's read buffer: the only scratch
// memory it uses, whatever the input's size.
const readBufSize = 64 << 10

// errTruncated is returned by sszReader when the input ends early; the
// decoder turns it into a *DecodeError that wraps io.ErrUnexpectedEOF.
var errTruncated = errors.New("truncated")

// sszReader hands out the input a few bytes at a time, from a byte slice
// (ReadState over a *bytes.Buffer: no copy) or from an io.Reader through one
// bounded buffer (ReadState over any other reader). It tracks the absolute offset and the end of the current
// field's scope.
type sszReader struct {
	src    io.Reader // nil when reading from all
	all    []byte    // the whole input (slice mode)
	buf    []byte    // stream mode: buf[r:w] is read but not consumed
	r, w   int
	pos    int64 // absolute offset of the next byte to consume
	size   int64 // the input's total size, -1 when unknown
	srcEOF bool  // the source returned io.EOF
	srcErr error // the source's own failure (not io.EOF)
}

// next returns the next n bytes and consumes them. It fails with errTruncated at the end of the input, or with
// the source's error. The slice is valid until the next call.
func (r *sszReader) next(n int) ([]byte, error) {
	if r.src == nil {
		if int64(len(r.all))-r.pos < int64(n) {
			r.pos = int64(len(r.all))
			return nil, errTruncated
		}
		b := r.all[r.pos : r.pos+int64(n)]
		r.pos += int64(n)
		return b, nil
	}
	if r.w-r.r < n {
		if err := r.fill(n); err != nil {
			return nil, err
		}
	}
	b := r.buf[r.r : r.r+n]
	r.r += n
	r.pos += int64(n)
	return b, nil
}

// fill reads until at least n bytes are buffered.
func (r *sszReader) fill(n int) error {
	if r.r > 0 {
		r.w = copy(r.buf, r.buf[r.r:r.w])
		r.r = 0
	}
	if n > len(r.buf) { // only with a custom preset's long bitlists
		r.buf = append(r.buf[:r.w], make([]byte, n-r.w)...)
	}
	for r.w < n {
		if r.srcErr != nil {
			return r.srcErr
		}
		if r.srcEOF {
			return errTruncated
		}
		m, err := r.src.Read(r.buf[r.w:])
		r.w += m
		if err == io.EOF {
			r.srcEOF = true
		} else if err != nil {
			r.srcErr = fmt.Errorf("beacon: ssz: reading the input at byte %d: %w", r.pos+int64(r.w), err)
		} else if m == 0 {
			// A reader that returns nothing and no error: count it
			// as a failure after it happens repeatedly.
			if err := r.zeroRead(); err != nil {
				return err
			}
		}
	}
	return nil
}

// zeroRead retries a source that returned (0, nil), as io.ReadFull does not;
// after 100 such reads in a row it fails with io.ErrNoProgress.
func (r *sszReader) zeroRead() error {
	for range 100 {
		m, err := r.src.Read(r.buf[r.w:])
		r.w += m
		if m > 0 || err != nil {
			if err == io.EOF {
				r.srcEOF = true
			} else if err != nil {
				r.srcErr = fmt.Errorf("beacon: ssz: reading the input at byte %d: %w", r.pos+int64(r.w), err)
			}
			return nil
		}
	}
	r.srcErr = fmt.Errorf("beacon: ssz: reading the input: %w", io.ErrNoProgress)
	return r.srcErr
}

// atEOF reports whether the input has no more bytes.
func (r *sszReader) atEOF() (bool, error) {
	if r.src == nil {
		return r.pos >= int64(len(r.all)), nil
	}
	if r.w > r.r {
		return false, nil
	}
	err := r.fill(1)
	if err == errTruncated {
		return true, nil
	}
	return false, err
}

// buffered returns how many bytes can be consumed without reading more
// (all of the rest in slice mode).
func (r *sszReader) buffered() int {
	if r.src == nil {
		return len(r.all) - int(r.pos)
	}
	return r.w - r.r
}
