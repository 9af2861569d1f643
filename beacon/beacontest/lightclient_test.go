package beacontest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bls"
)

// The light-client configuration the package documentation gives, written
// here apart from the server's code.
var (
	lcGVR         = sha256.Sum256([]byte("beacontest genesis validators root"))
	lcForkVersion = [4]byte{0x05}
)

const (
	lcHeaderFixedTest = 112 + 4 + 4*32 // a LightClientHeader's fixed part
	lcSize            = 32             // the minimal preset's SYNC_COMMITTEE_SIZE
	lcSlotsPerPeriod  = 8 * 8
	lcGIndexFinalized = 169 // electra's FINALIZED_ROOT_GINDEX
	lcGIndexCurrent   = 86
	lcGIndexNext      = 87
	lcGIndexExecution = 25
)

// Test-side decodings of the beacon API's JSON: strings, read by hand.
type tHeader struct {
	Beacon struct {
		Slot          string `json:"slot"`
		ProposerIndex string `json:"proposer_index"`
		ParentRoot    string `json:"parent_root"`
		StateRoot     string `json:"state_root"`
		BodyRoot      string `json:"body_root"`
	} `json:"beacon"`
	Execution       json.RawMessage `json:"execution"`
	ExecutionBranch []string        `json:"execution_branch"`
}

type tCommittee struct {
	PublicKeys []string `json:"pubkeys"`
	Aggregate  string   `json:"aggregate_pubkey"`
}

type tUpdate struct {
	AttestedHeader          tHeader    `json:"attested_header"`
	NextSyncCommittee       tCommittee `json:"next_sync_committee"`
	NextSyncCommitteeBranch []string   `json:"next_sync_committee_branch"`
	FinalizedHeader         tHeader    `json:"finalized_header"`
	FinalityBranch          []string   `json:"finality_branch"`
	SyncAggregate           struct {
		Bits      string `json:"sync_committee_bits"`
		Signature string `json:"sync_committee_signature"`
	} `json:"sync_aggregate"`
	SignatureSlot string `json:"signature_slot"`
}

type tBootstrap struct {
	Header                     tHeader    `json:"header"`
	CurrentSyncCommittee       tCommittee `json:"current_sync_committee"`
	CurrentSyncCommitteeBranch []string   `json:"current_sync_committee_branch"`
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	require.True(t, strings.HasPrefix(s, "0x"), s)
	b, err := hex.DecodeString(s[2:])
	require.NoError(t, err)
	return b
}

func root(t testing.TB, s string) beacon.Root {
	t.Helper()
	b := unhex(t, s)
	require.Len(t, b, 32)
	return beacon.Root(b)
}

func roots(t testing.TB, ss []string) []beacon.Root {
	out := make([]beacon.Root, len(ss))
	for i, s := range ss {
		out[i] = root(t, s)
	}
	return out
}

func u64(t testing.TB, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err)
	return n
}

// blockHeader and its root, from the JSON.
func (h *tHeader) block(t testing.TB) (beacon.BeaconBlockHeader, beacon.Root) {
	b := beacon.BeaconBlockHeader{Slot: beacon.Slot(u64(t, h.Beacon.Slot)), ProposerIndex: beacon.ValidatorIndex(u64(t, h.Beacon.ProposerIndex)),
		ParentRoot: root(t, h.Beacon.ParentRoot), StateRoot: root(t, h.Beacon.StateRoot), BodyRoot: root(t, h.Beacon.BodyRoot)}
	r, err := beacon.HashTreeRoot(b)
	require.NoError(t, err)
	return b, r
}

// execOK reports whether h's execution branch proves its execution payload
// header against its body root.
func (h *tHeader) execOK(t testing.TB) bool {
	var e beacon.ExecutionPayloadHeader
	require.NoError(t, json.Unmarshal(h.Execution, &e))
	leaf, err := beacon.HashTreeRoot(e)
	require.NoError(t, err)
	b, _ := h.block(t)
	return beacon.Proof{Leaf: leaf, Branch: roots(t, h.ExecutionBranch), GIndex: lcGIndexExecution}.Verify(b.BodyRoot)
}

