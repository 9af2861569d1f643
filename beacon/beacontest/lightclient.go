package beacontest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bls"
	"github.com/nodeaccess/nodeaccess/beacon/internal/merkle"
	"github.com/nodeaccess/nodeaccess/beacon/light"
)

// The light-client configuration of every Server (see the package
// documentation, "The light-client endpoints").
var (
	// lcGenesisValidatorsRoot is sha256("beacontest genesis validators root").
	lcGenesisValidatorsRoot = beacon.Root(sha256.Sum256([]byte("beacontest genesis validators root")))
	// lcForkVersion is mainnet's ELECTRA_FORK_VERSION: every epoch is electra.
	lcForkVersion = beacon.ForkVersion{0x05, 0, 0, 0}
	// lcPreviousForkVersion is DENEB_FORK_VERSION, the state's fork.previous_version.
	lcPreviousForkVersion = beacon.ForkVersion{0x04, 0, 0, 0}
	// domainSyncCommittee is DOMAIN_SYNC_COMMITTEE.
	domainSyncCommittee = [4]byte{0x07, 0, 0, 0}
)

// lcVersion is the fork of the light-client data: electra (its state
// gindices are fulu's too).
const lcVersion = beacon.Electra

// The electra state's fields the light-client data changes per block.
const (
	fieldGVR        = 1
	fieldSlot       = 2
	fieldHeader     = 4
	fieldFinalized  = 20
	fieldCurrentSC  = 22
	fieldNextSC     = 23
	fieldExecHeader = 24
	stateLeaves     = 64 // electra's 37 fields, padded to a power of two
	bodyLeaves      = 16 // electra's 13 body fields, padded
	bodyExecLeaf    = 9  // execution_payload in the body
)

// lcConfig is what a light client must know to follow a Server: the
// preset's sync committee size and period.
type lcConfig struct {
	preset          beacon.Preset
	size            int    // SYNC_COMMITTEE_SIZE
	epochsPerPeriod uint64 // EPOCHS_PER_SYNC_COMMITTEE_PERIOD
	spe             uint64
}

func newLCConfig(p beacon.Preset) lcConfig {
	c := lcConfig{preset: beacon.MainnetPreset(), size: 512, epochsPerPeriod: 256, spe: 32}
	if p.SyncCommitteeSize == 32 {
		c = lcConfig{preset: beacon.MinimalPreset(), size: 32, epochsPerPeriod: 8, spe: 8}
	}
	c.spe = max(p.SlotsPerEpoch, 1)
	return c
}

func (c lcConfig) period(s beacon.Slot) uint64 { return uint64(s) / c.spe / c.epochsPerPeriod }

// member returns the validator index of member j of period p's
// committee: (p*size + j) mod 4*size, so that committees rotate and a
// pool of 4*size interop keys serves them all.
func (c lcConfig) member(p uint64, j int) uint64 {
	n := uint64(c.size)
	return (p%4*n + uint64(j)) % (4 * n)
}

// lcKeys is the pool of interop keys, 4*size of them, with their public
// keys; made once per committee size and shared by every Server.
type lcKeys struct {
	sks  []bls.SecretKey
	pks  []beacon.BLSPubKey
	comm [4]lcCommittee // the committees of periods 0 to 3 mod 4
	tmpl *beacon.State  // the state every block's state is made from
	lvs  []beacon.Root  // its field roots
}

// lcCommittee is one period's sync committee and its root.
type lcCommittee struct {
	sc   beacon.SyncCommittee
	root beacon.Root
}

var (
	lcPoolMu sync.Mutex
	lcPools  = map[int]*lcKeys{}
)

