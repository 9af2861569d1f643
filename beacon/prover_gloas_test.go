package beacon_test

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The generalized indices of a Gloas state, derived by hand from the specs
// (ssz/merkle-proofs.md with EIP-7916 and EIP-7495), not by the package:
//
//   - merkleize_progressive puts chunks 0 | 1-4 | 5-20 | 21-84 | 85-340 …
//     in subtrees k = 0, 1, 2, 3, 4 … of 4^k leaves (depth 2k) and chains
//     them: root = hash(sub0, hash(sub1, hash(sub2, …))). Below that root,
//     subtree k is k right steps (bits 1) and a left step (0), then 2k
//     bits of the position j in the subtree.
//   - A progressive container (the state, the bid) and a progressive list
//     put that root in the left child of their node (bit 0); the right one
//     is the active_fields bitvector or the length.
//   - The Gloas BeaconState has 46 fields: genesis_time 0 (k=0), slot 2
//     and latest_block_header 4 (k=1, j=1 and 3), validators 11 and
//     balances 12 (k=2, j=6 and 7), builders 38, the bid 43 and ptc_window
//     45 (k=3, j=17, 22, 24). So, bits after the leading 1:
//     genesis_time 0|0 = 4; slot 0|10|01 = 41; latest_block_header
//     0|10|11 = 43; validators 0|110|0110 = 358; balances 0|110|0111 = 359;
//     builders 0|1110|010001 = 2961; bid 0|1110|010110 = 2966; ptc_window
//     0|1110|011000 = 2968.
//   - Validator i is 358, 0 (contents), then i's progressive path:
//     validator 0 = 716|0 = 1432; 3 (k=1, j=2) = 716|10|10 = 11466; 7 (k=2,
//     j=2) = 716|110|0010 = 91746; 20 (k=2, j=15) = 716|110|1111 = 91759;
//     21 (k=3, j=0) = 716|1110|000000 = 734080; 85 (k=4, j=0) =
//     716|11110|00000000 = 5873152. A Validator is a binary container of 8
//     fields: exit_epoch (6) of validator 3 = 11466*8 + 6 = 91734. The
//     list's length is the right child: 358*2 + 1 = 717.
//   - Balances pack 4 to a chunk: validator 5's is chunk 1 (k=1, j=0) =
//     718|10|00 = 11496; validator 20's chunk 5 (k=2, j=0) = 718|110|0000 =
//     92000; validator 85's chunk 21 (k=3, j=0) = 718|1110|000000 = 736128.
//   - Builder 2 (k=1, j=1) = 2961*2|10|01 = 94761; its balance (field 3 of
//     a binary container of 6 fields, 8 leaves) = 94761*8 + 3 = 758091;
//     builder 16 (k=2, j=11) = 5922|110|1011 = 758123.
//   - The bid's slot (field 7 of its 12, k=2, j=2) = 2966*2|110|0010 =
//     759394.
var gloasGIndices = []struct {
	path []any
	g    beacon.GIndex
}{
	{[]any{"genesis_time"}, 4},
	{[]any{"slot"}, 41},
	{[]any{"latest_block_header"}, 43},
	{[]any{"validators"}, 358},
	{[]any{"balances"}, 359},
	{[]any{"builders"}, 2961},
	{[]any{"latest_execution_payload_bid"}, 2966},
	{[]any{"ptc_window"}, 2968},
	{[]any{"validators", "__len__"}, 717},
	{[]any{"validators", 0}, 1432},
	{[]any{"validators", 3}, 11466},
	{[]any{"validators", 3, "exit_epoch"}, 91734},
	{[]any{"validators", 7}, 91746},
	{[]any{"validators", 20}, 91759},
	{[]any{"balances", 5}, 11496},
	{[]any{"balances", 20}, 92000},
	{[]any{"latest_execution_payload_bid", "slot"}, 759394},
	{[]any{"builders", 2}, 94761},
	{[]any{"builders", 2, "balance"}, 758091},
	{[]any{"validators", 21}, 734080},
	{[]any{"validators", 85}, 5873152},
	{[]any{"balances", 85}, 736128},
	{[]any{"builders", 16}, 758123},
}