// committeeOf is period p's committee as the documentation derives it:
// member j is interop validator (p mod 4)*size + j.
func committeeOf(t testing.TB, p uint64) []bls.PublicKey {
	out := make([]bls.PublicKey, lcSize)
	for j := range lcSize {
		sk, err := bls.InteropSecretKey(p%4*lcSize + uint64(j))
		require.NoError(t, err)
		out[j] = sk.PublicKey()
	}
	return out
}

func (c *tCommittee) check(t testing.TB, p uint64) beacon.Root {
	t.Helper()
	want := committeeOf(t, p)
	require.Len(t, c.PublicKeys, lcSize)
	sc := beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, lcSize)}
	for j, k := range c.PublicKeys {
		b := want[j].Bytes()
		require.Equal(t, hex.EncodeToString(b[:]), k[2:], "period %d member %d", p, j)
		sc.PublicKeys[j] = b
	}
	sc.AggregatePublicKey = beacon.BLSPubKey(unhex(t, c.Aggregate))
	agg, n := bls.Aggregate(want, []byte{0xff, 0xff, 0xff, 0xff})
	require.Equal(t, lcSize, n)
	require.Equal(t, agg.Bytes(), [48]byte(sc.AggregatePublicKey), "aggregate_pubkey is the sum of the keys")
	r, err := beacon.HashTreeRoot(sc)
	require.NoError(t, err)
	return r
}

// signingRoot is compute_signing_root(header, compute_domain(DOMAIN_SYNC_COMMITTEE, fork version, GVR)).
func signingRoot(h beacon.Root, version [4]byte) []byte {
	var fd [64]byte
	copy(fd[:], version[:])
	copy(fd[32:], lcGVR[:])
	fdr := sha256.Sum256(fd[:])
	var sd [64]byte
	copy(sd[:], h[:])
	copy(sd[32:], []byte{7, 0, 0, 0})
	copy(sd[36:], fdr[:28])
	r := sha256.Sum256(sd[:])
	return r[:]
}

// sigOK verifies the update's sync aggregate with the committee of the
// signature slot's period, and returns the number of participants.
func (u *tUpdate) sigOK(t testing.TB) (int, bool) {
	_, ar := u.AttestedHeader.block(t)
	sigSlot := u64(t, u.SignatureSlot)
	keys := committeeOf(t, sigSlot/lcSlotsPerPeriod)
	bits := unhex(t, u.SyncAggregate.Bits)
	require.Len(t, bits, lcSize/8)
	var part []bls.PublicKey
	for j := range lcSize {
		if bits[j/8]>>(j%8)&1 == 1 {
			part = append(part, keys[j])
		}
	}
	sig, err := bls.ParseSignature(unhex(t, u.SyncAggregate.Signature))
	if err != nil {
		return len(part), false
	}
	return len(part), bls.FastAggregateVerify(part, signingRoot(ar, lcForkVersion), &sig)
}

// lcServer is a minimal-preset server whose chain has periods whole
// periods and a finalized checkpoint.
func lcServer(t testing.TB, periods int) *beacontest.Server {
	t.Helper()
	srv := start(t, beacontest.WithStates(smallState(beacon.Electra, 100, 1, 2, 1)))
	require.NoError(t, srv.Advance(periods*lcSlotsPerPeriod-1+20, 5))
	require.NoError(t, srv.Finalize(beacon.Epoch(uint64(periods*lcSlotsPerPeriod)/8)))
	require.NoError(t, srv.Advance(3))
	return srv
}