// pool returns the keys, committees and state template of c's committee
// size, making them on first use.
func (c lcConfig) pool() (*lcKeys, error) {
	lcPoolMu.Lock()
	defer lcPoolMu.Unlock()
	if k, ok := lcPools[c.size]; ok {
		return k, nil
	}
	n := 4 * c.size
	k := &lcKeys{sks: make([]bls.SecretKey, n), pks: make([]beacon.BLSPubKey, n)}
	pubs := make([]bls.PublicKey, n)
	for i := range n {
		sk, err := bls.InteropSecretKey(uint64(i))
		if err != nil {
			return nil, err
		}
		pubs[i] = sk.PublicKey()
		k.sks[i], k.pks[i] = sk, pubs[i].Bytes()
	}
	all := make([]byte, (c.size+7)/8)
	for i := range all {
		all[i] = 0xff
	}
	for p := range 4 {
		sc := beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, c.size)}
		members := make([]bls.PublicKey, c.size)
		for j := range c.size {
			members[j] = pubs[c.member(uint64(p), j)]
			sc.PublicKeys[j] = k.pks[c.member(uint64(p), j)]
		}
		agg, _ := bls.Aggregate(members, all)
		sc.AggregatePublicKey = agg.Bytes()
		root, err := beacon.HashTreeRoot(sc)
		if err != nil {
			return nil, err
		}
		k.comm[p] = lcCommittee{sc: sc, root: root}
	}
	st := NewState(lcVersion, c.preset, n, 32)
	st.GenesisValidatorsRoot = lcGenesisValidatorsRoot
	st.Fork = beacon.Fork{PreviousVersion: lcPreviousForkVersion, CurrentVersion: lcForkVersion}
	for i := range st.Validators {
		st.Validators[i].PublicKey = k.pks[i]
	}
	pr, err := beacon.NewProver(st)
	if err != nil {
		return nil, err
	}
	k.lvs = make([]beacon.Root, stateLeaves)
	for i := range stateLeaves {
		proof, err := pr.Prove(beacon.GIndex(stateLeaves + i))
		if err != nil {
			return nil, err
		}
		k.lvs[i] = proof.Leaf
	}
	k.tmpl = st
	lcPools[c.size] = k
	return k, nil
}

// lcBlock is what a block of the chain holds for the light-client data:
// its execution payload header and the finalized checkpoint its state
// holds.
type lcBlock struct {
	exec beacon.ExecutionPayloadHeader
	fin  beacon.Checkpoint
}

// execHeader is the execution payload header of the block at slot of
// branch, on the parent execution block parent.
func execHeader(slot beacon.Slot, branch uint64, parent common.Hash) beacon.ExecutionPayloadHeader {
	h := beacon.ExecutionPayloadHeader{
		ParentHash:       parent,
		FeeRecipient:     common.Address{0xfe},
		StateRoot:        filler("exec-state", slot, branch),
		ReceiptsRoot:     filler("exec-receipts", slot, branch),
		PrevRandao:       filler("randao", slot, branch),
		BlockNumber:      uint64(slot),
		GasLimit:         36_000_000,
		GasUsed:          uint64(slot) % 36_000_000,
		Timestamp:        1_700_000_000 + 12*uint64(slot),
		ExtraData:        []byte("beacontest"),
		BlockHash:        common.Hash(filler("exec-block", slot, branch)),
		TransactionsRoot: filler("exec-txs", slot, branch),
		WithdrawalsRoot:  filler("exec-withdrawals", slot, branch),
	}
	h.BaseFeePerGas.SetUint64(7)
	return h
}

// bodyLeavesOf returns the body's 16 leaves: filler roots but the
// execution payload's (whose root is its header's), the leaf the
// execution branch proves.
func bodyLeavesOf(slot beacon.Slot, branch uint64, exec *beacon.ExecutionPayloadHeader, other bool) []beacon.Root {
	lv := make([]beacon.Root, bodyLeaves)
	for i := range 13 {
		lv[i] = filler(fmt.Sprintf("body-%d", i), slot, branch)
	}
	if other { // another body: one other field
		lv[8] = filler("body-other", slot, branch)
	}
	lv[bodyExecLeaf], _ = beacon.HashTreeRoot(*exec) // extra_data is within its limit
	return lv
}

