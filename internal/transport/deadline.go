package transport

import (
	"context"
	"sync"
	"time"
)

// An attempt runs under a context of its own: the caller's context with the
// attempt's deadline, ended (cancelled) when the attempt is over, body
// included, so that nothing made for it outlives it: not its timer, not the
// goroutine the context package starts to watch a caller's context of a
// type it does not know (fasthttp's), not its place among the children of
// the caller's context (which would keep it, and the caller's context,
// reachable).
//
// Two kinds, both cheaper than a context.WithTimeout (7 allocations per
// attempt; see bench/README.md), and both with a pooled timer:
//   - under a caller's context that is never cancelled (Background, TODO,
//     WithValue or WithoutCancel over them: Done is nil), a rootAttempt, a
//     context of its own that nothing has to be unhooked from: 5;
//   - under any other, an attemptCtx, a context.WithCancelCause of the
//     caller's, which keeps its cancellation: 6.
//
// Both give Deadline, Err (context.DeadlineExceeded once the deadline ended
// the attempt, as a context.WithTimeout does) and context.Cause as a
// context.WithTimeout would. Both also hold the attempt's copy of the
// request body (a bodyBox), which lives exactly as long (net/http keeps both
// until it is done with the request), so that the two take one allocation.

// attempt is the context of one attempt; end ends it, once.
type attempt interface {
	context.Context
	end()
	// body is the attempt's bodyBox, empty until the request is built.
	body() *bodyBox
}

// newAttempt returns the context of an attempt bounded by timeout, or nil
// when the caller's context ends no later than timeout from now: the
// attempt then runs under the caller's context as it is, and makes
// nothing. The caller must call end on a non-nil result when the attempt is
// over, including its body.
func newAttempt(parent context.Context, timeout time.Duration) attempt {
	deadline := time.Now().Add(timeout)
	if dl, ok := parent.Deadline(); ok && !dl.After(deadline) {
		return nil
	}
	if parent.Done() == nil {
		a := &rootAttempt{parent: parent, deadline: deadline, done: make(chan struct{})}
		a.funcs = a.first[:0]
		a.timer = startTimer(a, deadline, timeout)
		return a
	}
	inner, cancel := context.WithCancelCause(parent)
	a := &attemptCtx{Context: inner, cancel: cancel, deadline: deadline}
	a.timer = startTimer(a, deadline, timeout)
	return a
}

// attemptCtx is the attempt's context under a caller's context that can
// end: a context.WithCancelCause of it, with the attempt's deadline.
type attemptCtx struct {
	context.Context // context.WithCancelCause(caller's context)
	cancel          context.CancelCauseFunc
	deadline        time.Time
	timer           *attemptTimer
	box             bodyBox
}

// Deadline is the attempt's deadline.
func (a *attemptCtx) Deadline() (time.Time, bool) { return a.deadline, true }

// Err is context.DeadlineExceeded once the attempt's deadline ended it;
// otherwise the caller's context's error, or context.Canceled once the
// attempt is over.
func (a *attemptCtx) Err() error {
	err := a.Context.Err()
	if err == context.Canceled && context.Cause(a.Context) == context.DeadlineExceeded {
		return context.DeadlineExceeded
	}
	return err
}

func (a *attemptCtx) expire() { a.cancel(context.DeadlineExceeded) }

func (a *attemptCtx) body() *bodyBox { return &a.box }

func (a *attemptCtx) end() {
	a.cancel(context.Canceled)
	a.timer.stop()
}

// rootAttempt is the attempt's context under a caller's context that never
// ends (its Done is nil): only the attempt's deadline and end end it. It
// has an AfterFunc method, which the context package uses to hook the
// contexts derived from it (net/http derives one per request) instead of a
// goroutine, and which costs less than being a context.WithCancel.
type rootAttempt struct {
	parent   context.Context
	deadline time.Time
	done     chan struct{}
	timer    *attemptTimer

	mu    sync.Mutex
	err   error
	funcs []func() // from AfterFunc, nil where stopped; nil once ended
	first [1]func()

	box bodyBox
}

// Deadline is the attempt's deadline.
func (a *rootAttempt) Deadline() (time.Time, bool) { return a.deadline, true }

// Done is closed when the attempt ends.
func (a *rootAttempt) Done() <-chan struct{} { return a.done }

// Err is nil while the attempt runs, then context.DeadlineExceeded if its
// deadline ended it, context.Canceled otherwise.
func (a *rootAttempt) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Value is the caller's context's value.
func (a *rootAttempt) Value(key any) any { return a.parent.Value(key) }

// AfterFunc arranges to call f in its own goroutine after the attempt
// ended, as context.AfterFunc does; stop unhooks f, and reports whether
// that kept it from running.
func (a *rootAttempt) AfterFunc(f func()) (stop func() bool) {
	a.mu.Lock()
	if a.err != nil {
		a.mu.Unlock()
		go f()
		return notStopped
	}
	i := len(a.funcs)
	a.funcs = append(a.funcs, f)
	a.mu.Unlock()
	return func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		if i >= len(a.funcs) || a.funcs[i] == nil {
			return false
		}
		a.funcs[i] = nil
		return true
	}
}

func notStopped() bool { return false }

// String names the context as the context package names its own.
func (a *rootAttempt) String() string {
	return "transport.attempt(" + a.deadline.String() + ")"
}

func (a *rootAttempt) finish(err error) {
	a.mu.Lock()
	if a.err != nil {
		a.mu.Unlock()
		return
	}
	a.err = err
	close(a.done)
	funcs := a.funcs
	a.funcs = nil
	a.mu.Unlock()
	for _, f := range funcs {
		if f != nil {
			go f()
		}
	}
}

func (a *rootAttempt) expire() { a.finish(context.DeadlineExceeded) }

func (a *rootAttempt) body() *bodyBox { return &a.box }

func (a *rootAttempt) end() {
	a.finish(context.Canceled)
	a.timer.stop()
}

// attemptTimer is a reusable timer that ends the attempt it is lent to when
// that attempt's deadline has come. A new time.AfterFunc per attempt costs
// two allocations (the timer and its function); a pooled one none. A
// stopped timer is inert: in the pool it holds no attempt and nothing runs.
type attemptTimer struct {
	t        *time.Timer
	mu       sync.Mutex
	a        interface{ expire() } // nil when stopped
	deadline time.Time
}

var timerPool = sync.Pool{New: func() any { return new(attemptTimer) }}

// startTimer lends a pooled timer to a, whose deadline is timeout from now.
func startTimer(a interface{ expire() }, deadline time.Time, timeout time.Duration) *attemptTimer {
	s := timerPool.Get().(*attemptTimer)
	s.mu.Lock()
	s.a, s.deadline = a, deadline
	s.mu.Unlock()
	if s.t == nil {
		s.t = time.AfterFunc(timeout, s.fire)
	} else {
		s.t.Reset(timeout)
	}
	return s
}

// stop stops the timer and returns it to the pool.
func (s *attemptTimer) stop() {
	s.t.Stop()
	s.mu.Lock()
	s.a = nil
	s.mu.Unlock()
	timerPool.Put(s)
}

// fire ends the timer's attempt. A firing can run late, after its attempt
// returned the timer and another attempt took it: it then finds an attempt
// whose deadline has not come, and leaves it.
func (s *attemptTimer) fire() {
	s.mu.Lock()
	a, due := s.a, !time.Now().Before(s.deadline)
	s.mu.Unlock()
	if a != nil && due {
		a.expire()
	}
}
