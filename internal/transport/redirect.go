package transport

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects is net/http's own limit, which a user's client without a
// CheckRedirect gets.
const maxRedirects = 10

// guardRedirects returns a copy of the user's client (which is never
// modified) whose CheckRedirect
//
//   - refuses a redirect to another origin (scheme, host or port) with
//     http.ErrUseLastResponse, so that the request, whose URL holds the key,
//     never goes there, and the 3xx ends the call as a *nodeaccess.HTTPError
//     with the Location masked;
//   - removes the Referer that net/http sets on a redirected request before
//     it calls CheckRedirect (the previous URL: the key), before the user's
//     CheckRedirect sees the request and again after if that put the key
//     back;
//   - otherwise answers as the user's CheckRedirect does, or, without one,
//     as net/http's default does (at most 10 redirects).
//
// The user's Transport, Jar and Timeout are kept.
func (c *Client) guardRedirects(user *http.Client) *http.Client {
	hc := *user
	check, red := user.CheckRedirect, c.red
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		req.Header.Del("Referer")
		if len(via) > 0 && !sameOrigin(via[0].URL, req.URL) {
			return http.ErrUseLastResponse
		}
		var err error
		switch {
		case check != nil:
			err = check(req, via)
		case len(via) >= maxRedirects:
			err = errors.New("stopped after 10 redirects")
		}
		if red.holds(req.Header.Get("Referer")) {
			req.Header.Del("Referer")
		}
		return err
	}
	return &hc
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (a missing port being the scheme's default).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
