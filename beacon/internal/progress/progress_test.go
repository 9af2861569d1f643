package progress

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type report struct{ read, total int64 }

func collect(t *testing.T, r io.Reader, total int64) ([]report, *Reader) {
	t.Helper()
	var got []report
	pr := New(r, func(read, total int64) { got = append(got, report{read, total}) }, total)
	n, err := io.Copy(io.Discard, pr)
	require.NoError(t, err)
	assert.Equal(t, n, pr.N())
	return got, pr
}

// A report as the count crosses each Step, and one at the end of the body,
// whatever sizes the underlying reader returns (one byte at a time, large
// chunks, data and io.EOF together), and never the same count twice.
func TestReportsEachStepAndTheEnd(t *testing.T) {
	size := int64(3*Step + 12345)
	body := bytes.Repeat([]byte{7}, int(size))
	want := []report{{Step, size}, {2 * Step, size}, {3 * Step, size}, {size, size}}
	for name, r := range map[string]func() io.Reader{
		"chunks":        func() io.Reader { return bytes.NewReader(body) },
		"data with EOF": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(body)) },
		"half steps":    func() io.Reader { return &chunked{r: bytes.NewReader(body), n: Step / 2} },
		"odd chunks":    func() io.Reader { return &chunked{r: bytes.NewReader(body), n: Step - 1} },
	} {
		t.Run(name, func(t *testing.T) {
			got, _ := collect(t, r(), size)
			assert.Equal(t, want, got)
		})
	}
	// One byte at a time: the same reports, on a smaller body.
	small := bytes.Repeat([]byte{1}, Step+3)
	got, _ := collect(t, iotest.OneByteReader(bytes.NewReader(small)), -1)
	assert.Equal(t, []report{{Step, -1}, {Step + 3, -1}}, got)
}

// A body that ends exactly on a Step is reported once at that count, not
// again by the end of the body or by Finish.
func TestEndOnAStepReportedOnce(t *testing.T) {
	body := make([]byte, 2*Step)
	got, pr := collect(t, &chunked{r: bytes.NewReader(body), n: Step}, int64(len(body)))
	pr.Finish()
	assert.Equal(t, []report{{Step, 2 * Step}, {2 * Step, 2 * Step}}, got)
}

// A decoder that stops before io.EOF gets the final count from Finish, once.
func TestFinishWithoutEOF(t *testing.T) {
	var got []report
	pr := New(bytes.NewReader(make([]byte, 100)), func(read, total int64) { got = append(got, report{read, total}) }, 100)
	buf := make([]byte, 100)
	_, err := io.ReadFull(pr, buf)
	require.NoError(t, err)
	assert.Empty(t, got)
	pr.Finish()
	pr.Finish()
	assert.Equal(t, []report{{100, 100}}, got)
}

// An empty body reports 0 once; an error from the body is passed on and
// reports nothing more than the steps already crossed.
func TestEmptyAndFailingBodies(t *testing.T) {
	got, _ := collect(t, bytes.NewReader(nil), 0)
	assert.Equal(t, []report{{0, 0}}, got)

	boom := errors.New("reset")
	var reps []report
	pr := New(io.MultiReader(bytes.NewReader(make([]byte, Step+1)), iotest.ErrReader(boom)),
		func(read, total int64) { reps = append(reps, report{read, total}) }, 5*Step)
	_, err := io.Copy(io.Discard, pr)
	require.ErrorIs(t, err, boom)
	assert.Equal(t, []report{{Step, 5 * Step}}, reps)
}

// Without a callback the Reader only counts.
func TestNilCallbackCounts(t *testing.T) {
	pr := New(bytes.NewReader(make([]byte, 2*Step+1)), nil, -1)
	n, err := io.Copy(io.Discard, pr)
	require.NoError(t, err)
	assert.Equal(t, int64(2*Step+1), n)
	assert.Equal(t, n, pr.N())
	pr.Finish()
}

// chunked returns at most n bytes per Read.
type chunked struct {
	r io.Reader
	n int
}

func (c *chunked) Read(b []byte) (int, error) {
	if len(b) > c.n {
		b = b[:c.n]
	}
	return c.r.Read(b)
}
