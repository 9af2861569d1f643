package nodeaccesstest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is what every local server shares: an HTTP server on 127.0.0.1,
// the exact key check, and the faults. The chain servers embed it. Its
// methods are safe for concurrent use.
type Server struct {
	// URL is the base URL, "http://127.0.0.1:<port>", with no trailing
	// slash.
	URL string

	// key is the access key the server accepts in the path (see Key),
	// behind a pointer so that fmt, printing a Server value field by field,
	// shows an address, not the key.
	key *string

	// The running server, two pointers away (promoted fields: s.mu is
	// s.core.state.mu). fmt opens at most one pointer below what it is
	// given, and only under a verb that does not fit a pointer (%s, %d):
	// it prints core as {0xc000...} and never reads the fields the serving
	// goroutines change (http.Server's listeners, mu, the request log),
	// which would be a data race whenever a running Server is printed.
	*core
}

// core holds the running server's state behind one more pointer (see
// Server).
type core struct{ *state }

// state is a running Server's state.
type state struct {
	errw   func(w http.ResponseWriter, r *http.Request, status int, msg string)
	mux    *http.ServeMux
	srv    *http.Server
	done   chan struct{} // closed by Close: pauses end
	quit   chan struct{} // closed when Serve has returned
	closed chan struct{} // closed when Close has finished

	mu      sync.Mutex
	idle    *sync.Cond // signalled when active drops to 0
	active  int
	closing bool
	count   int
	faults  []queued
	log     []Request // the last maxLog requests
	plan    *plan     // the plan enforced, nil for none (plan.go)
}

// maxLog is how many requests Requests keeps; maxLogBody how many bytes of
// each body.
const (
	maxLog     = 1000
	maxLogBody = 64 << 10
)

// Request is a request a [Server] received, as [Server.Requests] keeps it.
type Request struct {
	// Method is the HTTP method.
	Method string
	// Path is the request's path, unescaped, with every occurrence of the
	// server's key written "{key}" ("/{key}/info"), so that a log of it
	// never holds the key. Query, Header and Body are as sent.
	Path string
	// Query is the parsed query string.
	Query url.Values
	// Header is the request's header.
	Header http.Header
	// Body is the request body, its first 64 KiB at most.
	Body []byte
	// Fault is the fault the request got, the zero Fault when none.
	Fault Fault
}

type queued struct {
	f Fault
	n int
}

// Start listens on 127.0.0.1 at a free port and serves. An empty key means a
// random one (32 hex characters); a key with characters other than ASCII
// letters, digits and "._~-" is refused, since it would not be one path
// segment as written.
//
// writeError writes the chain's own error answer for status with the
// message msg: the body shape and content type its real servers use (nil: a
// text/plain body holding the message). r is the request being answered, so
// that a server speaking two APIs (TON's v2 and v3) can pick the shape by
// path. The server calls it for the wrong key (403), an unknown path (404),
// a wrong method (405, with the Allow header already set), the faults that
// answer instead of the server (429 with Retry-After already set,
// [ServerError]'s status), a request that arrives while the server closes
// (503) and a handler's panic (500); handlers call it through
// [Server.WriteError].
//
// Register the server's routes with [Server.Handle] before handing out
// its URL: until then every path is unknown (404).
func Start(key string, writeError func(w http.ResponseWriter, r *http.Request, status int, msg string)) (*Server, error) {
	if key == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		key = hex.EncodeToString(b[:])
	}
	for i := 0; i < len(key); i++ {
		if !keyByte(key[i]) {
			return nil, fmt.Errorf("nodeaccesstest: the access key may hold only ASCII letters, digits and ._~- (byte %d is %q)", i, key[i])
		}
	}
	if writeError == nil {
		writeError = plainError
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("nodeaccesstest: listen on 127.0.0.1: %w", err)
	}
	s := &Server{
		URL: "http://" + ln.Addr().String(),
		key: &key,
		core: &core{&state{
			errw:   writeError,
			mux:    http.NewServeMux(),
			done:   make(chan struct{}),
			quit:   make(chan struct{}),
			closed: make(chan struct{}),
		}},
	}
	s.idle = sync.NewCond(&s.mu)
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serveHTTP),
		ReadHeaderTimeout: 30 * time.Second,
	}
	go func() {
		defer close(s.quit)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("._~-", c) >= 0
}

func plainError(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg+"\n")
}