func lcGet(t testing.TB, srv *beacontest.Server, path string, accept string, v any) (int, http.Header, []byte) {
	t.Helper()
	code, h, body := raw(t, http.MethodGet, srv.URL+"/beacon/"+testKey+"/eth/v1/beacon/light_client/"+path, accept)
	if code == http.StatusOK && v != nil && accept != "application/octet-stream" {
		require.NoError(t, json.Unmarshal(body, v), "%s", body)
	}
	return code, h, body
}

type envelope[T any] struct {
	Version string `json:"version"`
	Data    T      `json:"data"`
}

func TestLightClientBootstrapVerifies(t *testing.T) {
	srv := lcServer(t, 2)
	code, hdr, body := raw(t, http.MethodGet, srv.URL+"/beacon/"+testKey+"/eth/v1/beacon/headers/head")
	require.Equal(t, 200, code, "%s", body)
	var head struct {
		Data struct {
			Root string `json:"root"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &head))
	_ = hdr
	var b envelope[tBootstrap]
	code, h, body := lcGet(t, srv, "bootstrap/"+head.Data.Root, "application/json", &b)
	require.Equal(t, 200, code, "%s", body)
	require.Equal(t, "electra", b.Version)
	require.Equal(t, "electra", h.Get("Eth-Consensus-Version"))
	bh, br := b.Data.Header.block(t)
	require.Equal(t, root(t, head.Data.Root), br, "the bootstrap is of the asked root")
	leaf := b.Data.CurrentSyncCommittee.check(t, uint64(bh.Slot)/lcSlotsPerPeriod)
	require.True(t, beacon.Proof{Leaf: leaf, Branch: roots(t, b.Data.CurrentSyncCommitteeBranch), GIndex: lcGIndexCurrent}.Verify(bh.StateRoot))
	require.True(t, b.Data.Header.execOK(t))

	code, _, body = lcGet(t, srv, "bootstrap/0x"+strings.Repeat("ab", 32), "application/json", nil)
	require.Equal(t, 404, code)
	require.Contains(t, string(body), `"code":404`)
	code, _, _ = lcGet(t, srv, "bootstrap/0x1234", "application/json", nil)
	require.Equal(t, 400, code)
}

// checkUpdate verifies u as a light client would, apart from the server:
// the signature, the next committee and finality branches, the execution
// branches. It returns what failed.
func checkUpdate(t testing.TB, u *tUpdate) []string {
	var bad []string
	ah, _ := u.AttestedHeader.block(t)
	if n, ok := u.sigOK(t); !ok || n == 0 {
		bad = append(bad, "signature")
	}
	leaf := u.NextSyncCommittee.check(t, uint64(ah.Slot)/lcSlotsPerPeriod+1)
	if !(beacon.Proof{Leaf: leaf, Branch: roots(t, u.NextSyncCommitteeBranch), GIndex: lcGIndexNext}.Verify(ah.StateRoot)) {
		bad = append(bad, "next committee branch")
	}
	var fr beacon.Root
	if u.FinalizedHeader.Beacon.Slot != "0" {
		_, fr = u.FinalizedHeader.block(t)
		if !u.FinalizedHeader.execOK(t) {
			bad = append(bad, "finalized execution branch")
		}
	}
	if !(beacon.Proof{Leaf: fr, Branch: roots(t, u.FinalityBranch), GIndex: lcGIndexFinalized}.Verify(ah.StateRoot)) {
		bad = append(bad, "finality branch")
	}
	if !u.AttestedHeader.execOK(t) {
		bad = append(bad, "attested execution branch")
	}
	return bad
}

func TestLightClientUpdatesVerify(t *testing.T) {
	srv := lcServer(t, 3)
	var list []envelope[tUpdate]
	code, _, body := lcGet(t, srv, "updates?start_period=0&count=10", "application/json", &list)
	require.Equal(t, 200, code, "%s", body)
	require.Len(t, list, 4, "periods 0 to 3 (the head's period has blocks too)")
	for i, e := range list {
		require.Equal(t, "electra", e.Version)
		ah, _ := e.Data.AttestedHeader.block(t)
		require.Equal(t, uint64(i), uint64(ah.Slot)/lcSlotsPerPeriod, "update %d is of period %d", i, i)
		require.Equal(t, uint64(i), u64(t, e.Data.SignatureSlot)/lcSlotsPerPeriod)
		require.Empty(t, checkUpdate(t, &e.Data), "update %d", i)
		n, _ := e.Data.sigOK(t)
		require.Equal(t, lcSize-1, n)
	}
	// The finalized header of the last update is the finalized checkpoint's block.
	fh, _ := list[3].Data.FinalizedHeader.block(t)
	require.Equal(t, beacon.Slot(3*lcSlotsPerPeriod), fh.Slot)

	code, _, body = lcGet(t, srv, "updates?start_period=9&count=2", "application/json", nil)
	require.Equal(t, 404, code, "%s", body)
	code, _, _ = lcGet(t, srv, "updates?start_period=x&count=2", "application/json", nil)
	require.Equal(t, 400, code)
	code, _, _ = lcGet(t, srv, "updates?count=2", "application/json", nil)
	require.Equal(t, 400, code)
}

func TestLightClientFinalityAndOptimistic(t *testing.T) {
	srv := start(t, beacontest.WithStates(smallState(beacon.Electra, 100, 1, 2, 1)))
	code, _, _ := lcGet(t, srv, "optimistic_update", "application/json", nil)
	require.Equal(t, 404, code, "the genesis block alone: nothing signed it")
	require.NoError(t, srv.Advance(30))
	code, _, _ = lcGet(t, srv, "finality_update", "application/json", nil)
	require.Equal(t, 404, code, "nothing finalized")
	require.NoError(t, srv.Finalize(2))
	require.NoError(t, srv.Advance(2))

	var f envelope[tUpdate]
	code, _, body := lcGet(t, srv, "finality_update", "application/json", &f)
	require.Equal(t, 200, code, "%s", body)
	require.Empty(t, f.Data.NextSyncCommittee.PublicKeys)
	ah, _ := f.Data.AttestedHeader.block(t)
	require.Equal(t, beacon.Slot(31), ah.Slot)
	require.Equal(t, "32", f.Data.SignatureSlot)
	_, fr := f.Data.FinalizedHeader.block(t)
	require.True(t, beacon.Proof{Leaf: fr, Branch: roots(t, f.Data.FinalityBranch), GIndex: lcGIndexFinalized}.Verify(ah.StateRoot))
	n, ok := f.Data.sigOK(t)
	require.True(t, ok)
	require.Equal(t, lcSize-1, n)

	var o envelope[tUpdate]
	code, _, body = lcGet(t, srv, "optimistic_update", "application/json", &o)
	require.Equal(t, 200, code, "%s", body)
	_, ok = o.Data.sigOK(t)
	require.True(t, ok)
	require.True(t, o.Data.AttestedHeader.execOK(t))
}

// TestLightClientLies: each lie breaks the check it is for, and only that
// one.
func TestLightClientLies(t *testing.T) {
	srv := lcServer(t, 1)
	for _, c := range []struct {
		lie  beacontest.Lie
		want []string
	}{
		{beacontest.Lie{}, nil},
		{beacontest.Lie{Signature: true}, []string{"signature"}},
		{beacontest.Lie{ForkVersion: true}, []string{"signature"}},
		{beacontest.Lie{Participants: true}, []string{"signature"}},
		{beacontest.Lie{FinalityBranch: true}, []string{"finality branch"}},
		{beacontest.Lie{CommitteeBranch: true}, []string{"next committee branch"}},
		{beacontest.Lie{ExecutionBranch: true}, []string{"finalized execution branch", "attested execution branch"}},
		{beacontest.Lie{Bootstrap: true}, nil},
	} {
		srv.Lie(c.lie)
		var list []envelope[tUpdate]
		code, _, body := lcGet(t, srv, "updates?start_period=1&count=1", "application/json", &list)
		require.Equal(t, 200, code, "%s", body)
		require.Len(t, list, 1)
		require.Equal(t, c.want, checkUpdate(t, &list[0].Data), "lie %d", c.lie)
	}
	srv.Lie(beacontest.Lie{Participants: true})
	var list []envelope[tUpdate]
	lcGet(t, srv, "updates?start_period=1&count=1", "application/json", &list)
	n, _ := list[0].Data.sigOK(t)
	require.Zero(t, n)
	require.Equal(t, "0xc0"+strings.Repeat("0", 190), list[0].Data.SyncAggregate.Signature)

	srv.Lie(beacontest.Lie{ShortSignature: true})
	lcGet(t, srv, "updates?start_period=1&count=1", "application/json", &list)
	require.Len(t, list[0].Data.SyncAggregate.Signature, 2+2*95)

	// A bootstrap of another block; with the truth it is of the asked one.
	code, _, body := raw(t, http.MethodGet, srv.URL+"/beacon/"+testKey+"/eth/v1/beacon/headers/head")
	require.Equal(t, 200, code)
	var head struct {
		Data struct {
			Root string `json:"root"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &head))
	for _, lie := range []beacontest.Lie{{Bootstrap: true}, {CommitteeBranch: true}} {
		srv.Lie(lie)
		var b envelope[tBootstrap]
		code, _, body = lcGet(t, srv, "bootstrap/"+head.Data.Root, "application/json", &b)
		require.Equal(t, 200, code, "%s", body)
		bh, br := b.Data.Header.block(t)
		leaf := b.Data.CurrentSyncCommittee.check(t, uint64(bh.Slot)/lcSlotsPerPeriod)
		branchOK := beacon.Proof{Leaf: leaf, Branch: roots(t, b.Data.CurrentSyncCommitteeBranch), GIndex: lcGIndexCurrent}.Verify(bh.StateRoot)
		if lie.Bootstrap {
			require.NotEqual(t, root(t, head.Data.Root), br)
			require.True(t, branchOK, "a true bootstrap of another block")
		} else {
			require.Equal(t, root(t, head.Data.Root), br)
			require.False(t, branchOK)
		}
	}
}

