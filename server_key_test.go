package nodeaccess_test

import (
	"encoding/json"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
)

// Every local server gives its key through a Key method, and through nothing
// else that prints or serializes a server: no fmt verb of the server, by
// pointer or dereferenced, alone or inside a struct; nothing fmt can reach
// by reflection; not its JSON.
func TestServersKeyOnlyThroughKeyMethod(t *testing.T) {
	const key = "sEcReT-k3y"
	base, err := nodeaccesstest.Start(key, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(base.Close)
	servers := map[string]interface{ Key() string }{
		"nodeaccesstest": base,
		"evmtest":        evmtest.NewT(t, evmtest.WithKey(key)),
		"hypertest":      hypertest.NewT(t, hypertest.WithKey(key)),
		"tontest":        tontest.NewT(t, tontest.WithKey(key)),
		"beacontest":     beacontest.NewT(t, beacontest.WithKey(key)),
	}
	for name, srv := range servers {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, key, srv.Key())
			testkit.AssertFormatNoKey(t, key, srv)
			testkit.AssertUnprintable(t, key, srv)
			js, err := json.Marshal(srv)
			if err == nil {
				testkit.AssertNoKey(t, key, "JSON of the server", string(js))
			}
		})
	}
}
