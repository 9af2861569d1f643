package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/stretchr/testify/assert"
)

// cannedRT answers every request with a JSON-RPC result echoing id 1..n, in
// process, so that an allocation count sees the client's work only.
type cannedRT struct{ id int }

func (c *cannedRT) RoundTrip(r *http.Request) (*http.Response, error) {
	c.id++
	body := []byte(`{"jsonrpc":"2.0","id":` + itoa(c.id) + `,"result":"0x1"}`)
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

func itoa(n int) string {
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// callAllocs counts the allocations of one successful JSON-RPC call through
// c, the in-process transport's own included.
func callAllocs(t *testing.T, c *Client) float64 {
	tg := rpcTarget(t, c)
	ctx := context.Background()
	return testing.AllocsPerRun(200, func() {
		res, err := c.CallRPC(ctx, &RPC{Target: tg, Method: "eth_chainId", Params: []byte("[]")})
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
	})
}

// TestSuccessAllocs: masking costs the success path nothing. The bounds are
// the counts measured before the matcher replaced the list of spellings
// (17 through a RoundTripper, 23 through an *http.Client, the canned
// transport's own allocations included); a key that needs escaping costs no
// more than a plain one.
func TestSuccessAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	for _, key := range []string{testKey, escKey} {
		rt := newClient(t, "https://node.example", key, nodeaccess.WithRoundTripper(&cannedRT{}))
		assert.LessOrEqual(t, callAllocs(t, rt), 17.0, "through a RoundTripper, key %q", key)
		hc := newClient(t, "https://node.example", key, nodeaccess.WithHTTPClient(&http.Client{Transport: &cannedRT{}}))
		assert.LessOrEqual(t, callAllocs(t, hc), 23.0, "through an *http.Client, key %q", key)
	}
}
