package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cancelOn is the program's output, which cancels the run's context when a
// line starting with prefix has been written: an interrupt at that moment.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	prefix string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.buf.Write(p)
	if strings.Contains(c.buf.String(), "\n"+c.prefix) {
		c.cancel()
	}
	return n, err
}

// An interrupt after the download, while the file is read or the validator
// proven,
// saves nothing: the file that was there is kept, the new one removed.
func TestInterruptAfterDownload(t *testing.T) {
	_, ssz := defaultHead(t)
	srv, _ := stateServer(t, ssz, 0)
	for _, after := range []string{"Downloaded ", "Read the file ", "Hash tree root: ", "Validator "} {
		t.Run(after, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state.ssz")
			precious(t, path)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			out := &cancelOn{prefix: after, cancel: cancel}
			err := run(ctx, out, func(k string) string {
				return map[string]string{"NODEACCESS_BEACON_URL": srv.URL + "/beacon/k", "NODEACCESS_BEACON_OUT": path}[k]
			})
			require.Error(t, err)
			assert.True(t, errors.Is(err, context.Canceled), "%v", err)
			assert.True(t, strings.HasSuffix(err.Error(), " (nothing was saved to "+path+")"), err.Error())
			assert.NotContains(t, out.buf.String(), "State file:")
			assertPrecious(t, path)
			assertDir(t, dir, "state.ssz")
		})
	}
}
