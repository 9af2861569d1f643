package nodeaccesstest_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// archiveCost charges 2 units for a body that says "archive", 1 otherwise.
func archiveCost(r nodeaccesstest.Request) int {
	if bytes.Contains(r.Body, []byte("archive")) {
		return 2
	}
	return 1
}

func post(t *testing.T, s *nodeaccesstest.Server, body string) answer {
	t.Helper()
	a, err := do(t, http.DefaultClient, "POST", s.URL+"/k/info", body)
	require.NoError(t, err)
	return a
}

// TestPlanBucket: the plan serves up to its burst at once, answers 429 with
// the chain's body and a Retry-After when the bucket lacks a request's
// units, charges each request its cost, and refills at its rate.
func TestPlanBucket(t *testing.T) {
	s := start(t, "k")
	s.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 20, Burst: 4, Cost: archiveCost})
	for i := 0; i < 3; i++ {
		assert.Equal(t, 200, post(t, s, `{"n":1}`).status, i)
	}
	// One unit left: an archive request (2) is refused, an ordinary one not.
	a := post(t, s, `{"archive":1}`)
	assert.Equal(t, 429, a.status)
	assert.Equal(t, "1", a.header.Get("Retry-After"))
	assert.Equal(t, `{"code":429,"message":"rate limit exceeded","path":"/k/info"}`, a.body)
	assert.Equal(t, 200, post(t, s, `{"n":1}`).status)
	assert.Equal(t, 429, post(t, s, `{"n":1}`).status)
	assert.Equal(t, nodeaccesstest.PlanStats{Served: 4, Rejected: 2, Units: 4}, s.PlanStats())
	got := s.Requests()
	assert.Equal(t, "429 with Retry-After 1", got[3].Fault.String())
	assert.Equal(t, "no fault", got[4].Fault.String())

	time.Sleep(110 * time.Millisecond) // 2.2 units back
	assert.Equal(t, 200, post(t, s, `{"archive":1}`).status)
	assert.Equal(t, int64(6), s.PlanStats().Units)
}

// TestPlanRetryAfterCoversTheWait: Retry-After is the time until the units
// will be there, in whole seconds rounded up; a cost above the burst can
// never be served.
func TestPlanRetryAfterCoversTheWait(t *testing.T) {
	s := start(t, "k")
	s.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 0.4, Burst: 1})
	assert.Equal(t, 200, post(t, s, `{}`).status)
	a := post(t, s, `{}`)
	assert.Equal(t, 429, a.status)
	assert.Equal(t, "3", a.header.Get("Retry-After")) // 2.5 s to one unit

	s.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 100, Burst: 1, Cost: archiveCost})
	assert.Equal(t, 429, post(t, s, `{"archive":1}`).status)
	assert.Equal(t, 200, post(t, s, `{}`).status)
}

// TestPlanAfterFaults: queued faults come first and are not charged; the
// zero Plan clears the plan; bad plans panic.
func TestPlanAfterFaults(t *testing.T) {
	s := start(t, "k")
	s.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 1, Burst: 1})
	s.FailNext(1, nodeaccesstest.ServerError(503))
	assert.Equal(t, 503, post(t, s, `{}`).status)
	assert.Equal(t, 200, post(t, s, `{}`).status)
	assert.Equal(t, 429, post(t, s, `{}`).status)
	s.EnforcePlan(nodeaccesstest.Plan{})
	assert.Equal(t, 200, post(t, s, `{}`).status)
	assert.Equal(t, nodeaccesstest.PlanStats{}, s.PlanStats())

	s.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 2.5}) // burst: 3
	for i := 0; i < 3; i++ {
		assert.Equal(t, 200, post(t, s, `{}`).status, i)
	}
	assert.Equal(t, 429, post(t, s, `{}`).status)

	assert.Panics(t, func() { s.EnforcePlan(nodeaccesstest.Plan{Burst: 1}) })
	assert.Panics(t, func() { s.EnforcePlan(nodeaccesstest.Plan{Cost: archiveCost}) })
	assert.Panics(t, func() { s.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 1, Burst: -1}) })
}
