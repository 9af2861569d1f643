package nodeaccesstest

import (
	"fmt"
	"math"
	"time"

	"golang.org/x/time/rate"
)

// Plan is a provider's request-unit plan, which a [Server] enforces once
// [Server.EnforcePlan] is called (the zero Plan: none): a token bucket that refills at
// UnitsPerSecond and holds up to Burst units. A request that costs more
// units than the bucket holds is answered 429 Too Many Requests, with a
// Retry-After (whole seconds, at least 1) for the time until its units will
// be there, and the chain's error body; it does not reach the server and
// spends nothing. Users test with it that their code stays within a plan
// (with nodeaccess.WithBudget, say) and copes when it does not.
type Plan struct {
	// UnitsPerSecond is the plan's rate, positive.
	UnitsPerSecond float64
	// Burst is the bucket's size in units; 0 means one second's worth
	// (UnitsPerSecond rounded up).
	Burst int
	// Cost returns what a request costs, from what the server received
	// (method, masked path, query, header, body); nil means 1 unit per
	// request. A cost below 1 is 1.
	Cost func(Request) int
}

// PlanStats is what a plan-enforcing server has served and refused.
type PlanStats struct {
	// Served and Rejected count the requests let through and those
	// answered 429 by the plan.
	Served, Rejected int
	// Units is the sum of the costs of the served requests.
	Units int64
}

type plan struct {
	p     Plan
	lim   *rate.Limiter
	burst int
	stats PlanStats
}

// EnforcePlan makes the server enforce p from now on, replacing a plan set
// before; the bucket starts full. The zero Plan stops enforcing one. Faults
// queued with [Server.FailNext] come first: a request that gets a fault is
// not charged. A rate that is not positive and finite, or a negative burst,
// is a mistake in the test and EnforcePlan panics, as FailNext does.
func (s *Server) EnforcePlan(p Plan) {
	if p.UnitsPerSecond == 0 && p.Burst == 0 && p.Cost == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.plan = nil
		return
	}
	if !(p.UnitsPerSecond > 0) || math.IsInf(p.UnitsPerSecond, 0) || p.Burst < 0 {
		panic(fmt.Sprintf("nodeaccesstest: EnforcePlan: need a positive finite rate and a burst >= 0, got %v units/s, burst %d", p.UnitsPerSecond, p.Burst))
	}
	burst := p.Burst
	if burst == 0 {
		burst = int(math.Ceil(p.UnitsPerSecond))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.plan = &plan{p: p, lim: rate.NewLimiter(rate.Limit(p.UnitsPerSecond), burst), burst: burst}
}

// PlanStats returns what the plan has served and refused since
// EnforcePlan (zero without a plan).
func (s *Server) PlanStats() PlanStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.plan == nil {
		return PlanStats{}
	}
	return s.plan.stats
}

// charge spends rec's units, or returns the 429 fault when the bucket
// lacks them. It runs with s.mu held.
func (p *plan) charge(rec Request, now time.Time) (Fault, bool) {
	units := 1
	if p.p.Cost != nil {
		units = max(1, p.p.Cost(rec))
	}
	if units <= p.burst && p.lim.AllowN(now, units) {
		p.stats.Served++
		p.stats.Units += int64(units)
		return Fault{}, true
	}
	p.stats.Rejected++
	wait := time.Second
	if units <= p.burst {
		missing := float64(units) - p.lim.TokensAt(now)
		wait = max(wait, time.Duration(missing/p.p.UnitsPerSecond*float64(time.Second)))
	}
	return RateLimited(wait), false
}
