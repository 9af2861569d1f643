package beacon

import "io"

// CallOption adjusts one State or DownloadState call.
type CallOption func(*callConfig)

type callConfig struct {
	progress func(read, total int64)
	noVerify bool
}

func newCallConfig(opts []CallOption) callConfig {
	var c callConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// ProgressStep is how many body bytes pass between two calls of a
// WithProgress callback.
const ProgressStep = 1 << 20

// WithProgress calls fn as the body arrives: each time another ProgressStep
// (1 MiB) has been read, and once more when the body ends, with the bytes
// read so far and the body's total size (its Content-Length; -1 when the
// server did not send one). fn runs on the calling goroutine, between reads,
// so a slow fn slows the download. When an attempt is retried after the body
// broke off, the next attempt counts from 0 again.
func WithProgress(fn func(read, total int64)) CallOption {
	return func(c *callConfig) { c.progress = fn }
}

// WithoutVerify skips the check that State makes when the id is a state
// root (RootID): that the decoded state's hash tree root equals it. The check
// costs about a second on a mainnet state; skip it only for a node you trust.
func WithoutVerify() CallOption {
	return func(c *callConfig) { c.noVerify = true }
}

// progressReader counts the bytes read through it and reports them to fn
// every ProgressStep bytes and at the end of the body.
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
	return &progressReader{r: r, fn: fn, total: total, next: ProgressStep, last: -1}
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if p.fn != nil {
		if p.n >= p.next {
			p.next = (p.n/ProgressStep + 1) * ProgressStep
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
