package beacon

import "io"

// progressStep is how many body bytes pass between two calls of a
// WithProgress callback.
const progressStep = 1 << 20

// progressReader counts the bytes read through it and reports them to fn
// every progressStep bytes and at the end of the body.
type progressReader struct {
	r     io.Reader
	fn    func(read, total int64)
	total int64
	n     int64
	next  int64 // the count at which fn is called next
	last  int64 // the count fn was last called with, -1 before the first call
	done  bool  // the end of the body was reported
}

func newProgressReader(r io.Reader, fn func(read, total int64), total int64) *progressReader {
	return &progressReader{r: r, fn: fn, total: total, next: progressStep, last: -1}
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if p.fn != nil {
		if p.n >= p.next {
			p.next = (p.n/progressStep + 1) * progressStep
			if err != io.EOF {
				p.last = p.n
				p.fn(p.n, p.total)
			}
		}
		if err == io.EOF {
			p.finish()
		}
	}
	return n, err
}

// finish reports the final count once, unless the last call already
// reported it (decoders may stop reading just before the end of the stream,
// without seeing io.EOF, so the caller calls finish after a success too).
func (p *progressReader) finish() {
	if p.fn != nil && !p.done {
		p.done = true
		if p.n != p.last {
			p.last = p.n
			p.fn(p.n, p.total)
		}
	}
}
