package testkit

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTeeHandlerBothEncodings: the tee Recorder.Options logs through writes
// each record once as JSON and once as text into the Recorder, attributes
// and groups included, so a leak check on Log sees both encodings.
func TestTeeHandlerBothEncodings(t *testing.T) {
	var r Recorder
	l := slog.New(teeHandler{
		slog.NewJSONHandler(&r, &slog.HandlerOptions{Level: slog.LevelDebug}),
		slog.NewTextHandler(&r, &slog.HandlerOptions{Level: slog.LevelDebug}),
	})
	l.With("chain", "evm").WithGroup("req").Debug("attempt", "url", "https://node.example/REDACTED")
	lines := strings.Split(strings.TrimSpace(r.Log()), "\n")
	require.Len(t, lines, 2, r.Log())
	assert.Contains(t, lines[0], `"msg":"attempt","chain":"evm","req":{"url":"https://node.example/REDACTED"}`)
	assert.Contains(t, lines[1], `msg=attempt chain=evm req.url=https://node.example/REDACTED`)
}

// TestTeeHandlerLevels: a record reaches only the handlers enabled for its
// level, and the tee is enabled when any of them is.
func TestTeeHandlerLevels(t *testing.T) {
	var debug, warn bytes.Buffer
	h := teeHandler{
		slog.NewTextHandler(&debug, &slog.HandlerOptions{Level: slog.LevelDebug}),
		slog.NewTextHandler(&warn, &slog.HandlerOptions{Level: slog.LevelWarn}),
	}
	ctx := context.Background()
	assert.True(t, h.Enabled(ctx, slog.LevelDebug))
	assert.False(t, teeHandler{h[1]}.Enabled(ctx, slog.LevelInfo))
	l := slog.New(h)
	l.Info("first")
	l.Warn("second")
	assert.Equal(t, 2, strings.Count(debug.String(), "\n"), debug.String())
	assert.Contains(t, debug.String(), "msg=first")
	assert.NotContains(t, warn.String(), "msg=first")
	assert.Contains(t, warn.String(), "msg=second")
}