// TestLightClientCatchUp: a client a year behind (on the minimal preset,
// scaled: 40 periods here, the benchmark does 320) needs one request per
// 128 periods.
func TestLightClientCatchUp(t *testing.T) {
	srv := lcServer(t, 40)
	var list []envelope[tUpdate]
	code, _, body := lcGet(t, srv, "updates?start_period=0&count=200", "application/json", &list)
	require.Equal(t, 200, code, "%s", body)
	require.Len(t, list, 41)
	for i := range list {
		_, ok := list[i].Data.sigOK(t)
		require.True(t, ok, "period %d", i)
	}
}

func BenchmarkLightClientCatchUp320(b *testing.B) {
	srv := lcServer(b, 320)
	b.ResetTimer()
	for range b.N {
		for start := 0; start < 321; start += 128 {
			code, _, body := lcGet(b, srv, fmt.Sprintf("updates?start_period=%d&count=128", start), "application/octet-stream", nil)
			if code != 200 || len(body) == 0 {
				b.Fatal(code)
			}
		}
	}
}

// TestLightClientMainnetCommittee: the default chain (mainnet preset) is
// signed by 512 members, 511 of them taking part, and its period is 256
// epochs.
func TestLightClientMainnetCommittee(t *testing.T) {
	srv := start(t)
	require.NoError(t, srv.Advance(3))
	var o envelope[tUpdate]
	code, _, body := lcGet(t, srv, "optimistic_update", "application/json", &o)
	require.Equal(t, 200, code, "%s", body)
	bits := unhex(t, o.Data.SyncAggregate.Bits)
	require.Len(t, bits, 64)
	keys := make([]bls.PublicKey, 0, 512)
	for j := range 512 {
		if bits[j/8]>>(j%8)&1 == 1 {
			sk, err := bls.InteropSecretKey(uint64(j)) // period 0: members 0 to 511
			require.NoError(t, err)
			keys = append(keys, sk.PublicKey())
		}
	}
	require.Len(t, keys, 511)
	_, ar := o.Data.AttestedHeader.block(t)
	sig, err := bls.ParseSignature(unhex(t, o.Data.SyncAggregate.Signature))
	require.NoError(t, err)
	require.True(t, bls.FastAggregateVerify(keys, signingRoot(ar, lcForkVersion), &sig))

	var b envelope[tBootstrap]
	code, _, body = lcGet(t, srv, "bootstrap/"+ar.String(), "application/json", &b)
	require.Equal(t, 200, code, "%s", body)
	require.Len(t, b.Data.CurrentSyncCommittee.PublicKeys, 512)
	bh, _ := b.Data.Header.block(t)
	sc := beacon.SyncCommittee{AggregatePublicKey: beacon.BLSPubKey(unhex(t, b.Data.CurrentSyncCommittee.Aggregate))}
	for _, k := range b.Data.CurrentSyncCommittee.PublicKeys {
		sc.PublicKeys = append(sc.PublicKeys, beacon.BLSPubKey(unhex(t, k)))
	}
	leaf, err := beacon.HashTreeRoot(sc)
	require.NoError(t, err)
	require.True(t, beacon.Proof{Leaf: leaf, Branch: roots(t, b.Data.CurrentSyncCommitteeBranch), GIndex: lcGIndexCurrent}.Verify(bh.StateRoot))
}

