package beacon_test

import (
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/require"
)

// The roots of gloas's containers, each from its own HashTreeRoot, equal
// the test's reference (written from the specs, htr_ref_gloas_test.go) on
// the containers' SSZ bytes, and merkleized into their fields by the
// reference's progressive rules and put in place of those fields' roots in
// the state, recombine to Lodestar's state root.
func TestGloasComponentRootsRecombine(t *testing.T) {
	for _, v := range gloasVectors {
		t.Run(v.name, func(t *testing.T) {
			raw := readVector(t, v, ".ssz")
			st, err := unmarshalSSZ(raw, beacon.Gloas, v.preset)
			require.NoError(t, err)
			typ := refStateType(beacon.Gloas, v.preset)
			fields := typ.members()
			parts := splitFields(typ, raw)
			roots := make([][32]byte, len(fields))
			for i, f := range fields {
				roots[i] = f.root(parts[i])
			}
			m := len(fields)
			// builders, builder_pending_payments,
			// builder_pending_withdrawals, the bid and
			// payload_expected_withdrawals, from the end of the state.
			iBuilders, iPayments, iWithdrawals, iBid, iExpected := m-8, m-5, m-4, m-3, m-2

			elems := func(name string, i int, got [][32]byte) {
				t.Helper()
				var elem sszType
				switch ft := fields[i].(type) {
				case progListT:
					elem = ft.elem
				case vectorT:
					elem = ft.elem
				}
				want := elemRoots(elem, parts[i])
				require.Len(t, got, len(want), name)
				for k := range want {
					require.Equal(t, fmt.Sprintf("%x", want[k]), fmt.Sprintf("%x", got[k]), "%s[%d]", name, k)
				}
			}
			b := rootsOf(st.Builders, beacon.HashTreeRoot[beacon.Builder])
			elems("builders", iBuilders, b)
			p := rootsOf(st.BuilderPendingPayments, beacon.HashTreeRoot[beacon.BuilderPendingPayment])
			elems("builder_pending_payments", iPayments, p)
			w := rootsOf(st.BuilderPendingWithdrawals, beacon.HashTreeRoot[beacon.BuilderPendingWithdrawal])
			elems("builder_pending_withdrawals", iWithdrawals, w)
			x := rootsOf(st.PayloadExpectedWithdrawals, beacon.HashTreeRoot[beacon.Withdrawal])
			elems("payload_expected_withdrawals", iExpected, x)
			bid := mustRoot(beacon.HashTreeRoot(st.LatestExecutionPayloadBid))
			require.Equal(t, beacon.Root(roots[iBid]), bid, "latest_execution_payload_bid")

			roots[iBuilders] = refMixIn(refMerkleizeProgressive(b, 1), len(b))
			roots[iPayments] = refMerkleize(p, int64(len(p)))
			roots[iWithdrawals] = refMixIn(refMerkleizeProgressive(w, 1), len(w))
			roots[iExpected] = refMixIn(refMerkleizeProgressive(x, 1), len(x))
			roots[iBid] = bid
			require.Equal(t, vectorRoot(t, v.name), beacon.Root(refProgressiveContainer(roots)))
		})
	}
}

func rootsOf[T any](list []T, root func(T) (beacon.Root, error)) [][32]byte {
	out := make([][32]byte, len(list))
	for i, e := range list {
		out[i] = mustRoot(root(e))
	}
	return out
}

// A bid's root changes with each field, blob_kzg_commitments' length
// included (the progressive list mixes it in), and is not the root of the
// same fields as a binary container.
func TestBidRootFields(t *testing.T) {
	var b beacon.ExecutionPayloadBid
	seen := map[beacon.Root]string{mustRoot(beacon.HashTreeRoot(b)): "zero"}
	set := []func(*beacon.ExecutionPayloadBid){
		func(b *beacon.ExecutionPayloadBid) { b.ParentBlockHash[0] = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.ParentBlockRoot[0] = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.BlockHash[0] = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.PrevRandao[0] = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.FeeRecipient[0] = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.GasLimit = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.BuilderIndex = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.Slot = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.Value = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.ExecutionPayment = 1 },
		func(b *beacon.ExecutionPayloadBid) { b.BlobKZGCommitments = make([]beacon.KZGCommitment, 1) },
		func(b *beacon.ExecutionPayloadBid) { b.BlobKZGCommitments = make([]beacon.KZGCommitment, 2) },
		func(b *beacon.ExecutionPayloadBid) { b.ExecutionRequestsRoot[0] = 1 },
	}
	for i, f := range set {
		var c beacon.ExecutionPayloadBid
		f(&c)
		r := mustRoot(beacon.HashTreeRoot(c))
		if prev, ok := seen[r]; ok {
			t.Fatalf("change %d gives the root of %s", i, prev)
		}
		seen[r] = fmt.Sprint("change ", i)
	}
}
