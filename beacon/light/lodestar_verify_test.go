package light

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Lodestar's light client (testdata/gen/verify.mjs: @lodestar/light-client
// 1.28.1, blst) validated the bootstraps and updates of
// lodestar-input.json, honest and with four lies each; this package must
// reach the same verdicts on the same objects with the same lies, each
// lie refused by the check that names it. Lodestar 1.28.1 predates Gloas,
// so the gloas objects are checked by this package's own tests only.
func TestLodestarVerdicts(t *testing.T) {
	var in lodestarInput
	var verdicts []struct {
		Kind, Version, Lie, Result string
	}
	b, err := os.ReadFile("testdata/lodestar-input.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &in))
	b, err = os.ReadFile("testdata/lodestar-verdicts.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &verdicts))

	cfg := testConfig()
	lies := map[string]struct {
		check string
		lie   func(u *Update)
	}{
		"honest":              {"", func(*Update) {}},
		"signature":           {"signature", func(u *Update) { u.SyncCommitteeSignature[50] ^= 1 }},
		"finalized_header":    {"finality branch", func(u *Update) { u.FinalizedHeader.Beacon.ProposerIndex++ }},
		"next_sync_committee": {"next sync committee branch", func(u *Update) { u.NextSyncCommittee.PublicKeys[3][7] ^= 1 }},
		"bits":                {"signature", func(u *Update) { u.SyncCommitteeBits[3] &^= 0x80 }},
	}
	var s *store
	i, checked := 0, 0
	for _, o := range in.Objects {
		if o.Kind == "finality_update" || o.Kind == "optimistic_update" {
			continue
		}
		body := mustJSON(t, map[string]any{"version": o.Version, "data": o.Data})
		if o.Kind == "bootstrap" {
			v := verdicts[i]
			i++
			require.Equal(t, o.Version, v.Version)
			bs, err := cfg.decodeBootstrapJSON(body, "")
			require.NoError(t, err)
			s, err = cfg.bootstrap(htr(t, bs.Header.Beacon), bs)
			if o.Version == "gloas" {
				require.NoError(t, err)
				continue
			}
			require.Equal(t, "ok", v.Result)
			require.NoError(t, err, o.Version)
			continue
		}
		for range lies {
			v := verdicts[i]
			i++
			require.Equal(t, o.Version, v.Version)
			if o.Version == "gloas" {
				continue
			}
			u, err := cfg.decodeUpdateJSON(body, "", kindUpdate)
			require.NoError(t, err)
			l := lies[v.Lie]
			l.lie(u)
			att := u.AttestedHeader.Beacon.Slot
			_, err = cfg.validate(s, u, att+5)
			if v.Result == "ok" {
				assert.NoError(t, err, "%s %s: Lodestar takes it", o.Version, v.Lie)
			} else {
				assertCheck(t, err, l.check)
				t.Logf("%s %s: Lodestar %q, here %v", o.Version, v.Lie, v.Result, err)
			}
			assert.Equal(t, v.Lie == "honest", v.Result == "ok", "%s %s: Lodestar's verdict %q", o.Version, v.Lie, v.Result)
			checked++
		}
	}
	assert.Equal(t, len(verdicts), i)
	assert.Equal(t, 6*5, checked, "altair to fulu, five verdicts each")
}
