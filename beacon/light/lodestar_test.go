package light

import (
	"encoding/json"

	"flag"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bridge"
)

// The differential peer: Lodestar's SSZ types (@lodestar/types, an
// implementation this package is not built on) serialize and hash the
// test chain's light-client objects of every fork, and compute the
// signing roots and generalized indices; this package must decode its
// bytes to the values its JSON holds, and hash and sign as it does.
// testdata/gen/gen.mjs wrote testdata/lodestar-vectors.json from
// testdata/lodestar-input.json, which
//
//	go test ./beacon/light -run TestLodestarVectors -lodestar-input
//
// writes.

var writeLodestarInput = flag.Bool("lodestar-input", false, "write testdata/lodestar-input.json")

type lodestarInput struct {
	GenesisValidatorsRoot beacon.Root `json:"genesis_validators_root"`
	Objects               []struct {
		Kind    string          `json:"kind"`
		Version string          `json:"version"`
		Data    json.RawMessage `json:"data"`
	} `json:"objects"`
	Signing []struct {
		ForkVersion beacon.ForkVersion       `json:"fork_version"`
		Header      beacon.BeaconBlockHeader `json:"header"`
	} `json:"signing"`
}

type lodestarRoots struct {
	Beacon            beacon.Root  `json:"beacon"`
	Execution         *beacon.Root `json:"execution"`
	LightClientHeader beacon.Root  `json:"light_client_header"`
}

type lodestarVectors struct {
	Generator string `json:"generator"`
	Objects   []struct {
		Kind                 string         `json:"kind"`
		Version              string         `json:"version"`
		SSZ                  hexutil.Bytes  `json:"ssz"`
		Header               *lodestarRoots `json:"header"`
		AttestedHeader       *lodestarRoots `json:"attested_header"`
		FinalizedHeader      *lodestarRoots `json:"finalized_header"`
		CurrentSyncCommittee *beacon.Root   `json:"current_sync_committee"`
		NextSyncCommittee    *beacon.Root   `json:"next_sync_committee"`
	} `json:"objects"`
	Signing []struct {
		ForkVersion beacon.ForkVersion `json:"fork_version"`
		SigningRoot beacon.Root        `json:"signing_root"`
	} `json:"signing"`
	GIndices map[string]map[string]string `json:"gindices"`
}

var kindNames = map[string]kind{"update": kindUpdate, "finality_update": kindFinality, "optimistic_update": kindOptimistic}

func makeLodestarInput(t *testing.T) []byte {
	c := newTestChain(t, false)
	type obj = struct {
		Kind    string          `json:"kind"`
		Version string          `json:"version"`
		Data    json.RawMessage `json:"data"`
	}
	in := lodestarInput{GenesisValidatorsRoot: c.cfg.GenesisValidatorsRoot}
	data := func(m map[string]any) json.RawMessage { return mustJSON(t, m["data"]) }
	for p := range uint64(7) {
		base := beacon.Slot(p * 64)
		f := c.cfg.slotFork(base).String()
		in.Objects = append(in.Objects, obj{"bootstrap", f, data(bootstrapWire(c.bootstrap(base + 8)))})
		u := c.update(base+50, base+40, true, 32)
		for _, name := range []string{"update", "finality_update", "optimistic_update"} {
			in.Objects = append(in.Objects, obj{name, f, data(updateWire(u, kindNames[name]))})
		}
		in.Signing = append(in.Signing, struct {
			ForkVersion beacon.ForkVersion       `json:"fork_version"`
			Header      beacon.BeaconBlockHeader `json:"header"`
		}{c.cfg.ForkVersions[c.cfg.slotFork(base)], u.AttestedHeader.Beacon})
	}
	return mustJSON(t, in)
}

