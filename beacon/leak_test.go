package beacon_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// leakKeys: a plain key and one whose escaped forms differ from it.
var leakKeys = []string{"t3st-KEY-0123456789", "sEcReT%k3y:@+é"}

// unicodeEscaped writes every byte of key as a JSON \u escape, which the
// transport's masking of raw bodies cannot see.
func unicodeEscaped(key string) string {
	var b strings.Builder
	for _, r := range key {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// leakWatch collects everything a client shows: hook attempts and log
// records.
type leakWatch struct{ testkit.Recorder }

// options makes a client report to w, with quick retries.
func (w *leakWatch) options() []nodeaccess.Option {
	return []nodeaccess.Option{w.Option(), fast}
}

// check fails unless err is an error whose renderings, typed fields, hook
// attempts and log records all hide key.
func (w *leakWatch) check(t *testing.T, key string, err error) {
	t.Helper()
	require.Error(t, err)
	testkit.AssertErrNoKey(t, key, err)
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		testkit.AssertNoKey(t, key, "HTTPError", fmt.Sprintf("%+v %s", *he, he.Body))
	}
	var de *beacon.DecodeError
	if errors.As(err, &de) {
		testkit.AssertNoKey(t, key, "DecodeError", fmt.Sprintf("%+v", *de))
	}
	atts := w.Attempts()
	require.NotEmpty(t, atts, "the hook saw the attempts")
	for _, a := range atts {
		s := fmt.Sprintf("%+v", a)
		if a.Err != nil {
			s += a.Err.Error()
		}
		testkit.AssertNoKey(t, key, "hook", s)
	}
	testkit.AssertNoKey(t, key, "log", w.Log())
}

// TestKeyNeverLeaks runs every failure path of both calls against servers
// that echo the key wherever they can.
func TestKeyNeverLeaks(t *testing.T) {
	for _, key := range leakKeys {
		forms := testkit.KeySpellings(key)
		echoAll := strings.Join(forms, " | ") + " | " + unicodeEscaped(key)
		jsonAll := strings.Join(append(forms[1:], unicodeEscaped(key)), " ")
		cases := []struct {
			name    string
			handler func(w http.ResponseWriter, r *http.Request)
		}{
			{"404 beacon body echoing the key and the path", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(404)
				fmt.Fprintf(w, `{"code":404,"message":"state not found at %s key %s","stacktraces":["%s"]}`, r.URL.EscapedPath(), jsonAll, jsonAll)
			}},
			{"bare 404 echoing the path", func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(404)
				fmt.Fprintf(w, "404 page not found: %s %s", r.URL.Path, echoAll)
			}},
			{"500 with the key cut at the 4 KiB mark", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(500)
				fmt.Fprintf(w, `{"code":500,"message":"%s%s"}`, strings.Repeat("x", 4096-len(`{"code":500,"message":"`)-3), key)
			}},
			{"503 every time", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(503)
				fmt.Fprintf(w, `{"code":503,"message":"%s"}`, jsonAll)
			}},
			{"status line and headers echoing the key", func(w http.ResponseWriter, r *http.Request) {
				conn, rw := testkit.Hijack(t, w, r)
				defer conn.Close()
				fmt.Fprintf(rw, "HTTP/1.1 418 %s\r\nContent-Type: text/%s\r\nLocation: /x/%s\r\nContent-Length: 2\r\n\r\nno", key, url.PathEscape(key), url.PathEscape(key))
				_ = rw.Flush()
			}},
			{"redirect to a URL with the key", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "https://elsewhere.example/beacon/"+url.PathEscape(key)+"/x", http.StatusFound)
			}},
			{"content type echoing the key", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/"+key)
				w.Header().Set("Eth-Consensus-Version", "fulu")
				fmt.Fprint(w, key)
			}},
			{"version header echoing the key", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Header().Set("Eth-Consensus-Version", key)
				fmt.Fprint(w, key)
			}},
			{"json body naming the key as its version", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"version":"%s","data":{}}`, unicodeEscaped(key))
			}},
			{"json state quoting the key in a field", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"version":"phase0","execution_optimistic":false,"finalized":false,"data":{"genesis_time":"%s %s"}}`, jsonAll, unicodeEscaped(key))
			}},
			{"body broken off", func(w http.ResponseWriter, r *http.Request) {
				brokenBody(t, w, r, "application/octet-stream", "fulu", []byte(strings.Repeat(key, 100)), 10)
			}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { tc.handler(w, r) })
				watch := &leakWatch{}
				c, err := beacon.New(srv.URL, key, watch.options()...)
				require.NoError(t, err)
				testkit.AssertNoKey(t, key, "client", fmt.Sprintf("%v %+v %#v %s", c, c, c, c))
				_, _, err = c.State(context.Background(), beacon.Head)
				watch.check(t, key, err)

				watch = &leakWatch{}
				c, err = beacon.New(srv.URL, key, watch.options()...)
				require.NoError(t, err)
				d, err := c.DownloadState(context.Background(), beacon.Finalized, &bytes.Buffer{})
				if err == nil {
					// The JSON cases download fine; what they report must
					// not show the key either.
					testkit.AssertNoKey(t, key, "download", fmt.Sprintf("%+v", d))
					return
				}
				watch.check(t, key, err)
			})
		}
		t.Run("connection refused", func(t *testing.T) {
			srv, _ := serve(t, func(http.ResponseWriter, *http.Request, int) {})
			srv.Close()
			watch := &leakWatch{}
			c, err := beacon.New(srv.URL, key, watch.options()...)
			require.NoError(t, err)
			_, _, err = c.State(context.Background(), beacon.RootID(testRoot))
			watch.check(t, key, err)
			assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
		})
		t.Run("integrity failure", func(t *testing.T) {
			f := minimalFixture(t, beacon.Phase0)
			srv, _ := serve(t, stateHandler(f.ssz, "application/octet-stream", "phase0"))
			watch := &leakWatch{}
			c, err := beacon.New(srv.URL, key, append(watch.options(), beacon.WithPreset(beacon.MinimalPreset()))...)
			require.NoError(t, err)
			_, _, err = c.State(context.Background(), beacon.RootID(testRoot))
			assert.ErrorIs(t, err, beacon.ErrIntegrity)
			watch.check(t, key, err)
		})
	}
}

// Base URLs and endpoints holding the key never show it in constructor
// errors.
func TestConstructorErrorsHideKey(t *testing.T) {
	for _, key := range leakKeys {
		for _, ep := range []string{
			"ftp://node.example/beacon/" + url.PathEscape(key),
			"https://node.example/other/" + url.PathEscape(key),
			"https://node.example/beacon/" + url.PathEscape(key) + "?x=1",
			"https://node.example/beacon/" + url.PathEscape(key) + "#f",
			"https://user:" + url.PathEscape(key) + "@node.example/beacon/k",
		} {
			_, err := beacon.NewFromURL(ep)
			require.Error(t, err, ep)
			testkit.AssertNoKey(t, key, "NewFromURL error", err.Error())
		}
		_, err := beacon.New("https://node.example/"+key+"?q", key)
		require.Error(t, err)
		testkit.AssertNoKey(t, key, "New error", err.Error())
	}
}