// lodestarProofs is a testdata/gloas/*.proofs.json file: Lodestar's root
// of the vector's state and its proofs of the gindices above
// (bench/tools/gloasgen/proofs.mjs; testdata/SOURCES.md).
type lodestarProofs struct {
	Root   beacon.Root
	Proofs []struct {
		GIndex string
		Leaf   beacon.Root
		Branch []beacon.Root
	}
}

// TestGloasProofsLodestar: for the Lodestar vectors, GIndexOf gives the
// hand-derived gindices, the named helpers the same ones, and each proof
// has exactly Lodestar's leaf and branch (from its own tree, at the gindex
// computed here) and verifies with is_valid_merkle_branch against
// Lodestar's state root.
func TestGloasProofsLodestar(t *testing.T) {
	for _, v := range gloasVectors {
		if v.name == "minimal-3" {
			continue // no validators, no builders
		}
		t.Run(v.name, func(t *testing.T) {
			st, err := unmarshalSSZ(readVector(t, v, ".ssz"), beacon.Gloas, v.preset)
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join("testdata", "gloas", v.name+".proofs.json"))
			require.NoError(t, err)
			var lp lodestarProofs
			require.NoError(t, json.Unmarshal(b, &lp))
			require.Equal(t, vectorRoot(t, v.name), lp.Root)
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			require.Equal(t, lp.Root, p.StateRoot())
			want := map[beacon.GIndex]int{}
			for i, pr := range lp.Proofs {
				g, err := strconv.ParseUint(pr.GIndex, 10, 64)
				require.NoError(t, err)
				want[beacon.GIndex(g)] = i
			}
			checked := 0
			for _, c := range gloasGIndices {
				i, ok := want[c.g]
				if !ok {
					continue // past this vector's lists
				}
				checked++
				g, err := p.GIndexOf(c.path...)
				require.NoError(t, err, "%v", c.path)
				require.Equal(t, c.g, g, "%v", c.path)
				pr, err := p.Prove(g)
				require.NoError(t, err)
				l := lp.Proofs[i]
				require.Equal(t, l.Leaf, pr.Leaf, "%v: leaf", c.path)
				require.Equal(t, l.Branch, pr.Branch, "%v: branch", c.path)
				checkProof(t, pr, lp.Root, fmt.Sprint(c.path))
			}
			require.Equal(t, len(lp.Proofs), checked)

			for _, name := range []string{"genesis_time", "slot", "latest_block_header", "validators", "balances", "builders", "latest_execution_payload_bid", "ptc_window"} {
				g, err := fieldGIndex(p, name)
				require.NoError(t, err)
				gp, _ := p.GIndexOf(name)
				assert.Equal(t, gp, g, name)
			}
			for _, i := range []beacon.ValidatorIndex{0, 3, 7, 20, 21, 85} {
				if int(i) >= len(st.Validators) {
					continue
				}
				g, err := validatorGIndex(p, i)
				require.NoError(t, err)
				gp, _ := p.GIndexOf("validators", i)
				assert.Equal(t, gp, g, "validator %d", i)
				bg, err := balanceGIndex(p, i)
				require.NoError(t, err)
				gp, _ = p.GIndexOf("balances", i)
				assert.Equal(t, gp, bg, "balance %d", i)
			}
		})
	}
}