// Handle registers h for a net/http ServeMux pattern ("POST /{key}/info",
// "GET /beacon/{key}/eth/v2/debug/beacon/states/{state_id}"). When the
// pattern holds the wildcard {key}, a request whose key segment is not
// exactly [Server.Key] gets 403 with the chain's error body
// ([Server.WriteError]) and the message "invalid access key", and h does
// not run. Handle panics on a pattern the
// ServeMux refuses, as ServeMux.Handle does, and on a pattern whose path
// ends in "/" (other than "/" itself): for such a subtree pattern ServeMux
// redirects a request without the slash before any handler runs, past the
// key check, with the wrong key in Location.
func (s *Server) Handle(pattern string, h http.Handler) {
	p := pattern
	if i := strings.IndexAny(p, " \t"); i >= 0 {
		p = strings.TrimLeft(p[i:], " \t")
	}
	if strings.HasSuffix(p, "/") && p != "/" {
		panic(fmt.Sprintf("nodeaccesstest: pattern %q ends in \"/\": ServeMux would redirect a request without the slash before the key check; end it in {$} or a name", pattern))
	}
	if strings.Contains(pattern, "{key}") {
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if subtle.ConstantTimeCompare([]byte(r.PathValue("key")), []byte(*s.key)) != 1 {
				s.errw(w, r, http.StatusForbidden, "invalid access key")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	s.mux.Handle(pattern, h)
}

// WriteError writes the chain's own error answer for status with the
// message msg, as the server's refusals and faults do (see [Start]): a
// handler a test registers answers in the chain's error body with it.
func (s *Server) WriteError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	s.errw(w, r, status, msg)
}

// HandleFunc is [Server.Handle] for a function.
func (s *Server) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	s.Handle(pattern, http.HandlerFunc(h))
}

// FailNext makes the next n requests, on any path and counted as they
// arrive after the faults already queued, get f. n = 0 queues nothing; a
// negative n or the zero Fault (a Fault not made by this package's
// functions) is a mistake in the test, and FailNext panics rather than let
// the test pass without its fault.
func (s *Server) FailNext(n int, f Fault) {
	switch {
	case f.kind == 0:
		panic("nodeaccesstest: FailNext with the zero Fault: make one with RateLimited, ServerError, SlowBody, TruncatedBody or DropConnection")
	case n < 0:
		panic(fmt.Sprintf("nodeaccesstest: FailNext(%d, %v): negative count", n, f))
	case n == 0:
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, queued{f: f, n: n})
}

// ClearFaults drops the faults still queued.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// Key returns the access key the server accepts in the path. It is a
// method, not a field, so that no printing, reflection or encoding of a
// server (fmt's %+v, encoding/json, a test's diff) reaches it.
func (s *Server) Key() string { return *s.key }

// String describes the server with its key masked:
// "nodeaccesstest.Server{http://127.0.0.1:PORT, key REDACTED}".
func (s *Server) String() string {
	return "nodeaccesstest.Server{" + s.URL + ", key REDACTED}"
}

// Format prints String for every verb (%v, %+v, %#v, %s, ...), so that a
// server printed in a log, alone or inside a struct, never shows its key.
// The chain servers that embed a *Server print the same way unless they
// describe themselves.
func (s *Server) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, s.String()) }

// Requests returns the requests the server has received, oldest first: the
// last 1000, on every path, the faulted and refused ones included. A test
// asserts with it what its code sent (RequestCount counts them all). The
// result is the caller's: changing it changes nothing the server keeps.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.log))
	for i, r := range s.log {
		r.Query = maps.Clone(r.Query)
		for k, v := range r.Query {
			r.Query[k] = slices.Clone(v)
		}
		r.Header = r.Header.Clone()
		r.Body = slices.Clone(r.Body)
		out[i] = r
	}
	return out
}

// RequestCount returns the number of requests the server has received
// since it started, on every path, the faulted and refused ones included:
// all of them, where Requests keeps the last 1000.
func (s *Server) RequestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// Close stops the server: it stops listening, ends the pauses of slow
// bodies, closes the connections and waits for the handlers still running.
// It may be called more than once, also concurrently: every call returns
// when the server has stopped.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		<-s.closed
		return
	}
	s.closing = true
	s.mu.Unlock()
	defer close(s.closed)
	close(s.done)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if s.srv.Shutdown(ctx) != nil {
		_ = s.srv.Close() // a handler still writing to a client that stopped reading
	}
	<-s.quit
	s.mu.Lock()
	for s.active > 0 {
		s.idle.Wait()
	}
	s.mu.Unlock()
}

// arrive counts a request and takes its fault, if one is queued. ok is
// false when the server is closing.
func (s *Server) arrive(r *http.Request) (f Fault, ok bool) {
	rec := s.record(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return Fault{}, false
	}
	s.count++
	s.active++
	if len(s.faults) > 0 {
		f = s.faults[0].f
		if s.faults[0].n--; s.faults[0].n == 0 {
			s.faults = s.faults[1:]
		}
	} else if s.plan != nil {
		f, _ = s.plan.charge(rec, time.Now())
	}
	rec.Fault = f
	if len(s.log) == maxLog {
		s.log = slices.Delete(s.log, 0, 1)
	}
	s.log = append(s.log, rec)
	return f, true
}

// record copies what Requests keeps of r, and puts back the body it read.
func (s *Server) record(r *http.Request) Request {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxLogBody))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	return Request{
		Method: r.Method,
		Path:   s.maskPath(r),
		Query:  r.URL.Query(),
		Header: r.Header.Clone(),
		Body:   body,
	}
}

