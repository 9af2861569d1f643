package light

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bls"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bridge"
	"github.com/nodeaccess/nodeaccess/beacon/internal/merkle"
)

// A test chain: a sync committee of interop keys per period that signs
// headers whose state and body roots commit, through real merkle trees,
// to what the light-client data proves. Written from the specs, as the
// verifier is; the differential vectors (Lodestar) check both.

// testConfig has a fork per sync committee period (64 slots): period 0
// altair, 1 bellatrix, 2 capella, 3 deneb, 4 electra, 5 fulu, 6 and later
// gloas.
func testConfig() Config {
	c := Config{Name: "test", GenesisValidatorsRoot: beacon.Root{0x47, 0x56}, GenesisTime: 1_700_000_000, SecondsPerSlot: 12,
		SlotsPerEpoch: 8, EpochsPerSyncCommitteePeriod: 8, SyncCommitteeSize: 32, MaxBlobsPerBlockElectra: 9}
	for v := range c.ForkVersions {
		c.ForkVersions[v] = beacon.ForkVersion{byte(v), 0, 0, 0x7e}
		c.ForkEpochs[v] = beacon.Epoch(8 * max(v-1, 0))
	}
	return c
}

// sparse is a merkle tree given by some of its nodes: the other leaves
// are filled with a root derived from their index.
type sparse struct {
	set  map[beacon.GIndex]beacon.Root
	anc  map[beacon.GIndex]bool
	memo map[beacon.GIndex]beacon.Root
}

func newSparse(leaves map[beacon.GIndex]beacon.Root) *sparse {
	t := &sparse{set: leaves, anc: map[beacon.GIndex]bool{}, memo: map[beacon.GIndex]beacon.Root{}}
	for g := range leaves {
		for a := g / 2; a >= 1; a /= 2 {
			t.anc[a] = true
		}
	}
	return t
}

func (t *sparse) node(g beacon.GIndex) beacon.Root {
	if r, ok := t.set[g]; ok {
		return r
	}
	if r, ok := t.memo[g]; ok {
		return r
	}
	var r beacon.Root
	if t.anc[g] {
		l, rr := t.node(2*g), t.node(2*g+1)
		r = merkle.HashPair(&l, &rr)
	} else {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(g))
		r = sha256.Sum256(b[:])
	}
	t.memo[g] = r
	return r
}

func (t *sparse) root() beacon.Root { return t.node(1) }

// branch returns the siblings of g's path, bottom-up.
func (t *sparse) branch(g beacon.GIndex) []beacon.Root {
	var b []beacon.Root
	for ; g > 1; g /= 2 {
		b = append(b, t.node(g^1))
	}
	return b
}

// normalized pads b with zeros in front up to depth.
func normalized(b []beacon.Root, depth int) []beacon.Root {
	return append(make([]beacon.Root, depth-len(b)), b...)
}

type testCommittee struct {
	sks []bls.SecretKey
	sc  beacon.SyncCommittee
}

// committee returns period p's committee: interop keys 32p.. or, with
// same, one key 32 times (signing then costs one signature).
func newTestCommittee(t testing.TB, p uint64, size int, same bool) *testCommittee {
	tc := &testCommittee{}
	var pks []bls.PublicKey
	for i := range size {
		k := uint64(size)*p + uint64(i)
		if same {
			k = p
		}
		sk, err := bls.InteropSecretKey(k)
		if err != nil {
			t.Fatal(err)
		}
		tc.sks = append(tc.sks, sk)
		pk := sk.PublicKey()
		pks = append(pks, pk)
		tc.sc.PublicKeys = append(tc.sc.PublicKeys, pk.Bytes())
	}
	all := make([]byte, (size+7)/8)
	for i := range all {
		all[i] = 0xff
	}
	agg, _ := bls.Aggregate(pks, all)
	tc.sc.AggregatePublicKey = agg.Bytes()
	return tc
}

// sign returns the aggregate signature of the members whose bit is set.
func (tc *testCommittee) sign(msg []byte, bits []byte) beacon.BLSSignature {
	var sigs []bls.Signature
	var one *bls.Signature
	for i := range tc.sks {
		if bits[i/8]>>(i%8)&1 == 0 {
			continue
		}
		if i > 0 && tc.sks[i] == tc.sks[0] && one != nil {
			sigs = append(sigs, *one)
			continue
		}
		s := tc.sks[i].Sign(msg)
		if one == nil {
			one = &s
		}
		sigs = append(sigs, s)
	}
	agg := bls.AggregateSignatures(sigs)
	return agg.Bytes()
}