func TestLodestarVectors(t *testing.T) {
	if *writeLodestarInput {
		require.NoError(t, os.WriteFile("testdata/lodestar-input.json", makeLodestarInput(t), 0o644))
	}
	var in lodestarInput
	var out lodestarVectors
	b, err := os.ReadFile("testdata/lodestar-input.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &in))
	b, err = os.ReadFile("testdata/lodestar-vectors.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &out))
	require.Len(t, out.Objects, len(in.Objects))
	require.Equal(t, 28, len(in.Objects))
	cfg := testConfig()
	require.Equal(t, cfg.GenesisValidatorsRoot, in.GenesisValidatorsRoot)

	checkHeader := func(what string, h Header, want *lodestarRoots) {
		require.NotNil(t, want, what)
		assert.Equal(t, want.Beacon, htr(t, h.Beacon), what)
		if h.Execution != nil {
			require.NotNil(t, want.Execution, what)
			layout := beacon.Deneb
			if h.form == beacon.Capella {
				layout = beacon.Capella
			}
			assert.Equal(t, *want.Execution, beacon.Root(bridge.PayloadHeaderRoot(h.Execution, uint8(layout))), what)
		}
	}
	for i, o := range in.Objects {
		v, err := beacon.ParseVersion(o.Version)
		require.NoError(t, err)
		ov := out.Objects[i]
		require.Equal(t, o.Kind, ov.Kind)
		what := o.Kind + " " + o.Version
		body := mustJSON(t, map[string]any{"version": o.Version, "data": o.Data})
		if o.Kind == "bootstrap" {
			fromJSON, err := cfg.decodeBootstrapJSON(body, "")
			require.NoError(t, err, what)
			fromSSZ, err := cfg.decodeBootstrapSSZ(ov.SSZ, v)
			require.NoError(t, err, what)
			assert.Equal(t, fromJSON, fromSSZ, what)
			checkHeader(what, fromSSZ.Header, ov.Header)
			assert.Equal(t, *ov.CurrentSyncCommittee, htr(t, fromSSZ.CurrentSyncCommittee), what)
			_, err = cfg.bootstrap(ov.Header.Beacon, fromSSZ)
			assert.NoError(t, err, what)
			continue
		}
		k := kindNames[o.Kind]
		fromJSON, err := cfg.decodeUpdateJSON(body, "", k)
		require.NoError(t, err, what)
		fromSSZ, err := cfg.decodeUpdateSSZ(ov.SSZ, v, k)
		require.NoError(t, err, what)
		assert.Equal(t, fromJSON, fromSSZ, what)
		checkHeader(what+" attested", fromSSZ.AttestedHeader, ov.AttestedHeader)
		if k != kindOptimistic {
			checkHeader(what+" finalized", fromSSZ.FinalizedHeader, ov.FinalizedHeader)
		}
		if k == kindUpdate {
			assert.Equal(t, *ov.NextSyncCommittee, htr(t, *fromSSZ.NextSyncCommittee), what)
		}
	}
	require.Len(t, out.Signing, len(in.Signing))
	for i, s := range in.Signing {
		assert.Equal(t, out.Signing[i].SigningRoot, beacon.Root(cfg.signingRoot(htr(t, s.Header), s.ForkVersion)), "signing root %d", i)
	}
	for f, g := range out.GIndices {
		v, err := beacon.ParseVersion(f)
		require.NoError(t, err)
		gi := v.LightClientGIndices()
		num := func(s string) beacon.GIndex { n, _ := strconv.ParseUint(s, 10, 64); return beacon.GIndex(n) }
		assert.Equal(t, num(g["finalized_root"]), gi.FinalizedRoot, f)
		assert.Equal(t, num(g["current_sync_committee"]), gi.CurrentSyncCommittee, f)
		assert.Equal(t, num(g["next_sync_committee"]), gi.NextSyncCommittee, f)
		if e, ok := g["execution_block_hash"]; ok {
			assert.Equal(t, num(e), gi.ExecutionBlockHash, f)
		}
		if e, ok := g["execution_payload"]; ok {
			assert.Equal(t, num(e), gi.ExecutionPayload, f)
		}
	}
}
