package beacon_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NewFromURL takes https://host/beacon/<KEY> and nothing else: no segment
// around the key is ever taken for it (issue 11: a path before /beacon was
// kept, so "/<KEY>/beacon/eth" was read as the key "eth", and the real key
// printed).
func TestNewFromURLShapes(t *testing.T) {
	testkit.CheckNewFromURL(t, testkit.NewFromURLCheck{
		New: func(endpoint string, opt nodeaccess.Option) (fmt.Formatter, error) {
			return beacon.NewFromURL(endpoint, opt)
		},
		Shapes: map[string][]string{"beacon/{key}": {"beacon/{key}/eth/v2/debug/beacon/states/head"}},
		Call: func(ctx context.Context, c fmt.Formatter) error {
			_, _, err := c.(*beacon.Client).State(ctx, beacon.Head, beacon.StateOptions{})
			return err
		},
	})
}

// The refusal as users read it: the reason and the shape, never a part of
// the URL.
func TestNewFromURLRefusal(t *testing.T) {
	for _, ep := range []string{
		"https://host/" + testKey + "/beacon/eth",
		"https://host/v1/beacon/" + testKey,
		"https://host/beacon/" + testKey + "/eth/v2/debug/beacon/states/head",
		"https://host/Beacon/" + testKey,
		"https://host/" + testKey,
	} {
		c, err := beacon.NewFromURL(ep)
		require.Error(t, err, "accepted %s as %v", ep, c)
		assert.Equal(t, "beacon: invalid input: endpoint: the endpoint URL's path is not a form beacon.NewFromURL takes "+
			"(https://host/beacon/<KEY>, with no other path segment); "+
			"for a base URL with a path of its own, use beacon.New(baseURL, key)", err.Error(), ep)
	}
	_, err := beacon.NewFromURL("https://host/beacon/beacon")
	assert.EqualError(t, err, "beacon: invalid input: endpoint: the key segment is a path name (evm, info or beacon), not a key: the key is missing")
}

// The shape gives New's client for the host and the key, with the options
// given.
func TestNewFromURLIsNew(t *testing.T) {
	for _, ep := range []string{"https://node.example/beacon/" + testKey, "https://node.example/beacon/" + testKey + "/"} {
		c, err := beacon.NewFromURL(ep, beacon.WithEncoding(beacon.EncodingSSZ), nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t)))
		require.NoError(t, err, ep)
		assert.Equal(t, "beacon.Client{https://node.example/beacon/REDACTED}", fmt.Sprint(c))
		// The key and the option reach the request: the key in the path,
		// the Accept header WithEncoding(EncodingSSZ) asks for.
		mockState(t, "head", "application/octet-stream").Status(404)
		_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		assert.ErrorIs(t, err, nodeaccess.ErrNotFound, ep)
	}
}