type testChain struct {
	t          testing.TB
	cfg        Config
	same       bool
	committees map[uint64]*testCommittee
}

func newTestChain(t testing.TB, same bool) *testChain {
	return &testChain{t: t, cfg: testConfig(), same: same, committees: map[uint64]*testCommittee{}}
}

func (c *testChain) committee(p uint64) *testCommittee {
	if tc, ok := c.committees[p]; ok {
		return tc
	}
	tc := newTestCommittee(c.t, p, int(c.cfg.SyncCommitteeSize), c.same)
	c.committees[p] = tc
	return tc
}

func (c *testChain) slotsPerPeriod() beacon.Slot {
	return beacon.Slot(c.cfg.SlotsPerEpoch * c.cfg.EpochsPerSyncCommitteePeriod)
}

// header returns a valid light-client header at slot in form (0: the
// slot's fork) whose state root commits to state's leaves.
func (c *testChain) header(slot beacon.Slot, form beacon.Version, state map[beacon.GIndex]beacon.Root) Header {
	f := c.cfg.slotFork(slot)
	if form == 0 {
		form = f
	}
	h := Header{form: form, Beacon: beacon.BeaconBlockHeader{Slot: slot, ProposerIndex: beacon.ValidatorIndex(slot % 7)}}
	h.Beacon.ParentRoot = sha256.Sum256([]byte{byte(slot), byte(slot >> 8), 'p'})
	h.Beacon.StateRoot = newSparse(state).root()
	h.ExecutionBranch = zeroBranch(executionDepth(form))
	switch {
	case headerForm(form) == beacon.Altair:
		h.Beacon.BodyRoot = sha256.Sum256([]byte{byte(slot), byte(slot >> 8), 'b'})
		return h
	case headerForm(form) < beacon.Gloas:
		h.Execution = &beacon.ExecutionPayloadHeader{BlockNumber: uint64(slot) + 1000, Timestamp: c.cfg.GenesisTime + 12*uint64(slot), GasLimit: 30e6, ExtraData: []byte("lc")}
		h.Execution.BaseFeePerGas.SetUint64(7)
		if f < beacon.Capella {
			h.Execution = &beacon.ExecutionPayloadHeader{}
			h.Beacon.BodyRoot = sha256.Sum256([]byte{byte(slot), byte(slot >> 8), 'b'})
			return h
		}
		h.Execution.BlockHash = sha256.Sum256([]byte{byte(slot), byte(slot >> 8), 'h'})
		h.Execution.StateRoot = sha256.Sum256([]byte{byte(slot), byte(slot >> 8), 's'})
		layout := beacon.Capella
		if f >= beacon.Deneb {
			layout = beacon.Deneb
			h.Execution.BlobGasUsed = 131072
		}
		h.ExecutionBlockHash = h.Execution.BlockHash
		g := beacon.Capella.LightClientGIndices().ExecutionPayload
		tr := newSparse(map[beacon.GIndex]beacon.Root{g: bridge.PayloadHeaderRoot(h.Execution, uint8(layout))})
		h.Beacon.BodyRoot = tr.root()
		h.ExecutionBranch = tr.branch(g)
	default:
		if f < beacon.Capella {
			h.Beacon.BodyRoot = sha256.Sum256([]byte{byte(slot), byte(slot >> 8), 'b'})
			return h
		}
		h.ExecutionBlockHash = sha256.Sum256([]byte{byte(slot), byte(slot >> 8), 'h'})
		g := f.LightClientGIndices().ExecutionBlockHash
		tr := newSparse(map[beacon.GIndex]beacon.Root{g: h.ExecutionBlockHash})
		h.Beacon.BodyRoot = tr.root()
		h.ExecutionBranch = normalized(tr.branch(g), executionDepth(form))
	}
	return h
}

