package light

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The JSON and SSZ of every fork's containers decode to the same values,
// which verify.
func TestDecodeEveryFork(t *testing.T) {
	c := newTestChain(t, false)
	for p := range uint64(7) {
		base := beacon.Slot(p * 64)
		f := c.cfg.slotFork(base)
		b := c.bootstrap(base + 8)
		u := c.update(base+50, base+40, true, 32)
		t.Run(f.String(), func(t *testing.T) {
			bj, err := c.cfg.decodeBootstrapJSON(mustJSON(t, bootstrapWire(b)), f.String())
			require.NoError(t, err)
			bs, err := c.cfg.decodeBootstrapSSZ(bootstrapSSZ(b), f)
			require.NoError(t, err)
			assert.Equal(t, b, bj)
			assert.Equal(t, b, bs)
			for _, k := range []kind{kindUpdate, kindFinality, kindOptimistic} {
				want := *u
				if k != kindUpdate {
					want.NextSyncCommittee, want.NextSyncCommitteeBranch = nil, make([]beacon.Root, nextBranchDepth(f))
				}
				if k == kindOptimistic {
					want.FinalizedHeader, want.FinalityBranch = zeroHeader(f), make([]beacon.Root, finalityDepth(f))
				}
				uj, err := c.cfg.decodeUpdateJSON(mustJSON(t, updateWire(u, k)), "", k)
				require.NoError(t, err, "%s", k.name())
				us, err := c.cfg.decodeUpdateSSZ(updateSSZ(u, k), f, k)
				require.NoError(t, err, "%s", k.name())
				assert.Equal(t, &want, uj, "%s", k.name())
				assert.Equal(t, &want, us, "%s", k.name())
			}
		})
	}
}

// Bytes and JSON that are not the object of the fork they claim are
// refused as "encoding", naming what is wrong.
func TestDecodeLies(t *testing.T) {
	c := newTestChain(t, false)
	u := c.update(3*64+50, 3*64+40, true, 32) // deneb
	js := string(mustJSON(t, updateWire(u, kindUpdate)))
	sig := fmt.Sprint(u.SyncCommitteeSignature)
	jsonCases := []struct{ name, from, to, want string }{
		{"short signature", sig, sig[:len(sig)-2], "sync_committee_signature"},
		{"branch one short", `"finality_branch":["0x`, `"finality_branch":["0x`, ""},
		{"unknown member", `"signature_slot"`, `"extra":1,"signature_slot"`, `unknown member "extra"`},
		{"another fork's version", `"version":"deneb"`, `"version":"electra"`, "next_sync_committee_branch: 5 roots, want 6"},
		{"capella header in deneb", `"blob_gas_used":"131072",`, ``, `no "blob_gas_used"`},
		{"slot not a decimal string", `"signature_slot":"`, `"signature_slot":"0`, "signature_slot"},
		{"bits too short", `"sync_committee_bits":"0xffffffff"`, `"sync_committee_bits":"0xffffff"`, "3 bytes, want 4"},
		{"phase0", `"version":"deneb"`, `"version":"phase0"`, "phase0 has no light-client data"},
		{"member given twice", `"signature_slot"`, `"signature_slot":"1","signature_slot"`, `"signature_slot" given twice`},
	}
	for _, tc := range jsonCases {
		t.Run("json "+tc.name, func(t *testing.T) {
			bad := strings.Replace(js, tc.from, tc.to, 1)
			if tc.name == "branch one short" {
				i := strings.Index(bad, `"finality_branch":[`) + len(`"finality_branch":[`)
				bad = bad[:i] + bad[i+69:]
				tc.want = "finality_branch: 5 roots, want 6"
			}
			require.NotEqual(t, js, bad)
			_, err := c.cfg.decodeUpdateJSON([]byte(bad), "", kindUpdate)
			assertCheck(t, err, "encoding")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := c.cfg.decodeUpdateJSON([]byte(js), "electra", kindUpdate)
	assertCheck(t, err, "encoding")
	assert.Contains(t, err.Error(), `Eth-Consensus-Version header says "electra"`)

	ssz := updateSSZ(u, kindUpdate)
	altair := updateSSZ(c.update(50, 40, true, 32), kindUpdate)
	sszCases := []struct {
		name string
		b    []byte
		v    beacon.Version
		want string
	}{
		{"one byte short (altair)", altair[:len(altair)-1], beacon.Altair, "2267 bytes, fewer than its fixed part's 2268"},
		{"one byte more (altair)", append(append([]byte{}, altair...), 0), beacon.Altair, "2269 bytes, want 2268"},
		{"execution header cut", ssz[:len(ssz)-40], beacon.Deneb, "finalized_header.execution"},
		{"another fork", ssz, beacon.Electra, "offset"},
		{"first offset wrong", func() []byte { b := append([]byte{}, ssz...); b[0]++; return b }(), beacon.Deneb, "offset"},
		{"extra data over 32 bytes", func() []byte {
			u2 := *u
			h := *u.AttestedHeader.Execution
			h.ExtraData = bytes.Repeat([]byte{1}, 33)
			u2.AttestedHeader.Execution = &h
			return updateSSZ(&u2, kindUpdate)
		}(), beacon.Deneb, "attested_header"},
	}
	for _, tc := range sszCases {
		t.Run("ssz "+tc.name, func(t *testing.T) {
			_, err := c.cfg.decodeUpdateSSZ(tc.b, tc.v, kindUpdate)
			assertCheck(t, err, "encoding")
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// The updates endpoint's chunks: a length past the end, a digest of
	// no fork of the chain, more chunks than asked for.
	d := c.cfg.forkDigest(3 * 8)
	chunk := append(binary.LittleEndian.AppendUint64(nil, uint64(len(ssz)+4)), append(d[:], ssz...)...)
	us, err := c.cfg.decodeUpdatesSSZ(append(append([]byte{}, chunk...), chunk...), 2)
	require.NoError(t, err)
	assert.Len(t, us, 2)
	for name, b := range map[string][]byte{
		"length past the end": append(binary.LittleEndian.AppendUint64(nil, uint64(len(ssz)+5)), append(d[:], ssz...)...),
		"unknown digest":      append(binary.LittleEndian.AppendUint64(nil, uint64(len(ssz)+4)), append([]byte{1, 2, 3, 4}, ssz...)...),
		"three for two":       bytes.Repeat(chunk, 3),
	} {
		_, err := c.cfg.decodeUpdatesSSZ(b, 2)
		assertCheck(t, err, "encoding")
		t.Log(name, err)
	}
	_, err = c.cfg.decodeUpdatesJSON([]byte("["+js+","+js+","+js+"]"), 2)
	assertCheck(t, err, "encoding")
}

// Fulu's fork digests mix in the blob parameters of their epoch, so the
// digest of an SSZ update names its fork through the schedule.
func TestForkDigests(t *testing.T) {
	cfg, err := Chain("mainnet")
	require.NoError(t, err)
	// Mainnet's Deneb digest, as nodes announce it.
	assert.Equal(t, [4]byte{0x6a, 0x95, 0xa1, 0xa9}, cfg.forkDigest(cfg.ForkEpochs[beacon.Deneb]))
	for _, e := range []beacon.Epoch{cfg.ForkEpochs[beacon.Fulu], 412672, 419072} {
		v, err := cfg.digestFork(cfg.forkDigest(e))
		require.NoError(t, err)
		assert.Equal(t, beacon.Fulu, v)
	}
	assert.NotEqual(t, cfg.forkDigest(412672), cfg.forkDigest(419072))
}
