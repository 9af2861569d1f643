package beacon_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
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
	for _, v := range allForks() {
		st := beacontest.NewState(v, beacon.MainnetPreset(), 30, 11)
		for i, val := range st.Validators {
			require.Equal(t, beacon.Root(specValidator(val)), mustRoot(beacon.HashTreeRoot(val)), "%s validator %d", v, i)
		}
		assert.Equal(t, beacon.Root(specHeader(st.LatestBlockHeader)), mustRoot(beacon.HashTreeRoot(st.LatestBlockHeader)))
		assert.Equal(t, beacon.Root(specCheckpoint(st.FinalizedCheckpoint)), mustRoot(beacon.HashTreeRoot(st.FinalizedCheckpoint)))
		f := st.Fork
		var pv, cv [32]byte
		copy(pv[:], f.PreviousVersion[:])
		copy(cv[:], f.CurrentVersion[:])
		assert.Equal(t, beacon.Root(specMerkleize([][32]byte{pv, cv, u64c(uint64(f.Epoch))}, 0)), mustRoot(beacon.HashTreeRoot(f)))
		e := st.Eth1Data
		assert.Equal(t, beacon.Root(specMerkleize([][32]byte{e.DepositRoot, u64c(e.DepositCount), e.BlockHash}, 0)), mustRoot(beacon.HashTreeRoot(e)))
		for _, p := range st.PendingDeposits {
			sig := specMerkleize(bytesChunks(p.Signature[:]), 0)
			want := specMerkleize([][32]byte{specPubkey(p.PublicKey), p.WithdrawalCredentials, u64c(uint64(p.Amount)), sig, u64c(uint64(p.Slot))}, 0)
			assert.Equal(t, beacon.Root(want), mustRoot(beacon.HashTreeRoot(p)))
			assert.Equal(t, beacon.Root(sig), mustRoot(beacon.HashTreeRoot(p.Signature)))
		}
		for _, w := range st.PendingPartialWithdrawals {
			want := specMerkleize([][32]byte{u64c(uint64(w.ValidatorIndex)), u64c(uint64(w.Amount)), u64c(uint64(w.WithdrawableEpoch))}, 0)
			assert.Equal(t, beacon.Root(want), mustRoot(beacon.HashTreeRoot(w)))
		}
		for _, c := range st.PendingConsolidations {
			want := specMerkleize([][32]byte{u64c(uint64(c.SourceIndex)), u64c(uint64(c.TargetIndex))}, 0)
			assert.Equal(t, beacon.Root(want), mustRoot(beacon.HashTreeRoot(c)))
		}
		for _, h := range st.HistoricalSummaries {
			assert.Equal(t, beacon.Root(specMerkleize([][32]byte{h.BlockSummaryRoot, h.StateSummaryRoot}, 0)), mustRoot(beacon.HashTreeRoot(h)))
		}
		if v >= beacon.Altair {
			c := st.CurrentSyncCommittee
			keys := make([][32]byte, len(c.PublicKeys))
			for i, k := range c.PublicKeys {
				keys[i] = specPubkey(k)
			}
			want := specMerkleize([][32]byte{specMerkleize(keys, 0), specPubkey(c.AggregatePublicKey)}, 0)
			got, err := beacon.HashTreeRoot(c)
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(want), got)
		}
		for _, a := range st.PreviousEpochAttestations {
			d := a.Data
			data := specMerkleize([][32]byte{u64c(uint64(d.Slot)), u64c(d.Index), d.BeaconBlockRoot, specCheckpoint(d.Source), specCheckpoint(d.Target)}, 0)
			assert.Equal(t, beacon.Root(data), mustRoot(beacon.HashTreeRoot(d)))
			// The bits without the length bit, read from the SSZ form by
			// hand: the length bit is the highest set bit of the last byte.
			last := a.AggregationBits[len(a.AggregationBits)-1]
			n := (len(a.AggregationBits)-1)*8 + bits.Len8(last) - 1
			bits := make([]byte, (n+7)/8)
			for i := range n {
				if a.AggregationBits[i/8]>>(i%8)&1 == 1 {
					bits[i/8] |= 1 << (i % 8)
				}
			}
			bl := specMerkleize(bytesChunks(bits), 2048/256)
			bl = sha256.Sum256(append(bl[:], func() []byte { c := u64c(uint64(n)); return c[:] }()...))
			want := specMerkleize([][32]byte{bl, data, u64c(uint64(a.InclusionDelay)), u64c(uint64(a.ProposerIndex))}, 0)
			got, err := beacon.HashTreeRoot(a)
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(want), got)
		}
		if v >= beacon.Bellatrix && v <= beacon.Fulu { // gloas has no header
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
			// HashTreeRoot hashes deneb's to fulu's layout; an earlier
			// fork's header root is its node in the state's tree.
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			g, err := p.GIndexOf("latest_execution_payload_header")
			require.NoError(t, err)
			pr, err := p.Prove(g)
			require.NoError(t, err)
			assert.Equal(t, beacon.Root(specMerkleize(c, 0)), pr.Leaf, "%s payload header", v)
			if v >= beacon.Deneb {
				got, err := beacon.HashTreeRoot(h)
				require.NoError(t, err)
				assert.Equal(t, beacon.Root(specMerkleize(c, 0)), got, "%s payload header", v)
			}
		}
	}
}

