package hyper_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// NewFromURL takes https://host/<KEY>, https://host/<KEY>/info and
// https://host/<KEY>/evm and nothing else: no segment around the key is
// ever taken for it (issue 11: "/<KEY>/rpc" was read as the key "rpc", and
// the real key printed).
func TestNewFromURLShapes(t *testing.T) {
	// The node's /info below the key, whichever shape the client came from
	// (hypercore.NewFromURL takes the same shapes for HyperEVM).
	wire := []string{"{key}/info"}
	testkit.CheckNewFromURL(t, testkit.NewFromURLCheck{
		New: func(endpoint string, opt nodeaccess.Option) (fmt.Stringer, error) {
			c, err := hyper.NewFromURL(endpoint, opt)
			if err != nil {
				return nil, err
			}
			return c, nil
		},
		Shapes: map[string][]string{"{key}": wire, "{key}/info": wire, "{key}/evm": wire},
		Call: func(ctx context.Context, c fmt.Stringer) error {
			_, err := c.(*hyper.Client).UserVaultEquities(ctx, common.HexToAddress("0x1"))
			return err
		},
	})
}

// The refusal as users read it: the reason and the shapes, never a part of
// the URL.
func TestNewFromURLRefusal(t *testing.T) {
	for _, ep := range []string{
		"https://host/" + testKey + "/rpc",
		"https://host/" + testKey + "/INFO",
		"https://host/hl/" + testKey + "/info",
		"https://host/" + testKey + "/info/x",
	} {
		c, err := hyper.NewFromURL(ep)
		require.Error(t, err, "accepted %s as %v", ep, c)
		assert.Equal(t, "hyper: invalid input: endpoint: the endpoint URL's path is not a form hyper.NewFromURL takes "+
			"(https://host/<KEY>, https://host/<KEY>/info, https://host/<KEY>/evm, with no other path segment); "+
			"for a base URL with a path of its own, use hyper.New(baseURL, key)", err.Error(), ep)
	}
	_, err := hyper.NewFromURL("https://host/info/")
	assert.EqualError(t, err, "hyper: invalid input: endpoint: the key segment is a path name (evm, info or beacon), not a key: the key is missing")
}

// Every shape gives New's client for the host and the key, with the
// options given.
func TestNewFromURLIsNew(t *testing.T) {
	for _, ep := range []string{"https://node.example/" + testKey, "https://node.example/" + testKey + "/",
		"https://node.example/" + testKey + "/info", "https://node.example/" + testKey + "/evm/"} {
		c, err := hyper.NewFromURL(ep, hyper.WithPublicURL(hyper.TestnetAPIURL))
		require.NoError(t, err, ep)
		assert.Equal(t, "hyper.Client{node https://node.example/REDACTED/info, public https://api.hyperliquid-testnet.xyz/info}", c.String(), ep)
	}
}
