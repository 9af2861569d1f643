package light

import "time"

// SetClock sets the clock lc reads the current slot from, in place of its
// Config's Clock.
func SetClock(lc *Client, now func() time.Time) { lc.now, lc.cfg.Clock = now, nil }