func htr[T beacon.BeaconBlockHeader | beacon.SyncCommittee](t testing.TB, v T) beacon.Root {
	r, err := beacon.HashTreeRoot(v)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// bootstrap returns the bootstrap of a block at slot.
func (c *testChain) bootstrap(slot beacon.Slot) *Bootstrap {
	f := c.cfg.slotFork(slot)
	cm := c.committee(c.cfg.period(slot)).sc
	g := f.LightClientGIndices().CurrentSyncCommittee
	leaves := map[beacon.GIndex]beacon.Root{g: htr(c.t, cm)}
	h := c.header(slot, 0, leaves)
	return &Bootstrap{Version: f, Header: h, CurrentSyncCommittee: cm, CurrentSyncCommitteeBranch: newSparse(leaves).branch(g)}
}

// update returns an update attested at att, finalizing fin (0: none),
// with the next committee (withNext), signed at att+1 by n members.
func (c *testChain) update(att, fin beacon.Slot, withNext bool, n int) *Update {
	f := c.cfg.slotFork(att)
	gi := f.LightClientGIndices()
	u := &Update{Version: f, SignatureSlot: att + 1}
	leaves := map[beacon.GIndex]beacon.Root{}
	var fh Header
	if fin != 0 {
		fh = c.header(fin, f, map[beacon.GIndex]beacon.Root{9: {9}})
		leaves[gi.FinalizedRoot] = htr(c.t, fh.Beacon)
	}
	nc := c.committee(c.cfg.period(att) + 1).sc
	if withNext {
		leaves[gi.NextSyncCommittee] = htr(c.t, nc)
	}
	leaves[gi.NextSyncCommittee^1] = beacon.Root{1} // the current committee's node, some value
	u.AttestedHeader = c.header(att, 0, leaves)
	tr := newSparse(leaves)
	u.NextSyncCommitteeBranch = make([]beacon.Root, nextBranchDepth(f))
	u.FinalityBranch = make([]beacon.Root, finalityDepth(f))
	u.FinalizedHeader = zeroHeader(f)
	if withNext {
		u.NextSyncCommittee, u.NextSyncCommitteeBranch = &nc, tr.branch(gi.NextSyncCommittee)
	}
	if fin != 0 {
		u.FinalizedHeader, u.FinalityBranch = fh, tr.branch(gi.FinalizedRoot)
	}
	c.sign(u, n)
	return u
}

// sign (re)signs u by the first n members of its signature period's
// committee.
func (c *testChain) sign(u *Update, n int) {
	u.SyncCommitteeBits = make([]byte, c.cfg.SyncCommitteeSize/8)
	for i := range n {
		u.SyncCommitteeBits[i/8] |= 1 << (i % 8)
	}
	msg := c.cfg.signingRootOf(u)
	u.SyncCommitteeSignature = c.committee(c.cfg.period(u.SignatureSlot)).sign(msg[:], u.SyncCommitteeBits)
}

// clock returns the time of slot s.
func (c *testChain) clock(s beacon.Slot) func() time.Time {
	return func() time.Time { return time.Unix(int64(c.cfg.GenesisTime+12*uint64(s)), 0) }
}

// The wire forms, written as the beacon API writes them.

func headerWire(h *Header) map[string]any {
	m := map[string]any{"beacon": h.Beacon}
	switch f := headerForm(h.form); {
	case f == beacon.Gloas:
		m["execution_block_hash"], m["execution_branch"] = h.ExecutionBlockHash, h.ExecutionBranch
	case f >= beacon.Capella:
		var e map[string]any
		b, _ := json.Marshal(h.Execution)
		_ = json.Unmarshal(b, &e)
		if f < beacon.Deneb {
			delete(e, "blob_gas_used")
			delete(e, "excess_blob_gas")
		}
		m["execution"], m["execution_branch"] = e, h.ExecutionBranch
	}
	return m
}

func updateWire(u *Update, k kind) map[string]any {
	m := map[string]any{"attested_header": headerWire(&u.AttestedHeader), "signature_slot": u.SignatureSlot,
		"sync_aggregate": map[string]any{"sync_committee_bits": hexOf(u.SyncCommitteeBits), "sync_committee_signature": u.SyncCommitteeSignature}}
	m["signature_slot"] = json.RawMessage(`"` + itoa(uint64(u.SignatureSlot)) + `"`)
	if k != kindOptimistic {
		m["finalized_header"], m["finality_branch"] = headerWire(&u.FinalizedHeader), u.FinalityBranch
	}
	if k == kindUpdate {
		nc := u.NextSyncCommittee
		if nc == nil {
			nc = &beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 32)}
		}
		m["next_sync_committee"], m["next_sync_committee_branch"] = nc, u.NextSyncCommitteeBranch
	}
	return map[string]any{"version": u.Version.String(), "data": m}
}

