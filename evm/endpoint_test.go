package evm_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NewFromURL takes https://host/<KEY> and https://host/<KEY>/evm and
// nothing else: no segment around the key is ever taken for it (issue 11:
// "/<KEY>/info" was read as the key "info", and the real key printed).
func TestNewFromURLShapes(t *testing.T) {
	testkit.CheckNewFromURL(t, testkit.NewFromURLCheck{
		New: func(endpoint string, opt nodeaccess.Option) (fmt.Formatter, error) {
			return evm.NewFromURL(endpoint, opt)
		},
		Shapes: map[string][]string{"{key}": {"{key}"}, "{key}/evm": {"{key}/evm"}},
		Call: func(ctx context.Context, c fmt.Formatter) error {
			_, err := c.(*evm.Client).Call(ctx, evm.CallMsg{To: common.HexToAddress("0x1")}, evm.Latest)
			return err
		},
	})
}

// The issue's own examples, and the refusal as users read it: the reason
// and the shapes, never a part of the URL.
func TestNewFromURLRefusal(t *testing.T) {
	for _, ep := range []string{
		"https://host/" + testKey + "/info",
		"https://host/" + testKey + "/rpc",
		"https://host/v2/" + testKey + "/eth",
		"https://host/v2/" + testKey,
	} {
		c, err := evm.NewFromURL(ep)
		require.Error(t, err, "accepted %s as %v", ep, c)
		assert.Equal(t, "evm: invalid input: endpoint: the endpoint URL's path is not a form evm.NewFromURL takes "+
			"(https://host/<KEY>, https://host/<KEY>/evm, with no other path segment); "+
			"for a base URL with a path of its own, use evm.New(baseURL, key)", err.Error(), ep)
	}
	_, err := evm.NewFromURL("https://host/evm")
	assert.EqualError(t, err, "evm: invalid input: endpoint: the key segment is a path name (evm, info or beacon), not a key: the key is missing")
	_, err = evm.NewFromURL("https://host/" + testKey + "?x=1")
	assert.EqualError(t, err, "evm: invalid input: endpoint: the endpoint URL has a query or a fragment")
}

// What NewFromURL takes is exactly New's base and key.
func TestNewFromURLIsNew(t *testing.T) {
	for ep, want := range map[string]string{
		"https://node.example/" + testKey:                 "evm.Client{https://node.example/REDACTED}",
		"HTTPS://node.example:8545/" + testKey + "/":      "evm.Client{https://node.example:8545/REDACTED}",
		"http://127.0.0.1:8545/" + testKey + "/evm":       "evm.Client{http://127.0.0.1:8545/REDACTED/evm}",
		"https://node.example/" + testKey + "%C3%A9/evm/": "evm.Client{https://node.example/REDACTED/evm}",
	} {
		c, err := evm.NewFromURL(ep)
		require.NoError(t, err, ep)
		assert.Equal(t, want, fmt.Sprint(c), ep)
	}
}