// TestLightClientAfterReorg: after a reorganisation the updates are of the
// new branch, signed and proven as before; a replaced block still has its
// bootstrap (the server knows it), proven against its own state.
func TestLightClientAfterReorg(t *testing.T) {
	srv := start(t, beacontest.WithStates(smallState(beacon.Electra, 100, 1, 2, 1)))
	require.NoError(t, srv.Advance(20))
	var before envelope[tUpdate]
	code, _, _ := lcGet(t, srv, "optimistic_update", "application/json", &before)
	require.Equal(t, 200, code)
	require.NoError(t, srv.Reorg(2))
	var after envelope[tUpdate]
	code, _, _ = lcGet(t, srv, "optimistic_update", "application/json", &after)
	require.Equal(t, 200, code)
	oldH, oldRoot := before.Data.AttestedHeader.block(t)
	newH, _ := after.Data.AttestedHeader.block(t)
	require.Equal(t, oldH.Slot, newH.Slot)
	require.NotEqual(t, oldH.StateRoot, newH.StateRoot, "the new branch's block has another state")
	_, ok := after.Data.sigOK(t)
	require.True(t, ok)
	require.True(t, after.Data.AttestedHeader.execOK(t))

	var list []envelope[tUpdate]
	code, _, _ = lcGet(t, srv, "updates?start_period=0&count=1", "application/json", &list)
	require.Equal(t, 200, code)
	require.Empty(t, checkUpdate(t, &list[0].Data))
	require.Equal(t, after.Data.AttestedHeader.Beacon, list[0].Data.AttestedHeader.Beacon)

	var b envelope[tBootstrap]
	code, _, _ = lcGet(t, srv, "bootstrap/"+oldRoot.String(), "application/json", &b)
	require.Equal(t, 200, code)
	bh, br := b.Data.Header.block(t)
	require.Equal(t, oldRoot, br)
	leaf := b.Data.CurrentSyncCommittee.check(t, 0)
	require.True(t, beacon.Proof{Leaf: leaf, Branch: roots(t, b.Data.CurrentSyncCommitteeBranch), GIndex: lcGIndexCurrent}.Verify(bh.StateRoot))
}

