package transport

import (
	"fmt"
	"net"
	"net/url"

	"github.com/nodeaccess/nodeaccess"
)

// Where the key is masked. Text that may hold the key (the server's, or the
// user's) enters an error at these places, and is masked there, so that
// every error the transport returns, hands to a hook or logs is already
// without it:
//
//   - send: the *url.Error of a failed request is built with the masked URL
//     (the Target's masked form, or, after a redirect within the origin,
//     the URL masked as text), its cause through Err (a user's
//     RoundTripper or CheckRedirect may quote the URL; a network failure's
//     *net.OpError names addresses, not the path, and stays as it is);
//   - attempt: a body that breaks off (netFailure's cause), a Stream
//     decoder's error and a Check error, through Err;
//   - httpFailure: HTTPError's Status, ContentType, Body (masked before the
//     cut), Location and URL; a chain package that fills Message masks it
//     (Client.Mask);
//   - rpcError: RPCError's Message and Data;
//   - InvalidBody (DecodeJSON, a batch Result's error): the decoder's why,
//     the content type and the body's start; orAbsent, a member's start;
//   - charge: a Limiter's error;
//   - New: the base URL, an option's message; CallRPC, CallBatch and
//     Target: a method name or a template a caller gave;
//   - Wrap: what the chain package adds (an input the user gave, quoted in
//     an *InputError or a wrapper's text).
//
// A chain package masks the server text it puts into an error of its own
// type with Client.Mask or MaskCut, where it reads it.

// maxErrDepth bounds how deep Err follows a chain of wrapped errors.
const maxErrDepth = 64

// Err returns err with every spelling of the key masked, for an error that
// enters the SDK's errors from outside: a network failure, a user's
// RoundTripper, CheckRedirect or Limiter, a chain package's decoder, an
// input the user gave. It knows the error types whose fields it may copy
// and does not reach into any other:
//
//   - nodeaccess's *OpError, *InputError, *HTTPError and *RPCError, net/url's
//     *url.Error and net's *OpError and *DNSError that hold the key (in
//     their text, a field, or an error they wrap) are copied with it
//     masked in every field, and with the errors they wrap masked the same
//     way: errors.As still finds them, and only the copy.
//   - Any other error that shows the key in its message, or wraps one that
//     does, is replaced by one with the message masked whose Unwrap returns
//     its causes masked the same way, so that errors.Is still reaches every
//     sentinel and errors.As every typed cause. Its own type is lost: the
//     wrappers of fmt.Errorf and errors.Join lose nothing a caller can name,
//     and a typed error of the SDK is built with the key masked where the
//     text entered it, so that it never gets here holding the key.
//   - An error that holds no key is returned as it is, identity and all.
//
// No error reachable from the result through Unwrap prints the key.
func (r *redactor) Err(err error) error {
	if r == nil || err == nil {
		return err
	}
	m, _ := r.maskErr(err, 0)
	return m
}

// maskErr returns err with the key masked, and whether that changed it.
func (r *redactor) maskErr(err error, depth int) (error, bool) {
	if err == nil {
		return nil, false
	}
	if depth > maxErrDepth {
		if msg := err.Error(); r.holds(msg) {
			return &masked{msg: r.Text(msg), was: fmt.Sprintf("%T", err)}, true
		}
		return err, false
	}
	if m := r.maskKnown(err, depth); m != nil {
		changed := m != err
		if !changed || !r.holds(m.Error()) {
			return m, changed
		}
		// A field the copy could not mask shows in its text (a net.Addr).
	}
	causes := unwrap(err)
	changed := false
	for i, c := range causes {
		m, ch := r.maskErr(c, depth+1)
		if ch {
			if !changed {
				causes = append([]error(nil), causes...) // never modify the error's own slice
				changed = true
			}
			causes[i] = m
		}
	}
	msg := err.Error()
	if !changed && !r.holds(msg) {
		return err, false
	}
	return &masked{msg: r.Text(msg), errs: causes, was: fmt.Sprintf("%T", err)}, true
}

