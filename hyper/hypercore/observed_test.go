package hypercore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// observed collects everything a client reports: hook payloads and log
// records.
type observed struct{ testkit.Recorder }

// options makes a client report to o, with quick retries.
func (o *observed) options() []nodeaccess.Option {
	return []nodeaccess.Option{o.Option(), nodeaccess.WithBackoff(time.Millisecond, 2*time.Millisecond)}
}

// check fails when the key shows in a hook payload or the log.
func (o *observed) check(t *testing.T, key string) {
	t.Helper()
	for _, a := range o.Attempts() {
		testkit.AssertNoKey(t, key, "hook payload", fmt.Sprintf("%v %+v %s %v", a, a, a.URL, a.Err))
	}
	testkit.AssertNoKey(t, key, "log", o.Log())
}