// TestWithExecution: the blocks carry the execution payload headers the
// option gives (a nil one made up), proven by their execution branches, so
// that a light client following the server verifies those execution blocks.
func TestWithExecution(t *testing.T) {
	given := func(slot beacon.Slot) *beacon.ExecutionPayloadHeader {
		if slot%2 == 1 {
			return nil
		}
		return &beacon.ExecutionPayloadHeader{BlockHash: common.Hash{0xee, byte(slot)}, BlockNumber: 1000 + uint64(slot), StateRoot: beacon.Root{0x5e, byte(slot)}}
	}
	srv := start(t, beacontest.WithStates(smallState(beacon.Electra, 100, 1, 2, 1)), beacontest.WithExecution(given))
	for i := range 2 {
		require.NoError(t, srv.Advance(1))
		var o envelope[tUpdate]
		code, _, body := lcGet(t, srv, "optimistic_update", "application/json", &o)
		require.Equal(t, 200, code, "%s", body)
		require.True(t, o.Data.AttestedHeader.execOK(t), "the execution branch proves the given header")
		var e beacon.ExecutionPayloadHeader
		require.NoError(t, json.Unmarshal(o.Data.AttestedHeader.Execution, &e))
		slot, _ := o.Data.AttestedHeader.block(t)
		require.Equal(t, beacon.Slot(i), slot.Slot)
		if want := given(slot.Slot); want != nil {
			require.Equal(t, want.BlockHash, e.BlockHash)
			require.Equal(t, want.BlockNumber, e.BlockNumber)
			require.Equal(t, want.StateRoot, e.StateRoot)
		} else {
			require.Equal(t, uint64(slot.Slot), e.BlockNumber, "made up: the slot's number")
			require.NotEqual(t, common.Hash{}, e.BlockHash)
		}
	}
	_, err := beacontest.New(beacontest.WithExecution(nil))
	require.ErrorContains(t, err, "WithExecution: nil function")
}

