package beacon_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specMerkleize is ssz/simple-serialize.md's merkleize, written out
// plainly from the spec for these tests: pad the chunks with zero chunks
// to the next power of two of max(len, limit) and hash pairs up to the
// root.
func specMerkleize(chunks [][32]byte, limit int) [32]byte {
	n := max(len(chunks), limit, 1)
	size := 1
	for size < n {
		size *= 2
	}
	layer := make([][32]byte, size)
	copy(layer, chunks)
	for len(layer) > 1 {
		next := make([][32]byte, len(layer)/2)
		for i := range next {
			next[i] = sha256.Sum256(append(layer[2*i][:], layer[2*i+1][:]...))
		}
		layer = next
	}
	return layer[0]
}

func u64c(v uint64) (c [32]byte) {
	binary.LittleEndian.PutUint64(c[:], v)
	return c
}

func bytesChunks(b []byte) [][32]byte {
	out := make([][32]byte, (len(b)+31)/32)
	for i := range out {
		copy(out[i][:], b[32*i:])
	}
	return out
}

func specPubkey(k beacon.BLSPubKey) [32]byte { return specMerkleize(bytesChunks(k[:]), 0) }

func specCheckpoint(c beacon.Checkpoint) [32]byte {
	return specMerkleize([][32]byte{u64c(uint64(c.Epoch)), c.Root}, 0)
}

func specValidator(v beacon.Validator) [32]byte {
	var slashed [32]byte
	if v.Slashed {
		slashed[0] = 1
	}
	return specMerkleize([][32]byte{specPubkey(v.PublicKey), v.WithdrawalCredentials,
		u64c(uint64(v.EffectiveBalance)), slashed, u64c(uint64(v.ActivationEligibilityEpoch)),
		u64c(uint64(v.ActivationEpoch)), u64c(uint64(v.ExitEpoch)), u64c(uint64(v.WithdrawableEpoch))}, 0)
}

func specHeader(h beacon.BeaconBlockHeader) [32]byte {
	return specMerkleize([][32]byte{u64c(uint64(h.Slot)), u64c(uint64(h.ProposerIndex)), h.ParentRoot, h.StateRoot, h.BodyRoot}, 0)
}

