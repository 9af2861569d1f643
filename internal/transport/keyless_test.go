package transport

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeylessRefusesWhatCarriesTheKey sends requests from a keyless client
// whose query values, path values or body say the key once the host decodes
// them: "+" for a space in a query, %XX, JSON's \u escapes and an escape of
// an escape's introducer (\u0026#83; is "&#83;", an HTML spelling of "S").
// Each is refused with nothing sent; the same request without the key goes.
func TestKeylessRefusesWhatCarriesTheKey(t *testing.T) {
	t.Parallel()
	const key = "Ab Cd9xYz"
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(Settings{Chain: "hyper", BaseURL: srv.URL, Key: key, Keyless: true})
	require.NoError(t, err)
	tg, err := c.Target("info")
	require.NoError(t, err)

	var ents, uesc, pct strings.Builder
	for _, b := range []byte(key) {
		fmt.Fprintf(&pct, "%%%02X", b)
	}
	for _, r := range key {
		fmt.Fprintf(&ents, `\u0026#%d;`, r)
		fmt.Fprintf(&uesc, `\u%04x`, r)
	}
	pathTg, err := c.Target("info/{x}", "x", key)
	require.NoError(t, err)
	for name, r := range map[string]*Request{
		"query, + for space": {Target: tg, Query: url.Values{"q": {key}}},
		"query, percent":     {Target: tg, Query: url.Values{"q": {pct.String()}}},
		"path value":         {Target: pathTg},
		"body, raw":          {Target: tg, Body: []byte(`{"u":"` + key + `"}`)},
		"body, \\u":          {Target: tg, Body: []byte(`{"u":"` + uesc.String() + `"}`)},
		"body, entities":     {Target: tg, Body: []byte(`{"u":"` + ents.String() + `"}`)},
		"body, member name":  {Target: tg, Body: []byte(`{"` + uesc.String() + `":1}`)},
	} {
		r.Op, r.Method = "info", http.MethodPost
		_, err := c.Do(context.Background(), r)
		require.ErrorIs(t, err, nodeaccess.ErrInvalidInput, name)
		assert.Contains(t, err.Error(), "access key", name)
		testkit.AssertErrNoKey(t, key, err)
	}
	assert.Zero(t, hits.Load(), "nothing was sent")

	_, err = c.Do(context.Background(), &Request{Op: "info", Method: http.MethodPost, Target: tg, Query: url.Values{"q": {"AbCd9xYz"}}, Body: []byte(`{"u":"Ab Cd9xY"}`)})
	require.NoError(t, err)
	assert.EqualValues(t, 1, hits.Load())
}