// TestChainStatesByRoot: the state a chain block's state_root names is
// served (both encodings), hashes to that root (beacon.Client.State checks a
// state asked for by its root) and holds the light-client data the
// branches prove: a validator's balance proven from it is proven against
// the header's state root.
func TestChainStatesByRoot(t *testing.T) {
	srv := start(t, beacontest.WithStates(smallState(beacon.Electra, 100, 1, 2, 1)))
	require.NoError(t, srv.Advance(3))
	code, _, body := raw(t, http.MethodGet, srv.URL+"/beacon/"+testKey+"/eth/v1/beacon/headers/head")
	require.Equal(t, 200, code, "%s", body)
	var head struct {
		Data struct {
			Header struct {
				Message struct {
					Slot      string `json:"slot"`
					StateRoot string `json:"state_root"`
				} `json:"message"`
			} `json:"header"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &head))
	sr := root(t, head.Data.Header.Message.StateRoot)
	for _, enc := range []beacon.Encoding{beacon.EncodingSSZ, beacon.EncodingJSON} {
		c, err := srv.Client(beacon.WithEncoding(enc))
		require.NoError(t, err)
		st, _, err := c.State(context.Background(), beacon.RootID(sr), beacon.StateOptions{})
		require.NoError(t, err, "the state hashes to the header's state root")
		require.Equal(t, beacon.Slot(u64(t, head.Data.Header.Message.Slot)), st.Slot)
		pr, err := beacon.NewProver(st)
		require.NoError(t, err)
		proof, bal, err := pr.ProveBalance(5)
		require.NoError(t, err)
		require.Equal(t, st.Balances[5], bal)
		require.True(t, proof.Verify(sr))
	}
	code, _, _ = raw(t, http.MethodGet, srv.URL+"/beacon/"+testKey+"/eth/v2/debug/beacon/states/0x"+strings.Repeat("ab", 32))
	require.Equal(t, 404, code, "a root no block has")
}
