package transport

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nodeaccess/nodeaccess"
)

// pathNames are the literal path segments of the endpoint shapes that the
// chain packages' NewFromURL accept. A key segment equal to one of them, in
// any case, is refused: "https://host/info" is an endpoint whose key is
// missing, not one whose key is "info".
var pathNames = []string{"evm", "info", "beacon"}

// Endpoint is a whole endpoint URL taken apart by ParseEndpoint.
type Endpoint struct {
	// Base is the scheme and host (with any port): "https://host". It has
	// no path, so no part of the key can hide in it.
	Base string
	// Key is the key segment, %-decoded.
	Key string
	// Shape is the shape the URL has, one of those given to ParseEndpoint.
	Shape string
}

// The reasons ParseEndpoint gives. None is built from the URL: no part of
// the path, which holds the key, and not the host either.
const (
	reasonSpace    = "the endpoint URL holds white space or a control character"
	reasonParse    = "the endpoint URL does not parse (check its host, port and %-escapes)"
	reasonAbsolute = "the endpoint URL must be absolute http or https, with a host"
	reasonHost     = "the endpoint URL's host must be ASCII letters, digits, '-' and '.', or an IPv6 address in brackets, with any port"
	reasonUser     = "the endpoint URL carries user info; the key goes in the path"
	reasonQuery    = "the endpoint URL has a query or a fragment"
	reasonEmpty    = "the endpoint URL has an empty path segment"
	reasonDot      = "the endpoint URL has a dot segment (. or ..), which servers and proxies remove"
	reasonSep      = "the key segment holds an escaped '/' or a '\\', which servers may read as a path separator"
	reasonText     = "the key segment holds white space, a control character or invalid UTF-8 once %-decoded"
	reasonEscape   = "the key segment is not written as it would be sent: escape only what url.PathEscape escapes, and nothing else"
	reasonName     = "the key segment is a path name (evm, info or beacon), not a key: the key is missing"
)

// ParseEndpoint takes apart a whole endpoint URL whose path has one of
// shapes: paths relative to the host, made of literal segments and exactly
// one "{key}" segment ("{key}", "{key}/evm", "beacon/{key}"). fn names the
// caller in the refusal ("evm.NewFromURL"). Nothing is guessed: the URL is
// an absolute http or https URL with a host (an ASCII name or an IP
// address, any port), no user info, no query and no fragment; its path, less one trailing slash, has exactly the segments of
// a shape, each literal one as written (case and all); the key segment is
// %-escaped exactly as the transport sends it (url.PathEscape, hex digits
// in either case), decodes to no '/', '\', white space or control
// character, is no dot segment and is none of pathNames.
//
// So every part of an accepted URL is its scheme and host, a literal of its
// shape, or the key, which the transport masks wherever it shows a URL.
// A refusal is an *nodeaccess.InputError on "endpoint" whose reason is a
// fixed sentence: it quotes no part of the URL.
func ParseEndpoint(fn, endpoint string, shapes ...string) (Endpoint, error) {
	bad := func(reason string) (Endpoint, error) {
		return Endpoint{}, &nodeaccess.InputError{Arg: "endpoint", Reason: reason}
	}
	for i := 0; i < len(endpoint); i++ {
		if c := endpoint[i]; c <= ' ' || c == 0x7f {
			return bad(reasonSpace)
		}
	}
	if strings.ContainsAny(endpoint, "?#") {
		return bad(reasonQuery)
	}
	u, err := url.Parse(endpoint)
	switch {
	case err != nil:
		return bad(reasonParse)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Opaque != "":
		return bad(reasonAbsolute)
	case u.User != nil:
		return bad(reasonUser)
	case !plainHost(u.Host):
		return bad(reasonHost)
	}
	p := u.EscapedPath()
	if p != "/" {
		p = strings.TrimSuffix(p, "/")
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for _, s := range segs {
		if s == "" && len(segs) > 1 {
			return bad(reasonEmpty)
		}
		if d, err := url.PathUnescape(s); err == nil && (d == "." || d == "..") {
			return bad(reasonDot)
		}
	}
	shape, raw, ok := matchShape(segs, shapes)
	if !ok {
		return bad(shapeReason(fn, shapes))
	}
	key, err := url.PathUnescape(raw)
	if err != nil {
		return bad(reasonParse)
	}
	if strings.ContainsAny(key, "/\\") {
		return bad(reasonSep)
	}
	if !utf8.ValidString(key) || strings.ContainsFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return bad(reasonText)
	}
	for _, n := range pathNames {
		if strings.EqualFold(key, n) {
			return bad(reasonName)
		}
	}
	if !strings.EqualFold(url.PathEscape(key), raw) {
		return bad(reasonEscape)
	}
	return Endpoint{Base: u.Scheme + "://" + u.Host, Key: key, Shape: shape}, nil
}

// plainHost reports whether host is a name of ASCII letters, digits, '-'
// and '.', or an IPv6 address in brackets (no zone), with an optional
// port: nothing a parser could unescape or read in two ways.
func plainHost(host string) bool {
	name, port := host, ""
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 || strings.Trim(host[1:end], "0123456789abcdefABCDEF:.") != "" {
			return false
		}
		name, port = "", host[end+1:]
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		name, port = host[:i], host[i:]
	}
	if port != "" && (port[0] != ':' || strings.Trim(port[1:], "0123456789") != "") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// matchShape returns the shape whose segments segs has, and the raw key
// segment. An empty key segment matches no shape.
func matchShape(segs, shapes []string) (shape, key string, ok bool) {
	for _, sh := range shapes {
		want := strings.Split(sh, "/")
		if len(want) != len(segs) {
			continue
		}
		key, ok = "", true
		for i, w := range want {
			switch {
			case w == "{key}" && segs[i] != "":
				key = segs[i]
			case w != segs[i]:
				ok = false
			}
		}
		if ok && key != "" {
			return sh, key, true
		}
	}
	return "", "", false
}

// shapeReason says which shapes fn takes, and what to do instead.
func shapeReason(fn string, shapes []string) string {
	forms := make([]string, len(shapes))
	for i, sh := range shapes {
		forms[i] = "https://host/" + strings.ReplaceAll(sh, "{key}", "<KEY>")
	}
	pkg, _, _ := strings.Cut(fn, ".")
	return "the endpoint URL's path is not a form " + fn + " takes (" + strings.Join(forms, ", ") +
		", with no other path segment); for a base URL with a path of its own, use " + pkg + ".New(baseURL, key)"
}