// branchOf returns the siblings of leaf i in the tree of lv (bottom-up)
// and the root.
func branchOf(lv []beacon.Root, i int) ([]beacon.Root, beacon.Root) {
	level := append([]beacon.Root(nil), lv...)
	var br []beacon.Root
	for len(level) > 1 {
		br = append(br, level[i^1])
		next := make([]beacon.Root, len(level)/2)
		for j := range next {
			next[j] = merkle.HashPair(&level[2*j], &level[2*j+1])
		}
		level, i = next, i/2
	}
	return br, level[0]
}

// lcState is the state of the block h (state_root zero in its latest
// block header, as after the block) with fin finalized: the template with
// the fields of the block.
func (k *lcKeys) state(c lcConfig, h beacon.BeaconBlockHeader, b *lcBlock) *beacon.State {
	st := *k.tmpl
	st.Slot = h.Slot
	h.StateRoot = beacon.Root{}
	st.LatestBlockHeader = h
	st.FinalizedCheckpoint = b.fin
	p := c.period(h.Slot)
	st.CurrentSyncCommittee = k.comm[p%4].sc
	st.NextSyncCommittee = k.comm[(p+1)%4].sc
	st.LatestExecutionPayloadHeader = b.exec
	return &st
}

// stateRoot is the hash tree root of state(h, b), from the template's
// field roots and the block's.
func (k *lcKeys) stateRoot(c lcConfig, h beacon.BeaconBlockHeader, b *lcBlock) beacon.Root {
	lv := append([]beacon.Root(nil), k.lvs...)
	slot := h.Slot
	h.StateRoot = beacon.Root{}
	lv[fieldSlot] = beacon.Root{}
	binary.LittleEndian.PutUint64(lv[fieldSlot][:8], uint64(slot))
	lv[fieldHeader], _ = beacon.HashTreeRoot(h) // these containers always have a root
	lv[fieldFinalized], _ = beacon.HashTreeRoot(b.fin)
	p := c.period(slot)
	lv[fieldCurrentSC], lv[fieldNextSC] = k.comm[p%4].root, k.comm[(p+1)%4].root
	lv[fieldExecHeader], _ = beacon.HashTreeRoot(b.exec)
	_, root := branchOf(lv, 0)
	return root
}

// syncAggregate is a sync committee's signature of a header: the
// participation bits and the aggregate signature.
type syncAggregate struct {
	bits []byte
	sig  []byte // 96 bytes, or fewer when lying
}

// signingRoot is compute_signing_root(header, domain) with the sync
// committee domain of fork version v.
func signingRoot(h beacon.BeaconBlockHeader, v beacon.ForkVersion) (beacon.Root, error) {
	var fd [64]byte
	copy(fd[:4], v[:])
	copy(fd[32:], lcGenesisValidatorsRoot[:])
	forkDataRoot := sha256.Sum256(fd[:])
	var sd [64]byte
	hr, err := beacon.HashTreeRoot(h)
	if err != nil {
		return beacon.Root{}, err
	}
	copy(sd[:32], hr[:])
	copy(sd[32:36], domainSyncCommittee[:])
	copy(sd[36:], forkDataRoot[:28])
	return sha256.Sum256(sd[:]), nil
}

// forkDigest is compute_fork_digest(ELECTRA_FORK_VERSION, genesis
// validators root): the context bytes of the SSZ update chunks.
func forkDigest() [4]byte {
	var fd [64]byte
	copy(fd[:4], lcForkVersion[:])
	copy(fd[32:], lcGenesisValidatorsRoot[:])
	r := sha256.Sum256(fd[:])
	return [4]byte(r[:4])
}

