package hypertest_test

import (
	"fmt"
	"net/http"
	"runtime"
	"testing"

	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fatalTB records what NewT asks of a test.
type fatalTB struct {
	testing.TB
	fatal    string
	cleanups []func()
}

func (f *fatalTB) Helper()           {}
func (f *fatalTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestNewT(t *testing.T) {
	tb := &fatalTB{TB: t}
	var srv *hypertest.Server
	done := make(chan struct{})
	go func() { defer close(done); srv = hypertest.NewT(tb, hypertest.WithKey("newt-key")) }()
	<-done
	require.NotNil(t, srv)
	assert.Empty(t, tb.fatal)
	require.Len(t, tb.cleanups, 1, "Close is registered")
	resp, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	resp.Body.Close()
	tb.cleanups[0]()
	_, err = http.Get(srv.URL + "/")
	assert.Error(t, err, "closed by the cleanup")

	tb = &fatalTB{TB: t}
	done = make(chan struct{})
	go func() { defer close(done); srv = hypertest.NewT(tb, hypertest.WithKey("bad/key")) }()
	<-done
	assert.Contains(t, tb.fatal, "may hold only ASCII letters, digits and ._~-")
	assert.Empty(t, tb.cleanups)
}
