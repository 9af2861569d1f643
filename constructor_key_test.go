package nodeaccess_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// constructors are the four chains' New, by name.
var constructors = map[string]func(base, key string) error{
	"evm":    func(b, k string) error { _, err := evm.New(b, k); return err },
	"hyper":  func(b, k string) error { _, err := hyper.New(b, k); return err },
	"ton":    func(b, k string) error { _, err := ton.New(b, k); return err },
	"beacon": func(b, k string) error { _, err := beacon.New(b, k); return err },
}

// TestConstructorsRefuseTheKeyInTheBaseURL: every client refuses a base URL
// that holds the key it is also given (ton.New("https://host/api/v2/KEY",
// "KEY") was accepted silently), with the key masked, and points to the
// constructor that takes a whole endpoint where the chain has one.
func TestConstructorsRefuseTheKeyInTheBaseURL(t *testing.T) {
	t.Parallel()
	const key = "a1B2c3D4e5F6g7H8i9J0"
	for chain, newClient := range constructors {
		for _, base := range []string{"https://host.example/" + key, "https://host.example/api/v2/" + key + "/", "https://host.example/x%61" + key[1:]} {
			err := newClient(base, key)
			var ie *nodeaccess.InputError
			require.ErrorAs(t, err, &ie, "%s %s", chain, base)
			assert.Equal(t, "baseURL", ie.Arg)
			assert.Contains(t, err.Error(), "the base URL holds the access key")
			if chain == "ton" {
				assert.Contains(t, err.Error(), "and the key as its own argument")
			} else {
				assert.Contains(t, err.Error(), "or the whole endpoint URL to "+chain+".NewFromURL")
			}
			testkit.AssertErrNoKey(t, key, err)
		}
	}
}

// TestConstructorsSayTheKeySeemsToBeInTheURL: evm.New("https://host/KEY",
// "") said only "access key is empty".
func TestConstructorsSayTheKeySeemsToBeInTheURL(t *testing.T) {
	t.Parallel()
	const key = "a1B2c3D4e5F6g7H8i9J0"
	for chain, newClient := range constructors {
		err := newClient("https://host.example/"+key, "")
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie, chain)
		assert.Equal(t, "key", ie.Arg)
		assert.Contains(t, err.Error(), "access key is empty; the base URL's last path segment looks like one")
		assert.NotContains(t, err.Error(), key)
	}
}