// Each component's HashTreeRoot is the spec's merkleization of its fields,
// computed here independently of the package's hasher, on the components
// of generated states of every fork.
func TestComponentHashTreeRoot(t *testing.T) {
	for _, v := range beacon.Versions() {
		st := beacontest.NewState(v, beacon.MainnetPreset(), 30, 11)
		for i, val := range st.Validators {
			require.Equal(t, beacon.Root(specValidator(val)), val.HashTreeRoot(), "%s validator %d", v, i)
		}
		assert.Equal(t, beacon.Root(specHeader(st.LatestBlockHeader)), st.LatestBlockHeader.HashTreeRoot())
		assert.Equal(t, beacon.Root(specCheckpoint(st.FinalizedCheckpoint)), st.FinalizedCheckpoint.HashTreeRoot())
		f := st.Fork
		var pv, cv [32]byte
		copy(pv[:], f.PreviousVersion[:])
		copy(cv[:], f.CurrentVersion[:])
		assert.Equal(t, beacon.Root(specMerkleize([][32]byte{pv, cv, u64c(uint64(f.Epoch))}, 0)), f.HashTreeRoot())
		e := st.Eth1Data
		assert.Equal(t, beacon.Root(specMerkleize([][32]byte{e.DepositRoot, u64c(e.DepositCount), e.BlockHash}, 0)), e.HashTreeRoot())
		for _, p := range st.PendingDeposits {
			sig := specMerkleize(bytesChunks(p.Signature[:]), 0)
			want := specMerkleize([][32]byte{specPubkey(p.PublicKey), p.WithdrawalCredentials, u64c(uint64(p.Amount)), sig, u64c(uint64(p.Slot))}, 0)
			assert.Equal(t, beacon.Root(want), p.HashTreeRoot())
			assert.Equal(t, beacon.Root(sig), p.Signature.HashTreeRoot())
		}
		for _, w := range st.PendingPartialWithdrawals {
			want := specMerkleize([][32]byte{u64c(uint64(w.ValidatorIndex)), u64c(uint64(w.Amount)), u64c(uint64(w.WithdrawableEpoch))}, 0)
			assert.Equal(t, beacon.Root(want), w.HashTreeRoot())
		}
		for _, c := range st.PendingConsolidations {
			want := specMerkleize([][32]byte{u64c(uint64(c.SourceIndex)), u64c(uint64(c.TargetIndex))}, 0)
			assert.Equal(t, beacon.Root(want), c.HashTreeRoot())
		}
		for _, h := range st.HistoricalSummaries {
			assert.Equal(t, beacon.Root(specMerkleize([][32]byte{h.BlockSummaryRoot, h.StateSummaryRoot}, 0)), h.HashTreeRoot())
		}
		if v >= beacon.Altair {
			c := st.CurrentSyncCommittee
			keys := make([][32]byte, len(c.PublicKeys))
			for i, k := range c.PublicKeys {
				keys[i] = specPubkey(k)
			}
			want := specMerkleize([][32]byte{specMerkleize(keys, 0), specPubkey(c.AggregatePublicKey)}, 0)
			got, err := c.HashTreeRoot()
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(want), got)
		}
		for _, a := range st.PreviousEpochAttestations {
			d := a.Data
			data := specMerkleize([][32]byte{u64c(uint64(d.Slot)), u64c(d.Index), d.BeaconBlockRoot, specCheckpoint(d.Source), specCheckpoint(d.Target)}, 0)
			assert.Equal(t, beacon.Root(data), d.HashTreeRoot())
			n := a.AggregationBits.Len()
			bits := make([]byte, (n+7)/8)
			for i := range n {
				if a.AggregationBits.BitAt(i) {
					bits[i/8] |= 1 << (i % 8)
				}
			}
			bl := specMerkleize(bytesChunks(bits), 2048/256)
			bl = sha256.Sum256(append(bl[:], func() []byte { c := u64c(uint64(n)); return c[:] }()...))
			want := specMerkleize([][32]byte{bl, data, u64c(uint64(a.InclusionDelay)), u64c(uint64(a.ProposerIndex))}, 0)
			got, err := a.HashTreeRoot()
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(want), got)
		}
		if v >= beacon.Bellatrix && v <= beacon.Fulu { // gloas has no header: TestComponentHeaderForks
			h := st.LatestExecutionPayloadHeader
			var fee, bf [32]byte
			copy(fee[:], h.FeeRecipient[:])
			for i, limb := range h.BaseFeePerGas {
				binary.LittleEndian.PutUint64(bf[8*i:], limb)
			}
			extra := specMerkleize(bytesChunks(h.ExtraData), 1)
			extra = sha256.Sum256(append(extra[:], func() []byte { c := u64c(uint64(len(h.ExtraData))); return c[:] }()...))
			c := [][32]byte{h.ParentHash, fee, h.StateRoot, h.ReceiptsRoot, specMerkleize(bytesChunks(h.LogsBloom[:]), 0), h.PrevRandao,
				u64c(h.BlockNumber), u64c(h.GasLimit), u64c(h.GasUsed), u64c(h.Timestamp), extra, bf, h.BlockHash, h.TransactionsRoot}
			if v >= beacon.Capella {
				c = append(c, h.WithdrawalsRoot)
			}
			if v >= beacon.Deneb {
				c = append(c, u64c(h.BlobGasUsed), u64c(h.ExcessBlobGas))
			}
			got, err := h.HashTreeRoot(v)
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(specMerkleize(c, 0)), got, "%s payload header", v)
		}
	}
}

// Components that can be invalid say so instead of hashing something the
// SSZ type cannot hold.
func TestComponentHashTreeRootErrors(t *testing.T) {
	_, err := beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 31)}.HashTreeRoot()
	assert.ErrorContains(t, err, "31 public keys, want 512 (mainnet) or 32 (minimal)")
	_, err = beacon.PendingAttestation{}.HashTreeRoot()
	assert.ErrorContains(t, err, "no length bit")
	_, err = beacon.PendingAttestation{AggregationBits: overLimitBits()}.HashTreeRoot()
	assert.ErrorContains(t, err, "over the limit of 2048")
	_, err = beacon.ExecutionPayloadHeader{ExtraData: make([]byte, 33)}.HashTreeRoot(beacon.Deneb)
	assert.ErrorContains(t, err, "extra_data: 33 bytes, over the limit of 32")
	_, err = beacon.ExecutionPayloadHeader{}.HashTreeRoot(beacon.Phase0)
	assert.ErrorContains(t, err, "phase0 has no execution payload header")
}

