package nodeaccess_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

// TestNoClientPrintsTheKey: no formatting of any chain client, by pointer
// or dereferenced, alone or inside a struct, under any verb, shows the key;
// and no string fmt could reach by reflection from a dereferenced client
// holds it. With a user's HTTP client and a key also put into the base URL
// by mistake, so that every field that could hold it is set.
func TestNoClientPrintsTheKey(t *testing.T) {
	t.Parallel()
	for _, key := range testkit.LeakKeys {
		for _, opt := range []nodeaccess.Option{{}, nodeaccess.WithHTTPClient(&http.Client{})} {
			e, err := evm.New("https://node.example/v1", key, opt)
			require.NoError(t, err)
			es, err := evm.New("https://node.example", key, opt, evm.WithPathSuffix("evm"))
			require.NoError(t, err)
			h, err := hyper.New("https://node.example", key, opt, hyper.WithPublicURL("http://127.0.0.1:1"))
			require.NoError(t, err)
			o, err := ton.New("https://node.example", key, opt, ton.WithJSONRPC())
			require.NoError(t, err)
			b, err := beacon.New("https://node.example", key, opt)
			require.NoError(t, err)
			hev, err := hypercore.New("https://node.example", key, opt)
			require.NoError(t, err)
			for _, c := range []any{e, es, h, hev, o, b} {
				testkit.AssertFormatNoKey(t, key, c)
				testkit.AssertUnprintable(t, key, reflect.ValueOf(c).Elem().Interface())
			}
		}
	}
}
