// Package testkit holds the test helpers that the SDK's own tests share:
// an HTTP client whose requests gock answers and that refuses anything no
// mock matches, exact request matchers, key-leak assertions, a hook and log
// recorder, httptest helpers, and a corpus of hostile endpoint URLs with the
// check every NewFromURL must pass.
//
// It is for the SDK's own tests only (it is internal, and it fails tests
// through testing.TB); users testing their code against the SDK want the
// local servers in evm/evmtest, hyper/hypertest, ton/tontest and
// beacon/beacontest instead. It imports no chain package, so that every
// chain package can use it in its tests.
package testkit