func (s *Server) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active--; s.active == 0 {
		s.idle.Broadcast()
	}
}

// serveHTTP applies the next fault, if any, and routes the request.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	f, ok := s.arrive(r)
	if !ok {
		s.errw(w, r, http.StatusServiceUnavailable, "server closing")
		return
	}
	defer s.leave()
	tw := &trackedWriter{ResponseWriter: w}
	w = tw
	defer s.recoverPanic(tw, r)
	switch f.kind {
	case rateLimited:
		w.Header().Set("Retry-After", retryAfter(f.wait))
		s.errw(w, r, f.status, "rate limit exceeded")
	case serverError:
		s.errw(w, r, f.status, strings.ToLower(http.StatusText(f.status)))
	case dropConnection:
		drop(w, r)
	case slowBody, truncatedBody:
		h := httptest.NewRecorder()
		s.route(h, r)
		replay(h, w, r, f, s.done)
	default:
		s.route(w, r)
	}
}

// maskPath is r's path, unescaped, with every occurrence of the key written
// "{key}": the key is masked also where a client sent it percent-encoded
// or run into another segment.
func (s *Server) maskPath(r *http.Request) string {
	return strings.ReplaceAll(r.URL.Path, *s.key, "{key}")
}

// trackedWriter notes whether anything of the answer went out, so that a
// panic after that cuts the connection instead of appending a second answer.
type trackedWriter struct {
	http.ResponseWriter
	wrote bool
}

func (t *trackedWriter) WriteHeader(code int) {
	t.wrote = true
	t.ResponseWriter.WriteHeader(code)
}

func (t *trackedWriter) Write(p []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(p)
}

// Flush sends what was written (http.Flusher, for handlers that assert it).
func (t *trackedWriter) Flush() {
	t.wrote = true
	_ = http.NewResponseController(t.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (t *trackedWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// recoverPanic turns a handler's panic into a log line with the stack on the
// standard logger (the key in the path written {key}) and, when nothing of
// the answer went out yet, a 500 with the chain's error body; otherwise the
// connection is cut, as net/http does. A bug in a handler is so not
// mistaken for a network failure. http.ErrAbortHandler, which the faults use
// to cut a connection, goes on to net/http.
func (s *Server) recoverPanic(w *trackedWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	log.Printf("nodeaccesstest: panic serving %s %s: %v\n%s", r.Method, s.maskPath(r), v, debug.Stack())
	if w.wrote {
		panic(http.ErrAbortHandler)
	}
	s.errw(w, r, http.StatusInternalServerError, "internal error: the handler panicked")
}

// route runs the handler registered for r, or answers 404 or 405 with the
// chain's error body.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	// A path with "//", "." or ".." segments: ServeMux would answer with a
	// redirect to the cleaned path, past the key check and the chain's
	// error body, and with the wrong key in its Location. No route of a
	// chain server has such a path.
	if p := r.URL.Path; p != cleanPath(p) {
		s.errw(w, r, http.StatusNotFound, "not found")
		return
	}
	h, pattern := s.mux.Handler(r)
	if pattern != "" {
		s.mux.ServeHTTP(w, r) // sets the path values
		return
	}
	// No pattern: the mux's own answer says whether the path is unknown
	// (404) or known under another method (405, with Allow).
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", rec.Header().Get("Allow"))
		s.errw(w, r, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	s.errw(w, r, http.StatusNotFound, "not found")
}

// cleanPath is p as ServeMux cleans it: path.Clean, keeping a trailing
// slash.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}

// drop reads the request and closes its connection without an answer.
func drop(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 64<<20))
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // not HTTP/1: abort the stream instead
	}
	_ = conn.Close()
}

// replay sends the answer h holds with its Content-Length and the first
// half of its body, then either pauses and sends the rest (slowBody) or
// closes the connection (truncatedBody).
func replay(h *httptest.ResponseRecorder, w http.ResponseWriter, r *http.Request, f Fault, done <-chan struct{}) {
	dst := w.Header()
	for k, v := range h.Header() {
		dst[k] = v
	}
	body := h.Body.Bytes()
	if r.Method != http.MethodHead || dst.Get("Content-Length") == "" {
		dst.Set("Content-Length", strconv.Itoa(len(body)))
	}
	dst.Del("Transfer-Encoding")
	if f.kind == truncatedBody && len(body) == 0 && r.Method != http.MethodHead {
		// Nothing to cut: promise a byte that never comes.
		dst.Set("Content-Length", "1")
	}
	w.WriteHeader(h.Code)
	half := len(body) / 2
	_, _ = w.Write(body[:half])
	_ = http.NewResponseController(w).Flush()
	if f.kind == truncatedBody {
		panic(http.ErrAbortHandler) // net/http closes the connection mid-body
	}
	t := time.NewTimer(f.wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
		return
	case <-done:
		return
	}
	_, _ = w.Write(body[half:])
}