// maskKnown copies err with the key masked when err is of a type whose
// fields the transport knows: err itself when it held no key in them; nil
// for a type the transport does not know.
func (r *redactor) maskKnown(err error, depth int) error {
	switch e := err.(type) {
	case *nodeaccess.OpError:
		inner, ch := r.maskErr(e.Err, depth+1)
		cp := nodeaccess.OpError{Chain: r.Text(e.Chain), Op: r.Text(e.Op), Err: inner}
		if !ch && cp.Chain == e.Chain && cp.Op == e.Op {
			return err
		}
		return &cp
	case *nodeaccess.InputError:
		cp := nodeaccess.InputError{Arg: r.Text(e.Arg), Reason: r.Text(e.Reason)}
		if cp == *e {
			return err
		}
		return &cp
	case *nodeaccess.HTTPError:
		if !r.httpHolds(e) {
			return err
		}
		cp := *e
		cp.Status, cp.ContentType, cp.Message = r.Text(e.Status), r.Text(e.ContentType), r.Text(e.Message)
		cp.Method, cp.URL, cp.Location = r.Text(e.Method), r.Text(e.URL), r.Text(e.Location)
		cp.Body = r.Bytes(e.Body)
		return &cp
	case *nodeaccess.RPCError:
		if !r.holds(e.Message) && !r.valueHolds(e.Data) {
			return err
		}
		return &nodeaccess.RPCError{Code: e.Code, Message: r.Text(e.Message), Data: r.value(e.Data)}
	case *url.Error:
		inner, ch := r.maskErr(e.Err, depth+1)
		cp := url.Error{Op: r.Text(e.Op), URL: r.Text(e.URL), Err: inner}
		if !ch && cp.Op == e.Op && cp.URL == e.URL {
			return err
		}
		return &cp
	case *net.OpError:
		inner, ch := r.maskErr(e.Err, depth+1)
		cp := *e
		cp.Op, cp.Net, cp.Err = r.Text(e.Op), r.Text(e.Net), inner
		if !ch && cp.Op == e.Op && cp.Net == e.Net {
			return err
		}
		return &cp
	case *net.DNSError:
		inner, ch := r.maskErr(e.UnwrapErr, depth+1)
		cp := *e
		cp.Err, cp.Name, cp.Server, cp.UnwrapErr = r.Text(e.Err), r.Text(e.Name), r.Text(e.Server), inner
		if !ch && cp.Err == e.Err && cp.Name == e.Name && cp.Server == e.Server {
			return err
		}
		return &cp
	case *retryable:
		inner, ch := r.maskErr(e.err, depth+1)
		if !ch {
			return err
		}
		return &retryable{inner}
	case *finalErr:
		inner, ch := r.maskErr(e.err, depth+1)
		if !ch {
			return err
		}
		return &finalErr{inner}
	}
	return nil
}

// httpHolds reports whether a field of e holds the key.
func (r *redactor) httpHolds(e *nodeaccess.HTTPError) bool {
	for _, s := range [...]string{e.Status, e.ContentType, e.Message, e.Method, e.URL, e.Location} {
		if r.holds(s) {
			return true
		}
	}
	i, _ := find(r, e.Body, 0)
	return i >= 0
}

// holds reports whether s holds a spelling of the key.
func (r *redactor) holds(s string) bool {
	i, _ := find(r, s, 0)
	return i >= 0
}

func unwrap(err error) []error {
	switch x := err.(type) {
	case interface{ Unwrap() []error }:
		return x.Unwrap()
	case interface{ Unwrap() error }:
		if e := x.Unwrap(); e != nil {
			return []error{e}
		}
	}
	return nil
}

// valueHolds reports whether v, a decoded JSON value, holds the key in a
// string, map keys included.
func (r *redactor) valueHolds(v any) bool {
	switch x := v.(type) {
	case string:
		return r.holds(x)
	case []any:
		for _, e := range x {
			if r.valueHolds(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if r.holds(k) || r.valueHolds(e) {
				return true
			}
		}
	}
	return false
}

// masked stands in for an error of a type Err does not copy that showed the
// key: its message masked, its causes made safe.
type masked struct {
	msg  string
	errs []error
	// was is the type of the error it stands in for, for tests that check
	// that no typed error of the SDK ever needs one.
	was string
}

func (e *masked) Error() string   { return e.msg }
func (e *masked) Unwrap() []error { return e.errs }

// StandIns returns the types (as %T prints them) of the errors in err's
// chain that masking had to replace because they showed the key: the
// wrappers of fmt.Errorf and errors.Join, whose type no caller can name,
// and, were an entry point to let the key into one, a typed error. Tests
// use it to check that every typed error the SDK returns keeps its type.
func StandIns(err error) []string {
	var out []string
	var walk func(error, int)
	walk = func(err error, depth int) {
		if err == nil || depth > maxErrDepth {
			return
		}
		if m, ok := err.(*masked); ok {
			out = append(out, m.was)
		}
		for _, c := range unwrap(err) {
			walk(c, depth+1)
		}
	}
	walk(err, 0)
	return out
}
