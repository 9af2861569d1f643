// Package nodeaccesstest holds what the SDK's local servers share: a server
// on 127.0.0.1 that checks the access key in the request path exactly, and
// faults on demand.
//
// Users rarely import it except for its faults: the servers themselves are
// in the chain packages' test packages ([github.com/nodeaccess/nodeaccess/evm/evmtest],
// [github.com/nodeaccess/nodeaccess/hyper/hypertest],
// [github.com/nodeaccess/nodeaccess/ton/tontest] and
// [github.com/nodeaccess/nodeaccess/beacon/beacontest]), each of which
// embeds a *Server and speaks its chain's wire. A test that wants to see how
// its code behaves when the provider fails queues a fault:
//
//	srv.FailNext(1, nodeaccesstest.RateLimited(time.Second)) // 429 + Retry-After: 1
//	srv.FailNext(1, nodeaccesstest.ServerError(503))         // then one 503
//	// the next call (3 attempts by default) retries through both and
//	// succeeds on its third attempt
//
// Faults apply to requests in the order they arrive, on every path, before
// the key is checked. [RateLimited], [ServerError] and [DropConnection]
// answer instead of the server; [SlowBody] and [TruncatedBody] let the
// server answer and then delay or cut its body.
//
// A server can also enforce a provider's request-unit plan, a token bucket
// of R units per second that answers 429 with Retry-After once it is spent
// ([Server.EnforcePlan], [Plan]), so that a test can check that its code
// stays within a plan (with nodeaccess.WithBudget) and copes when it does
// not:
//
//	srv.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 100, Burst: 10})
//	// ... run the code under test ...
//	if st := srv.PlanStats(); st.Rejected > 0 { ... }
//
// What every server does the same way: it listens on 127.0.0.1 at a free
// port ([Server.URL]); a request whose key segment is not exactly
// [Server.Key] gets 403 (a key that merely starts with the right key, or is
// a prefix of it, is wrong too); a path the server does not serve gets 404,
// and a served path asked with the wrong method gets 405 with an Allow
// header. These answers, and the faults' answers, carry the chain's own
// error body, which the chain server gives [Start]; a handler a test adds
// writes one with [Server.WriteError]. The wrong key is never written back.
package nodeaccesstest
