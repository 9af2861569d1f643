package light

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// The public chains' configurations, against the networks' published
// config.yaml (eth-clients/mainnet, sepolia, hoodi; the consensus specs'
// configs/mainnet.yaml) and genesis validators roots.
func TestChain(t *testing.T) {
	fv := func(s string) beacon.ForkVersion {
		r := hexRoot(s + "00000000000000000000000000000000000000000000000000000000")
		return beacon.ForkVersion(r[:4])
	}
	want := map[string]struct {
		gvr      string
		genesis  uint64
		versions []string
		epochs   []beacon.Epoch
	}{
		"mainnet": {"4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95", 1606824023,
			[]string{"00000000", "01000000", "02000000", "03000000", "04000000", "05000000", "06000000", "07000000"},
			[]beacon.Epoch{0, 74240, 144896, 194048, 269568, 364032, 411392, beacon.FarFutureEpoch}},
		"sepolia": {"d8ea171f3c94aea21ebc42a1ed61052acf3f9209c00e4efbaaddac09ed9b8078", 1655733600,
			[]string{"90000069", "90000070", "90000071", "90000072", "90000073", "90000074", "90000075", "90000076"},
			[]beacon.Epoch{0, 50, 100, 56832, 132608, 222464, 272640, 353024}},
		"hoodi": {"212f13fc4df078b6cb7db228f1c8307566dcecf900867401a92023d7ba99cb5f", 1742213400,
			[]string{"10000910", "20000910", "30000910", "40000910", "50000910", "60000910", "70000910", "80000910"},
			[]beacon.Epoch{0, 0, 0, 0, 0, 2048, 50688, beacon.FarFutureEpoch}},
	}
	for name, w := range want {
		c, err := Chain(name)
		require.NoError(t, err)
		require.NoError(t, c.check())
		assert.Equal(t, beacon.Root(hexRoot(w.gvr)), c.GenesisValidatorsRoot, name)
		assert.Equal(t, w.genesis, c.GenesisTime, name)
		for v := range c.ForkVersions {
			assert.Equal(t, fv(w.versions[v]), c.ForkVersions[v], "%s %s", name, beacon.Version(v))
			assert.Equal(t, w.epochs[v], c.ForkEpochs[v], "%s %s", name, beacon.Version(v))
		}
	}
	_, err := Chain("holesky")
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
}