// Components that can be invalid say so instead of hashing something the
// SSZ type cannot hold.
func TestComponentHashTreeRootErrors(t *testing.T) {
	_, err := beacon.HashTreeRoot(beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 31)})
	assert.ErrorContains(t, err, "31 public keys, want 512 (mainnet) or 32 (minimal)")
	_, err = beacon.HashTreeRoot(beacon.PendingAttestation{})
	assert.ErrorContains(t, err, "no length bit")
	_, err = beacon.HashTreeRoot(beacon.PendingAttestation{AggregationBits: overLimitBits()})
	assert.ErrorContains(t, err, "over the limit of 2048")
	_, err = beacon.HashTreeRoot(beacon.ExecutionPayloadHeader{ExtraData: make([]byte, 33)})
	assert.ErrorContains(t, err, "extra_data: 33 bytes, over the limit of 32")
}

// The block root rule of the specs' process_slot: the latest header's root
// once its state_root holds the state's root. A header whose state_root is
// already filled (a state advanced through an empty slot) is hashed as it
// is.
func TestLatestBlockRoot(t *testing.T) {
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Deneb, beacon.Fulu} {
		st := beacontest.NewState(v, beacon.MainnetPreset(), 20, 5)
		st.LatestBlockHeader.StateRoot = beacon.Root{}
		stateRoot, err := beacon.HashTreeRoot(st)
		require.NoError(t, err)
		h := st.LatestBlockHeader
		h.StateRoot = stateRoot
		got, err := latestBlockRoot(st)
		require.NoError(t, err)
		assert.Equal(t, beacon.Root(specHeader(h)), got)

		st.LatestBlockHeader.StateRoot = beacon.Root{1}
		got, err = latestBlockRoot(st)
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

// TestNilStateNoPanic: what takes a *State (HashTreeRoot, NewProver,
// WriteState in both encodings) returns an InputError for a nil one.
func TestNilStateNoPanic(t *testing.T) {
	var s *beacon.State
	for name, call := range map[string]func() error{
		"HashTreeRoot":    func() error { _, err := beacon.HashTreeRoot(s); return err },
		"NewProver":       func() error { _, err := beacon.NewProver(s); return err },
		"WriteState SSZ":  func() error { return beacon.WriteState(io.Discard, s, beacon.EncodingSSZ, nil) },
		"WriteState JSON": func() error { return beacon.WriteState(io.Discard, s, beacon.EncodingJSON, &beacon.Flags{}) },
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
		require.NotPanics(t, func() { _, err = beacon.HashTreeRoot(beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, n)}) })
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
		require.NotPanics(t, func() { _, err = beacon.HashTreeRoot(beacon.PendingAttestation{AggregationBits: c.bits}) })
		require.Equal(t, c.ok, err == nil, "bitlist of %d bytes: %v", len(c.bits), err)
	}
	for _, n := range []int{0, 1, 32, 33, 1000} {
		var err error
		h := beacon.ExecutionPayloadHeader{ExtraData: make([]byte, n)}
		require.NotPanics(t, func() { _, err = beacon.HashTreeRoot(h) })
		require.Equal(t, n <= 32, err == nil, "extra_data of %d: %v", n, err)
	}
	for _, n := range []int{0, 1, 4, 5, 21, 4097} {
		b := beacon.ExecutionPayloadBid{BlobKZGCommitments: make([]beacon.KZGCommitment, n)}
		require.NotPanics(t, func() { _, _ = beacon.HashTreeRoot(b) })
	}
}
