package transport

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/nodeaccess/nodeaccess"
)

// parseBase checks and normalises a base URL: absolute http or https, a host,
// no query, no fragment, no user info; a trailing slash is dropped.
func parseBase(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, fmt.Errorf("base URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("base URL %q does not parse: %v", raw, urlParseReason(err))
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("base URL %q: scheme must be http or https", raw)
	case u.Host == "":
		return nil, fmt.Errorf("base URL %q has no host", raw)
	case u.User != nil:
		// Shown without its user information, not even a user name: a
		// key split across name and password would show its first part
		// where url.URL.Redacted shows the name.
		bare := *u
		bare.User = nil
		return nil, fmt.Errorf("base URL %q (user information left out) carries user info; pass the access key separately", bare.String())
	case u.RawQuery != "" || u.ForceQuery:
		return nil, fmt.Errorf("base URL %q has a query; pass the access key separately", raw)
	case u.Fragment != "":
		return nil, fmt.Errorf("base URL %q has a fragment", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	return u, nil
}

func urlParseReason(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return err.Error()
}

// checkKey validates an access key. The error never quotes the key itself.
func checkKey(key string) error {
	if key == "" {
		return fmt.Errorf("access key is empty")
	}
	if key == "." || key == ".." {
		return fmt.Errorf("access key is a dot segment, which servers and proxies remove from paths")
	}
	for i, r := range key {
		switch {
		case r == '/':
			return fmt.Errorf("access key contains '/' at byte %d; pass only the key, not a path", i)
		case unicode.IsSpace(r):
			return fmt.Errorf("access key contains white space at byte %d", i)
		case unicode.IsControl(r):
			return fmt.Errorf("access key contains a control character at byte %d", i)
		case r == unicode.ReplacementChar:
			return fmt.Errorf("access key is not valid UTF-8 at byte %d", i)
		}
	}
	return nil
}

// Target is a request URL made from a template, with its masked form for
// errors, logs and hooks. Build one with Client.Target.
//
// The URL holds the key, so it sits two pointers away from the Target: fmt
// prints a pointer below the top level as an address, and even a verb that
// does not fit a pointer (%s) opens only one, so no formatting of a value
// holding a Target (a chain client dereferenced) shows the key.
type Target struct {
	t *target
}

type target struct {
	url    *url.URL
	masked string
}

// Masked returns the URL with the access key replaced by Mask.
func (t Target) Masked() string {
	if t.t == nil {
		return ""
	}
	return t.t.masked
}

// Target expands tmpl, a path relative to the base URL, into a request URL.
// Placeholders: {key} is the access key; any other {name} takes the value
// after name in vars (name, value pairs). Every value is path-escaped, so a
// value cannot add path segments. A keyless client refuses {key}.
func (c *Client) Target(tmpl string, vars ...string) (Target, error) {
	if len(vars)%2 != 0 {
		return Target{}, fmt.Errorf("transport: odd number of template vars for %q", c.red.Text(tmpl))
	}
	var raw, masked strings.Builder
	base := c.base.EscapedPath()
	raw.WriteString(base)
	masked.WriteString(base)
	if tmpl != "" {
		raw.WriteByte('/')
		masked.WriteByte('/')
	}
	for rest := tmpl; rest != ""; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			raw.WriteString(rest)
			masked.WriteString(rest)
			break
		}
		raw.WriteString(rest[:open])
		masked.WriteString(rest[:open])
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return Target{}, fmt.Errorf("transport: unclosed placeholder in %q", c.red.Text(tmpl))
		}
		name := rest[open+1 : open+end]
		rest = rest[open+end+1:]
		if name == "key" {
			if !c.sendKey {
				return Target{}, fmt.Errorf("transport: template %q needs a key on a keyless client", c.red.Text(tmpl))
			}
			raw.WriteString(url.PathEscape(c.red.key))
			masked.WriteString(Mask)
			continue
		}
		val, ok := lookupVar(vars, name)
		if !ok {
			return Target{}, fmt.Errorf("transport: no value for {%s} in %q", c.red.Text(name), c.red.Text(tmpl))
		}
		if val == "" || val == "." || val == ".." {
			// Escaping leaves these as they are, and a server or proxy that
			// normalises the path would drop or climb a segment.
			return Target{}, &nodeaccess.InputError{Arg: c.red.Text(name), Reason: fmt.Sprintf("%q is not a path segment", val)}
		}
		esc := url.PathEscape(val)
		raw.WriteString(esc)
		masked.WriteString(esc)
	}
	u := &url.URL{Scheme: c.base.Scheme, Host: c.base.Host}
	p, err := url.PathUnescape(raw.String())
	if err != nil {
		return Target{}, fmt.Errorf("transport: template %q: %v", c.red.Text(tmpl), c.red.Text(err.Error()))
	}
	u.Path, u.RawPath = p, raw.String()
	if u.EscapedPath() != u.RawPath {
		u.RawPath = ""
	}
	// The base URL itself may hold the key (a user who passed the whole
	// endpoint as the base), so the masked form is scrubbed as well.
	return Target{&target{url: u, masked: c.red.Text(c.base.Scheme + "://" + c.base.Host + masked.String())}}, nil
}

func lookupVar(vars []string, name string) (string, bool) {
	for i := 0; i+1 < len(vars); i += 2 {
		if vars[i] == name {
			return vars[i+1], true
		}
	}
	return "", false
}

// withQuery returns the target's URL with q encoded as its query, and the
// masked form. q's values are query-escaped by url.Values.Encode.
func (t Target) withQuery(q url.Values) (*url.URL, string) {
	if len(q) == 0 {
		return t.t.url, t.t.masked
	}
	u := *t.t.url
	u.RawQuery = q.Encode()
	return &u, t.t.masked + "?" + u.RawQuery
}
