package nodeaccesstest

// TB is the part of testing.TB that the chain servers' NewT functions use:
// *testing.T, *testing.B and *testing.F satisfy it. It is an interface of
// this package rather than testing.TB itself so that importing a test
// server does not link the testing package (and its flags) into a program
// such as examples/quickstart that runs the servers outside a test.
type TB interface {
	// Helper marks the caller as a test helper.
	Helper()
	// Fatalf reports an error and stops the test.
	Fatalf(format string, args ...any)
	// Cleanup registers a function to run when the test ends.
	Cleanup(f func())
}
