// Package progress counts the bytes read from a body and reports them, for
// the beacon package's Progress callbacks (StateOptions, DownloadOptions, ReadOptions).
package progress

import "io"

// Step is how many bytes pass between two reports.
const Step = 1 << 20

// Reader counts the bytes read through it and reports them to fn every
// Step bytes and at the end of the body.
type Reader struct {
	r     io.Reader
	fn    func(read, total int64)
	total int64
	n     int64
	next  int64 // the count at which fn is called next
	last  int64 // the count fn was last called with, -1 before the first call
	done  bool  // the end of the body was reported
}

// New returns a Reader over r that reports to fn (nil: no reports), with
// total the body's size (-1 when unknown).
func New(r io.Reader, fn func(read, total int64), total int64) *Reader {
	return &Reader{r: r, fn: fn, total: total, next: Step, last: -1}
}

// Read reads from the body, reporting as the count crosses each Step.
func (p *Reader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if p.fn != nil {
		if p.n >= p.next {
			p.next = (p.n/Step + 1) * Step
			if err != io.EOF {
				p.last = p.n
				p.fn(p.n, p.total)
			}
		}
		if err == io.EOF {
			p.Finish()
		}
	}
	return n, err
}

// Finish reports the final count once, unless the last call already
// reported it (decoders may stop reading just before the end of the stream,
// without seeing io.EOF, so the caller calls finish after a success too).
func (p *Reader) Finish() {
	if p.fn != nil && !p.done {
		p.done = true
		if p.n != p.last {
			p.last = p.n
			p.fn(p.n, p.total)
		}
	}
}

// N returns the bytes read so far.
func (p *Reader) N() int64 { return p.n }
