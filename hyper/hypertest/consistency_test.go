package hypertest_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

// The embedded mids are the hyper package's recorded allMids body cut to
// the spot pairs the recorded spot metadata lists (data/SOURCES.md): the
// same entries, byte for byte and in order, but for the 60 "@N" keys whose
// index spotMeta does not list.
func TestFilteredMidsAreTheRecordedOnes(t *testing.T) {
	var meta struct{ Universe []struct{ Index int } }
	require.NoError(t, json.Unmarshal([]byte(readData(t, "spotMeta_2025-08.json")), &meta))
	listed := map[string]bool{}
	for _, p := range meta.Universe {
		listed["@"+strconv.Itoa(p.Index)] = true
	}
	recorded, err := os.ReadFile("../testdata/allMids_2025-12.json")
	require.NoError(t, err)
	body := string(recorded)
	require.True(t, strings.HasPrefix(body, "{") && strings.HasSuffix(body, "}"))
	entries := regexp.MustCompile(`"[^"]*":"[^"]*"`).FindAllString(body, -1)
	require.Equal(t, body[1:len(body)-1], strings.Join(entries, ","), "the recorded body is one flat object")
	var kept, cut []string
	for _, e := range entries {
		key := e[1 : strings.Index(e[1:], `"`)+1]
		if strings.HasPrefix(key, "@") && !listed[key] {
			cut = append(cut, key)
			continue
		}
		kept = append(kept, e)
	}
	assert.Len(t, entries, 482)
	assert.Len(t, cut, 60)
	assert.Equal(t, "{"+strings.Join(kept, ",")+"}", readData(t, "allMids_2025-12_filtered.json"))
}

// Every vault the node serves for a user is one the node's HyperEVM knows
// for that user, with the same position: the equity precompile answers the
// equity rounded to its 6 decimals, and the same lock-up end.
func TestServedVaultsResolve(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	ctx := context.Background()
	user := hypertest.DefaultUser()
	vaults, err := c.UserVaultEquities(ctx, user)
	require.NoError(t, err)
	require.Len(t, vaults, 2)
	var b evm.Batch
	reads := make([]*hypercore.Read[hyper.VaultEquity], len(vaults))
	for i, v := range vaults {
		reads[i] = hypercore.Reads(&b).VaultEquity(user, v.VaultAddress)
	}
	hev, err := hypercore.New(srv.URL, srv.Key())
	require.NoError(t, err)
	require.NoError(t, hev.SendBatch(ctx, &b))
	for i, v := range vaults {
		got, err := reads[i].Result()
		require.NoError(t, err, v.VaultAddress)
		assert.True(t, got.Equity.Equal(v.Equity.Round(6)), "%s: precompile %s, API %s", v.VaultAddress, got.Equity, v.Equity)
		assert.True(t, got.LockedUntil.Equal(v.LockedUntil), v.VaultAddress)
		assert.Equal(t, v.VaultAddress, got.VaultAddress)
	}
}
