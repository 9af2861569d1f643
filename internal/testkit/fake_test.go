package testkit_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// fakeT is a testing.TB that records failures instead of failing, so that
// the helpers can be shown to fail when they should.
type fakeT struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
	stopped  bool
}

func (f *fakeT) Helper() {}

func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *fakeT) FailNow() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
	panic(stop{})
}

func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// stop is what FailNow panics with, so that run can tell it apart.
type stop struct{}

// run calls fn with f, stopping where a FailNow would, and then runs the
// cleanups registered, last first.
func (f *fakeT) run(fn func(t testing.TB)) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stop); !ok {
					panic(r)
				}
			}
		}()
		fn(f)
	}()
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	f.cleanups = nil
}

// failures returns what the helpers reported, one per line.
func (f *fakeT) failures() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.errs, "\n")
}

// failed tells whether anything was reported.
func (f *fakeT) failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.errs) > 0 || f.stopped
}

func (f *fakeT) Name() string { return "fake" }