// The block root rule of the specs' process_slot: the latest header's root
// once its state_root holds the state's root. A header whose state_root is
// already filled (a state advanced through an empty slot) is hashed as it
// is.
func TestLatestBlockRoot(t *testing.T) {
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Deneb, beacon.Fulu} {
		st := beacontest.NewState(v, beacon.MainnetPreset(), 20, 5)
		st.LatestBlockHeader.StateRoot = beacon.Root{}
		stateRoot, err := st.HashTreeRoot()
		require.NoError(t, err)
		h := st.LatestBlockHeader
		h.StateRoot = stateRoot
		got, err := st.LatestBlockRoot()
		require.NoError(t, err)
		assert.Equal(t, beacon.Root(specHeader(h)), got)

		st.LatestBlockHeader.StateRoot = beacon.Root{1}
		got, err = st.LatestBlockRoot()
		require.NoError(t, err)
		assert.Equal(t, beacon.Root(specHeader(st.LatestBlockHeader)), got)
	}
}

// overLimitBits is a well-formed bitlist of 2049 bits.
func overLimitBits() beacon.Bitlist {
	b := make(beacon.Bitlist, 2049/8+1)
	b[len(b)-1] = 1 << (2049 % 8)
	return b
}

// TestNilStateNoPanic: the methods of *State that check it first (and
// NewProver) return an InputError for a nil *State; Validate, and so
// HashTreeRoot, NewProver and the encoders, dereferenced it, as did
// LatestBlockRoot.
func TestNilStateNoPanic(t *testing.T) {
	var s *beacon.State
	for name, call := range map[string]func() error{
		"Validate":           s.Validate,
		"HashTreeRoot":       func() error { _, err := s.HashTreeRoot(); return err },
		"LatestBlockRoot":    func() error { _, err := s.LatestBlockRoot(); return err },
		"NewProver":          func() error { _, err := beacon.NewProver(s); return err },
		"EncodeSSZ":          func() error { return s.EncodeSSZ(io.Discard) },
		"MarshalSSZ":         func() error { _, err := s.MarshalSSZ(); return err },
		"SizeSSZ":            func() error { _, err := s.SizeSSZ(); return err },
		"EncodeJSON":         func() error { return s.EncodeJSON(io.Discard) },
		"EncodeJSONResponse": func() error { return s.EncodeJSONResponse(io.Discard, beacon.Flags{}) },
	} {
		var err error
		require.NotPanics(t, func() { err = call() }, name)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%s: %v", name, err)
		require.Equal(t, "state", ie.Arg, name)
		require.Equal(t, "nil *State", ie.Reason, name)
	}
}

// TestComponentHashTreeRootNoPanic: the component roots whose input has a
// length or a version (a sync committee's keys, a pending attestation's
// bitlist, the payload header's extra data and fork, the bid's
// commitments) hash every value of the SSZ type and refuse every other one
// with an error, never a panic, for lengths on both sides of each bound
// and every version number.
func TestComponentHashTreeRootNoPanic(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 511, 512, 513, 4096} {
		var err error
		require.NotPanics(t, func() { _, err = beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, n)}.HashTreeRoot() })
		require.Equal(t, n != 32 && n != 512, err != nil, "sync committee of %d: %v", n, err)
	}
	bitlist := func(n int, last byte) beacon.Bitlist {
		b := make(beacon.Bitlist, n)
		if n > 0 {
			b[n-1] = last
		}
		return b
	}
	for _, c := range []struct {
		bits beacon.Bitlist
		ok   bool
	}{
		{nil, false}, {beacon.Bitlist{}, false}, {bitlist(1, 0), false}, {bitlist(1, 1), true}, {bitlist(1, 0x80), true},
		{bitlist(257, 1), true}, {bitlist(257, 2), false}, {bitlist(300, 0), false}, {bitlist(1000, 0xff), false},
	} {
		var err error
		require.NotPanics(t, func() { _, err = beacon.PendingAttestation{AggregationBits: c.bits}.HashTreeRoot() })
		require.Equal(t, c.ok, err == nil, "bitlist of %d bytes: %v", len(c.bits), err)
	}
	for v := range 256 {
		for _, n := range []int{0, 1, 32, 33, 1000} {
			var err error
			h := beacon.ExecutionPayloadHeader{ExtraData: make([]byte, n)}
			require.NotPanics(t, func() { _, err = h.HashTreeRoot(beacon.Version(v)) })
			ok := beacon.Version(v) >= beacon.Bellatrix && beacon.Version(v) <= beacon.Fulu && n <= 32
			require.Equal(t, ok, err == nil, "%s, extra_data of %d: %v", beacon.Version(v), n, err)
		}
	}
	for _, n := range []int{0, 1, 4, 5, 21, 4097} {
		b := beacon.ExecutionPayloadBid{BlobKZGCommitments: make([]beacon.KZGCommitment, n)}
		require.NotPanics(t, func() { b.HashTreeRoot() })
	}
}
