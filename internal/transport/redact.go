package transport

import (
	"bytes"
	"errors"
	"net/url"
	"strings"
)

// Mask is what stands in place of the access key wherever a URL or a server
// message is shown.
const Mask = "REDACTED"

// redactor removes the access key from text: the key itself and its path-
// and query-escaped forms.
type redactor struct {
	needles []string
}

func newRedactor(key string) redactor {
	if key == "" {
		return redactor{}
	}
	r := redactor{needles: []string{key}}
	for _, v := range []string{url.PathEscape(key), url.QueryEscape(key)} {
		if v != key {
			r.needles = append(r.needles, v)
		}
	}
	return r
}

// String returns s with every form of the key replaced by Mask.
func (r redactor) String(s string) string {
	for _, n := range r.needles {
		if strings.Contains(s, n) {
			s = strings.ReplaceAll(s, n, Mask)
		}
	}
	return s
}

// Bytes returns b with every form of the key replaced by Mask; b itself is
// not modified.
func (r redactor) Bytes(b []byte) []byte {
	for _, n := range r.needles {
		if bytes.Contains(b, []byte(n)) {
			b = bytes.ReplaceAll(b, []byte(n), []byte(Mask))
		}
	}
	return b
}

// Err returns an error safe to show: a *url.Error is rebuilt with its URL
// scrubbed, and any error whose message contains the key is wrapped so that
// its message is scrubbed. errors.Is still reaches the original causes (the
// net and syscall errors), but no error in the chain prints the key.
func (r redactor) Err(err error) error {
	if err == nil || len(r.needles) == 0 {
		return err
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return &url.Error{Op: ue.Op, URL: r.String(ue.URL), Err: r.Err(ue.Err)}
	}
	msg := err.Error()
	if clean := r.String(msg); clean != msg {
		return &scrubbed{msg: clean, err: r.stripChain(err)}
	}
	return err
}

// stripChain keeps the cause only when its own message is clean, so that
// errors.As cannot hand the caller an error that prints the key.
func (r redactor) stripChain(err error) error {
	for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
		if r.String(e.Error()) == e.Error() {
			return e
		}
	}
	return nil
}

// scrubbed is an error whose message had the key removed.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }
