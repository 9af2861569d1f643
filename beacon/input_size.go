package beacon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// A state's size as a Body, a Content-Length or a reader's Size gives it
// is a claim. The readers check it against what the input holds when the
// input can tell (an in-memory reader, a regular file; for an io.ReaderAt,
// by reading the claimed last byte), and only a size checked so is
// allocated for before the bytes arrive: otherwise a list grows as its
// bytes come, so that an input that claims more than it holds costs no
// more than a small multiple of what it holds.

// readerSize returns how many bytes r still holds when r can tell
// cheaply (an in-memory reader, a regular file), or -1.
func readerSize(r io.Reader) int64 {
	switch x := r.(type) {
	case *bytes.Reader:
		return int64(x.Len())
	case *bytes.Buffer:
		return int64(x.Len())
	case *strings.Reader:
		return int64(x.Len())
	case interface {
		Stat() (fs.FileInfo, error)
		io.Seeker
	}:
		fi, err := x.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		pos, err := x.Seek(0, io.SeekCurrent)
		if err != nil || pos > fi.Size() {
			return -1
		}
		return fi.Size() - pos
	}
	return -1
}

// inputSize returns the size of the input r of a decoder of format
// ("ssz", "json"): claimed (Body.Bytes; 0 or less: none), or without a
// claim what r holds when it can tell (-1: unknown). known reports that r
// told its size, so that the size holds and lists may be allocated from
// it at once. A claim above what r holds is a *DecodeError that says both
// sizes and matches io.ErrUnexpectedEOF: the input was cut short.
func inputSize(r io.Reader, claimed int64, format string) (size int64, known bool, err error) {
	held := readerSize(r)
	switch {
	case claimed <= 0:
		return held, held >= 0, nil
	case held >= 0 && claimed > held:
		return 0, false, shortInput(format, held, claimed, "Body.Bytes")
	}
	return claimed, held >= 0, nil
}

// shortInput is the error of an input that holds held bytes where what
// (Body.Bytes, the reader's Size) said it holds claimed.
func shortInput(format string, held, claimed int64, what string) error {
	return &DecodeError{Format: format, Offset: held,
		Reason: fmt.Sprintf("the input ends early (truncated): it holds %d bytes, and %s says %d", held, what, claimed),
		Err:    io.ErrUnexpectedEOF}
}

// readerAtSize returns the size of what r holds when r can tell, or -1;
// exact reports that the size is r's own (an in-memory reader, a regular
// file), not a length r was given (an io.SectionReader's, which may run
// past the bytes under it).
func readerAtSize(r io.ReaderAt) (size int64, exact bool) {
	switch x := r.(type) {
	case *bytes.Reader:
		return x.Size(), true
	case *strings.Reader:
		return x.Size(), true
	case interface{ Size() int64 }: // io.SectionReader
		return x.Size(), false
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := x.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size(), true
		}
	}
	return -1, false
}

// holdsAt checks that r holds byte end-1, reading it into scratch[0], so
// that a read may allocate for the bytes up to end before they arrive. An
// input that ends before is a *DecodeError of format at path, which says
// what (the state's size, a field's end) end is and matches
// io.ErrUnexpectedEOF; a failure of r is returned wrapped.
func holdsAt(r io.ReaderAt, scratch []byte, end int64, format, path, what string) error {
	if end <= 0 {
		return nil
	}
	n, err := r.ReadAt(scratch[:1], end-1)
	switch {
	case n == 1:
		return nil
	case err == nil || errors.Is(err, io.EOF):
		return &DecodeError{Format: format, Path: path, Offset: -1,
			Reason: fmt.Sprintf("the input ends early (truncated): it holds fewer than the %d bytes %s", end, what),
			Err:    io.ErrUnexpectedEOF}
	}
	return fmt.Errorf("beacon: %s: reading the input at byte %d: %w", format, end-1, err)
}
