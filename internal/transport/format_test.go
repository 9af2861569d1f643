package transport

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
)

// holder holds a client and a target as the chain clients do.
type holder struct {
	c  *Client
	tg Target
}

// TestNoKeyReachableByFmt: the key (and every form of it) is reachable from
// a value that holds a *Client or a Target (a chain client) only through
// two pointers, so no formatting of it shows the key; the redactor, which
// holds it, formats itself as Mask.
func TestNoKeyReachableByFmt(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, escKey} {
		for _, s := range []Settings{
			{Chain: "test", BaseURL: "https://node.example/v1", Key: key},
			{Chain: "test", BaseURL: "https://node.example/v1", Key: key, Options: funcs(nodeaccess.WithHTTPClient(&http.Client{}))},
			{Chain: "test", BaseURL: "https://node.example/v1", Key: key, Keyless: true},
		} {
			c, err := New(s)
			assert.NoError(t, err)
			h := &holder{c: c}
			if !s.Keyless {
				h.tg = rpcTarget(t, c)
			}
			testkit.AssertFormatNoKey(t, key, h)
			testkit.AssertUnprintable(t, key, *h)
			for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
				assert.Equal(t, Mask, fmt.Sprintf(verb, c.red), "redactor %s", verb)
			}
			assert.Equal(t, Mask, c.red.String())
			assert.Equal(t, Mask, c.red.GoString())
		}
	}
}
