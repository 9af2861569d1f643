package tontest

import "github.com/nodeaccess/nodeaccess/nodeaccesstest"

// NewT starts a server for the test tb, as New does with opts, and closes it
// when the test ends (tb.Cleanup). When the server cannot start it stops the
// test with tb.Fatalf.
//
//	srv := tontest.NewT(t)
//	c, err := srv.Client()
func NewT(tb nodeaccesstest.TB, opts ...Option) *Server {
	tb.Helper()
	s, err := New(opts...)
	if err != nil {
		tb.Fatalf("%v", err)
		return nil // testing.TB's Fatalf does not return; another TB's might
	}
	tb.Cleanup(s.Close)
	return s
}
