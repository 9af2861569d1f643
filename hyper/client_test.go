package hyper_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
)

func TestNewRefusesBadArguments(t *testing.T) {
	cases := []struct {
		name string
		base string
		key  string
		opts []nodeaccess.Option
		want string
	}{
		{"scheme", "ftp://node.example", testKey, nil, `hyper: invalid input: baseURL: base URL "ftp://node.example": scheme must be http or https`},
		{"empty key", testBase, "", nil, "hyper: invalid input: key: access key is empty"},
		{"key with a slash", testBase, "a/b", nil, "hyper: invalid input: key: access key contains '/' at byte 1; pass only the key, not a path"},
		{"empty public URL", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL("")},
			"hyper: invalid input: option: WithPublicURL: the public API URL does not parse"},
		{"public URL without scheme", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL("api.hyperliquid.xyz")},
			`hyper: invalid input: option: WithPublicURL: the public API URL must be absolute http or https with a host (scheme "")`},
		{"public URL with another scheme", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL("wss://api.hyperliquid.xyz/ws")},
			`hyper: invalid input: option: WithPublicURL: the public API URL must be absolute http or https with a host (scheme "wss")`},
		{"public URL with user info", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL("https://u:p@api.hyperliquid.xyz")},
			`hyper: invalid input: option: WithPublicURL: the public API URL for host "api.hyperliquid.xyz" has user info, a query or a fragment`},
		{"public URL with a query", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL("https://api.hyperliquid.xyz/?x=1")},
			`hyper: invalid input: option: WithPublicURL: the public API URL for host "api.hyperliquid.xyz" has user info, a query or a fragment`},
		{"public URL with a fragment", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL("https://api.hyperliquid.xyz/#x")},
			`hyper: invalid input: option: WithPublicURL: the public API URL for host "api.hyperliquid.xyz" has user info, a query or a fragment`},
		{"public URL that does not parse", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL("https://api.hyperliquid.xyz/%zz")},
			"hyper: invalid input: option: WithPublicURL: the public API URL does not parse"},
		{"bad shared option", testBase, testKey, []nodeaccess.Option{hyper.WithPublicURL(hyper.TestnetAPIURL), nodeaccess.WithMaxAttempts(0)},
			"hyper: invalid input: option: nodeaccess: WithMaxAttempts: 0 is outside 1..20"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := hyper.New(tc.base, tc.key, tc.opts...)
			require.Error(t, err)
			assert.Nil(t, c)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

// One client shared by many goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	node := newScript(t, reply{200, "application/json", vaultsBody})
	public := newScript(t, reply{200, "application/json", `{"BTC":"30135.0","@1":"21.5"}`})
	c := faultClient(t, node, public)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				v, err := c.UserVaultEquities(context.Background(), recordedUser)
				if assert.NoError(t, err) {
					assert.Equal(t, "688536.0314879999", v[0].Equity.String())
				}
				m, err := c.AllMids(context.Background(), "")
				if assert.NoError(t, err) {
					assert.Equal(t, 2, m.Len())
				}
			}
		}()
	}
	wg.Wait()
	assert.Len(t, node.requests(), 80)
	assert.Len(t, public.requests(), 80)
}
