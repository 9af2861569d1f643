package testkit

import (
	"fmt"
	"net/http"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeTB is a testing.TB that records what a helper asks of a test: the
// message of Fatalf in Fatalled (which ends the calling goroutine, as testing's does)
// and the functions given to Cleanup, which it does not run.
type fakeTB struct {
	testing.TB
	Fatalled string
	Cleanups []func()
}

// Helper does nothing.
func (f *fakeTB) Helper() {}

// Cleanup records fn.
func (f *fakeTB) Cleanup(fn func()) { f.Cleanups = append(f.Cleanups, fn) }

// Fatalf records the message and ends the goroutine.
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.Fatalled = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// runTB runs fn with tb on a goroutine of its own and waits for it, so that
// tb's Fatalf ends fn and nothing else.
func runTB(tb *fakeTB, fn func(testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(tb)
	}()
	<-done
}

// CheckNewT checks a local server package's NewT. newT calls it with tb and
// an option setting key, and returns the server's URL. With a good key the
// server answers and exactly one cleanup is registered, which closes it;
// with a key that is not one path segment NewT stops the test with the
// key error and registers nothing.
func CheckNewT(t *testing.T, newT func(tb testing.TB, key string) (url string)) {
	t.Helper()
	tb := &fakeTB{TB: t}
	var url string
	runTB(tb, func(tb testing.TB) { url = newT(tb, "newt-key") })
	require.Empty(t, tb.Fatalled)
	require.Len(t, tb.Cleanups, 1, "Close is registered")
	resp, err := http.Get(url + "/")
	require.NoError(t, err)
	resp.Body.Close()
	tb.Cleanups[0]()
	_, err = http.Get(url + "/")
	assert.Error(t, err, "closed by the cleanup")

	tb = &fakeTB{TB: t}
	runTB(tb, func(tb testing.TB) { url = newT(tb, "bad/key") })
	assert.Contains(t, tb.Fatalled, "may hold only ASCII letters, digits and ._~-")
	assert.Empty(t, tb.Cleanups)
}
