package testkit

import (
	"context"
	"errors"
	"log/slog"
)

// teeHandler passes every record to each of its handlers that is enabled
// for the record's level: a logger that writes each record once per
// encoding. (slog.NewMultiHandler does this from Go 1.26 on; the module
// supports Go 1.25.)
type teeHandler []slog.Handler

// Enabled reports whether any of the handlers is enabled for level.
func (t teeHandler) Enabled(ctx context.Context, level slog.Level) bool {
	for _, h := range t {
		if h.Enabled(ctx, level) {
			return true
		}
	}
	return false
}

// Handle passes a copy of r to each handler enabled for its level and
// returns their errors joined.
func (t teeHandler) Handle(ctx context.Context, r slog.Record) error {
	var errs []error
	for _, h := range t {
		if h.Enabled(ctx, r.Level) {
			errs = append(errs, h.Handle(ctx, r.Clone()))
		}
	}
	return errors.Join(errs...)
}

// WithAttrs returns a teeHandler whose handlers all carry attrs.
func (t teeHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make(teeHandler, len(t))
	for i, h := range t {
		out[i] = h.WithAttrs(attrs)
	}
	return out
}

// WithGroup returns a teeHandler whose handlers all open the group name.
func (t teeHandler) WithGroup(name string) slog.Handler {
	out := make(teeHandler, len(t))
	for i, h := range t {
		out[i] = h.WithGroup(name)
	}
	return out
}