// sign makes the sync aggregate of period p's committee over header h,
// signed at signature slot sigSlot: every member but member sigSlot mod
// size takes part. The aggregate signature is (the sum of the
// participants' secret keys) times H(signing root), which is the sum of
// their signatures, at the cost of one signature.
func (k *lcKeys) sign(c lcConfig, h beacon.BeaconBlockHeader, sigSlot beacon.Slot, lie Lie) (syncAggregate, error) {
	p := c.period(sigSlot)
	agg := syncAggregate{bits: make([]byte, c.size/8)}
	if lie.Participants {
		inf := make([]byte, bls.SignatureSize)
		inf[0] = 0xc0
		agg.sig = inf
		return agg, nil
	}
	v := lcForkVersion
	if lie.ForkVersion {
		v = lcPreviousForkVersion
	}
	root, err := signingRoot(h, v)
	if err != nil {
		return agg, err
	}
	if lie.Signature {
		root[0] ^= 1
	}
	var parts []bls.SecretKey
	skip := int(uint64(sigSlot) % uint64(c.size))
	for j := range c.size {
		if j == skip {
			continue
		}
		agg.bits[j/8] |= 1 << (j % 8)
		parts = append(parts, k.sks[c.member(p, j)])
	}
	sum := bls.SumSecretKeys(parts)
	sig := sum.Sign(root[:])
	b := sig.Bytes()
	agg.sig = b[:]
	if lie.ShortSignature {
		agg.sig = agg.sig[:bls.SignatureSize-1]
	}
	return agg, nil
}

// stateBody encodes the state of the chain's block whose state_root id
// names (the state the light-client data proves against), made from the
// template: errNotFound for any other id.
func (c *chain) stateBody(id beacon.StateID, enc beacon.Encoding) ([]byte, Info, error) {
	r, ok := rootOf(id)
	if !ok {
		return nil, Info{}, errNotFound
	}
	c.mu.Lock()
	var st *beacon.State
	for _, b := range c.blocks {
		if b.h.StateRoot == r {
			st = c.keys.state(c.lcc, b.h, &b.lc)
			break
		}
	}
	c.mu.Unlock()
	if st == nil {
		return nil, Info{}, errNotFound
	}
	var buf bytes.Buffer
	if err := beacon.WriteState(&buf, st, enc, nil); err != nil {
		return nil, Info{}, fmt.Errorf("beacontest: encoding the state of block %d: %w", st.Slot, err)
	}
	return buf.Bytes(), Info{Slot: st.Slot, Root: r, Version: st.Version, Preset: presetOf(st), Validators: len(st.Validators)}, nil
}

// LightConfig returns the configuration a light client needs to follow the
// server (package beacon/light): its genesis validators root, every fork
// up to Electra at epoch 0 with mainnet's fork versions (Fulu and Gloas not
// scheduled), the preset values of its sync committee (see the package
// documentation), and a Clock that reads the server's current slot (the
// head's, or later after empty slots), since the server's slots move with
// Advance, not with time.
func (s *Server) LightConfig() light.Config {
	c := s.chain.lcc
	cfg := light.Config{
		Name:                         "beacontest",
		GenesisValidatorsRoot:        lcGenesisValidatorsRoot,
		SecondsPerSlot:               1,
		SlotsPerEpoch:                c.spe,
		EpochsPerSyncCommitteePeriod: c.epochsPerPeriod,
		SyncCommitteeSize:            uint64(c.size),
		MaxBlobsPerBlockElectra:      9,
		Clock: func() beacon.Slot {
			s.chain.mu.Lock()
			defer s.chain.mu.Unlock()
			return s.chain.slot
		},
	}
	for v := beacon.Phase0; v <= beacon.Gloas; v++ {
		cfg.ForkVersions[v] = beacon.ForkVersion{byte(v), 0, 0, 0}
		if v > beacon.Electra {
			cfg.ForkEpochs[v] = beacon.FarFutureEpoch
		}
	}
	return cfg
}