// Every proof the prover makes of a Lodestar Gloas state verifies against
// Lodestar's root: every top-level field, every validator and its fields,
// every balance, every builder and builder field, the bid's fields and the
// PTC window's chunks; the leaves are the components' roots.
func TestGloasProofsVerify(t *testing.T) {
	for _, v := range gloasVectors {
		t.Run(v.name, func(t *testing.T) {
			st, err := unmarshalSSZ(readVector(t, v, ".ssz"), beacon.Gloas, v.preset)
			require.NoError(t, err)
			root := vectorRoot(t, v.name)
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			m := gloasMembers(t, readVector(t, v, ".json"))
			require.Len(t, m, 46)
			for name := range m {
				pr, err := proveField(p, name)
				require.NoError(t, err, name)
				checkProof(t, pr, root, name)
			}
			pr, err := proveField(p, "latest_execution_payload_bid")
			require.NoError(t, err)
			require.Equal(t, mustRoot(beacon.HashTreeRoot(st.LatestExecutionPayloadBid)), pr.Leaf)
			for i := range st.Validators {
				vi := beacon.ValidatorIndex(i)
				pr, err := proveValidator(p, vi)
				require.NoError(t, err)
				require.Equal(t, mustRoot(beacon.HashTreeRoot(st.Validators[i])), pr.Leaf)
				checkProof(t, pr, root, fmt.Sprintf("validator %d", i))
				fp, err := proveValidatorField(p, vi, "withdrawal_credentials")
				require.NoError(t, err)
				require.Equal(t, st.Validators[i].WithdrawalCredentials, fp.Leaf)
				checkProof(t, fp, root, fmt.Sprintf("validator %d credentials", i))
				bp, err := proveBalance(p, vi)
				require.NoError(t, err)
				require.Equal(t, st.Balances[i], balanceIn(bp, vi))
				checkProof(t, bp, root, fmt.Sprintf("balance %d", i))
			}
			for i := range st.Builders {
				g, err := p.GIndexOf("builders", i)
				require.NoError(t, err)
				pr, err := p.Prove(g)
				require.NoError(t, err)
				require.Equal(t, mustRoot(beacon.HashTreeRoot(st.Builders[i])), pr.Leaf)
				checkProof(t, pr, root, fmt.Sprintf("builder %d", i))
				g, err = p.GIndexOf("builders", i, "withdrawable_epoch")
				require.NoError(t, err)
				pr, err = p.Prove(g)
				require.NoError(t, err)
				require.Equal(t, beacon.Root(u64c(uint64(st.Builders[i].WithdrawableEpoch))), pr.Leaf)
				checkProof(t, pr, root, fmt.Sprintf("builder %d withdrawable_epoch", i))
			}
			for i := range st.BuilderPendingPayments {
				g, err := p.GIndexOf("builder_pending_payments", i, "withdrawal", "amount")
				require.NoError(t, err)
				pr, err := p.Prove(g)
				require.NoError(t, err)
				require.Equal(t, beacon.Root(u64c(uint64(st.BuilderPendingPayments[i].Withdrawal.Amount))), pr.Leaf)
				checkProof(t, pr, root, fmt.Sprintf("payment %d", i))
			}
			for i := range st.PayloadExpectedWithdrawals {
				g, err := p.GIndexOf("payload_expected_withdrawals", i)
				require.NoError(t, err)
				pr, err := p.Prove(g)
				require.NoError(t, err)
				require.Equal(t, mustRoot(beacon.HashTreeRoot(st.PayloadExpectedWithdrawals[i])), pr.Leaf)
				checkProof(t, pr, root, fmt.Sprintf("expected withdrawal %d", i))
			}
			bid := &st.LatestExecutionPayloadBid
			for i := range bid.BlobKZGCommitments {
				g, err := p.GIndexOf("latest_execution_payload_bid", "blob_kzg_commitments", i)
				require.NoError(t, err)
				pr, err := p.Prove(g)
				require.NoError(t, err)
				checkProof(t, pr, root, fmt.Sprintf("commitment %d", i))
			}
			for _, f := range []string{"gas_limit", "builder_index", "value", "execution_requests_root"} {
				g, err := p.GIndexOf("latest_execution_payload_bid", f)
				require.NoError(t, err)
				pr, err := p.Prove(g)
				require.NoError(t, err)
				checkProof(t, pr, root, "bid "+f)
			}
			g, err := p.GIndexOf("latest_execution_payload_bid", "blob_kzg_commitments", "__len__")
			require.NoError(t, err)
			pr, err = p.Prove(g)
			require.NoError(t, err)
			require.Equal(t, beacon.Root(u64c(uint64(len(bid.BlobKZGCommitments)))), pr.Leaf)
			checkProof(t, pr, root, "commitments length")
			g, err = p.GIndexOf("ptc_window", 1, 0)
			require.NoError(t, err)
			pr, err = p.Prove(g)
			require.NoError(t, err)
			require.Equal(t, beacon.Root(u64c(uint64(st.PTCWindow[1][0]))), beacon.Root(append(pr.Leaf[:8:8], make([]byte, 24)...)))
			checkProof(t, pr, root, "ptc_window[1][0]")
			// A chunk of the execution_payload_availability Bitvector: the
			// field's node is a binary tree of its chunks, SLOTS_PER_HISTORICAL_ROOT
			// / 256 of them (1 minimal, 32 mainnet, depth 5).
			fg, err := fieldGIndex(p, "execution_payload_availability")
			require.NoError(t, err)
			depth := bits.Len64((v.preset.SlotsPerHistoricalRoot+255)/256 - 1)
			bv := st.ExecutionPayloadAvailability
			last := (len(bv)+31)/32 - 1
			var chunk beacon.Root
			copy(chunk[:], bv[32*last:])
			pr, err = p.Prove(fg<<depth | beacon.GIndex(last))
			require.NoError(t, err)
			require.Equal(t, chunk, pr.Leaf)
			checkProof(t, pr, root, "execution_payload_availability chunk")
			// The block root through the header's state_root.
			if st.LatestBlockHeader.StateRoot == (beacon.Root{}) {
				br, err := p.BlockRoot()
				require.NoError(t, err)
				vp, err := proveValidator(p, 0)
				if err == nil {
					bp, err := p.ToBlockRoot(vp)
					require.NoError(t, err)
					require.True(t, bp.Verify(br))
				}
			}
		})
	}
}

