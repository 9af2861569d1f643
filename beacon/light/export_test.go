package light

import "time"

// SetClock sets the clock lc reads the current slot from.
func SetClock(lc *Client, now func() time.Time) { lc.now = now }
