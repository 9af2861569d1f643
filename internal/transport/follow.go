package transport

import (
	"context"
	"errors"
	"time"
)

// The followers' retry rule (evm, beacon and ton Follow): a step that
// fails with an error that says "later" is asked again after the
// follower's Poll, never skipped, and every FollowQuietRetries failures in
// a row the error is shown to the loop (with a zero item) while the walk
// goes on if the loop does.

// FollowQuietRetries is how many times in a row a follower retries a
// failing step before it shows the error: at a Poll of 1 s about half a
// minute, past the usual lag of a node behind the newest block (on TON,
// the 16 s a lite server's shard data may lag its newest masterchain
// block: validator manager.cpp, eight block intervals of at least 2 s).
const FollowQuietRetries = 30

// ErrFollowStopped ends a walk whose loop stopped.
var ErrFollowStopped = errors.New("the loop stopped")

// FollowRetry runs step until it succeeds, asking again after poll when
// transient(err) says "later"; every FollowQuietRetries failures in a row
// it gives the error to show, and returns ErrFollowStopped when show says
// the loop stopped. Other errors, and ctx's end, are returned.
func FollowRetry(ctx context.Context, poll time.Duration, step func() error, transient func(error) bool, show func(error) bool) error {
	for n := 1; ; n++ {
		err := step()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil || !transient(err) {
			return err
		}
		if n%FollowQuietRetries == 0 && !show(err) {
			return ErrFollowStopped
		}
		if err := Sleep(ctx, poll); err != nil {
			return err
		}
	}
}

// Sleep waits d, or until ctx ends (its error).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