func bootstrapWire(b *Bootstrap) map[string]any {
	return map[string]any{"version": b.Version.String(), "data": map[string]any{"header": headerWire(&b.Header),
		"current_sync_committee": b.CurrentSyncCommittee, "current_sync_committee_branch": b.CurrentSyncCommitteeBranch}}
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hexOf(b []byte) string { return "0x" + common.Bytes2Hex(b) }

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// The SSZ forms.

func headerSSZ(h *Header) []byte {
	b := blockHeaderSSZ(&h.Beacon)
	switch f := headerForm(h.form); {
	case f == beacon.Gloas:
		b = append(b, h.ExecutionBlockHash[:]...)
		for _, r := range h.ExecutionBranch {
			b = append(b, r[:]...)
		}
	case f >= beacon.Capella:
		b = binary.LittleEndian.AppendUint32(b, uint32(112+4+32*len(h.ExecutionBranch)))
		for _, r := range h.ExecutionBranch {
			b = append(b, r[:]...)
		}
		b = append(b, executionSSZ(h.Execution, f)...)
	}
	return b
}

func blockHeaderSSZ(h *beacon.BeaconBlockHeader) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(h.Slot))
	b = binary.LittleEndian.AppendUint64(b, uint64(h.ProposerIndex))
	b = append(b, h.ParentRoot[:]...)
	b = append(b, h.StateRoot[:]...)
	return append(b, h.BodyRoot[:]...)
}

func executionSSZ(e *beacon.ExecutionPayloadHeader, f beacon.Version) []byte {
	le := binary.LittleEndian
	b := append([]byte{}, e.ParentHash[:]...)
	b = append(b, e.FeeRecipient[:]...)
	b = append(b, e.StateRoot[:]...)
	b = append(b, e.ReceiptsRoot[:]...)
	b = append(b, e.LogsBloom[:]...)
	b = append(b, e.PrevRandao[:]...)
	for _, n := range []uint64{e.BlockNumber, e.GasLimit, e.GasUsed, e.Timestamp} {
		b = le.AppendUint64(b, n)
	}
	b = le.AppendUint32(b, uint32(executionHeaderFixed(f)))
	for _, l := range e.BaseFeePerGas {
		b = le.AppendUint64(b, l)
	}
	b = append(b, e.BlockHash[:]...)
	b = append(b, e.TransactionsRoot[:]...)
	b = append(b, e.WithdrawalsRoot[:]...)
	if f >= beacon.Deneb {
		b = le.AppendUint64(b, e.BlobGasUsed)
		b = le.AppendUint64(b, e.ExcessBlobGas)
	}
	return append(b, e.ExtraData...)
}

func committeeSSZ(sc *beacon.SyncCommittee) []byte {
	var b []byte
	for _, k := range sc.PublicKeys {
		b = append(b, k[:]...)
	}
	return append(b, sc.AggregatePublicKey[:]...)
}

func branchSSZ(br []beacon.Root) []byte {
	var b []byte
	for _, r := range br {
		b = append(b, r[:]...)
	}
	return b
}

// containerSSZ joins fields (variable ones marked) as SSZ does.
func containerSSZ(fields [][]byte, variable []bool) []byte {
	fixed := 0
	for i, f := range fields {
		if variable[i] {
			fixed += 4
		} else {
			fixed += len(f)
		}
	}
	var head, tail []byte
	for i, f := range fields {
		if variable[i] {
			head = binary.LittleEndian.AppendUint32(head, uint32(fixed+len(tail)))
			tail = append(tail, f...)
		} else {
			head = append(head, f...)
		}
	}
	return append(head, tail...)
}

func headerVariable(v beacon.Version) bool { _, vr := headerFixedSize(v); return vr }

func bootstrapSSZ(b *Bootstrap) []byte {
	hv := headerVariable(b.Version)
	return containerSSZ([][]byte{headerSSZ(&b.Header), committeeSSZ(&b.CurrentSyncCommittee), branchSSZ(b.CurrentSyncCommitteeBranch)}, []bool{hv, false, false})
}

func updateSSZ(u *Update, k kind) []byte {
	hv := headerVariable(u.Version)
	agg := append(append([]byte{}, u.SyncCommitteeBits...), u.SyncCommitteeSignature[:]...)
	slot := binary.LittleEndian.AppendUint64(nil, uint64(u.SignatureSlot))
	switch k {
	case kindOptimistic:
		return containerSSZ([][]byte{headerSSZ(&u.AttestedHeader), agg, slot}, []bool{hv, false, false})
	case kindFinality:
		return containerSSZ([][]byte{headerSSZ(&u.AttestedHeader), headerSSZ(&u.FinalizedHeader), branchSSZ(u.FinalityBranch), agg, slot}, []bool{hv, hv, false, false, false})
	}
	nc := u.NextSyncCommittee
	if nc == nil {
		nc = &beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 32)}
	}
	return containerSSZ([][]byte{headerSSZ(&u.AttestedHeader), committeeSSZ(nc), branchSSZ(u.NextSyncCommitteeBranch),
		headerSSZ(&u.FinalizedHeader), branchSSZ(u.FinalityBranch), agg, slot}, []bool{hv, false, false, hv, false, false, false})
}