// An index too far into a progressive list for a 64-bit gindex is an
// error, returned at once (the search for its subtree stops), for any
// index up to 2^64-1; the last index that fits is found.
func TestGloasGIndexTooDeep(t *testing.T) {
	v := gloasVectors[0]
	st, err := unmarshalSSZ(readVector(t, v, ".ssz"), beacon.Gloas, v.preset)
	require.NoError(t, err)
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	for _, i := range []uint64{1 << 40, 1 << 62, 1<<64 - 1} {
		_, err := validatorGIndex(p, beacon.ValidatorIndex(i))
		assert.ErrorContains(t, err, "is past the limit 1099511627776", "validator %d", i)
		_, err = balanceGIndex(p, beacon.ValidatorIndex(i))
		assert.ErrorContains(t, err, "is past the limit 1099511627776", "balance %d", i)
	}
	// validators is 358 (depth 8) and its contents one level down (9): a
	// leaf of subtree k is 3k + 1 levels further, so k = 17 (depth 61,
	// leaves from (4^17 - 1)/3) fits and k = 18 (depth 64, from
	// (4^18 - 1)/3) does not.
	k17, k18 := uint64(1<<34-1)/3, uint64(1<<36-1)/3
	g, err := validatorGIndex(p, beacon.ValidatorIndex(k18-1))
	require.NoError(t, err)
	assert.Equal(t, 61, gDepth(g))
	g, err = validatorGIndex(p, beacon.ValidatorIndex(k17))
	require.NoError(t, err)
	assert.Equal(t, 61, gDepth(g))
	_, err = validatorGIndex(p, beacon.ValidatorIndex(k18))
	assert.ErrorContains(t, err, "too deep")
}
