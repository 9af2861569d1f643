package beacon

// The hash tree roots of the gloas fields and types (gloasSpec).

// gloasFieldRoot returns the root of a field of a type that gloas adds.
func (s *State) gloasFieldRoot(f *field) Root {
	switch p := f.ptr.(type) {
	case *bitvector:
		return treeRoot((len(*p)+31)/32, depthFor((f.n+255)/256), fillBytes(*p))
	case *[]Builder:
		return collectionRoot(f, len(*p), 0, fillElems(*p, builderRoot))
	case *[]BuilderPendingPayment:
		return collectionRoot(f, len(*p), 0, fillElems(*p, builderPendingPaymentRoot))
	case *[]BuilderPendingWithdrawal:
		return collectionRoot(f, len(*p), 0, fillElems(*p, builderPendingWithdrawalRoot))
	case *[]Withdrawal:
		return collectionRoot(f, len(*p), 0, fillElems(*p, withdrawalRoot))
	case *ExecutionPayloadBid:
		return bidRoot(p)
	case *[][]ValidatorIndex:
		depth := depthFor((f.bits*8 + 31) / 32)
		return collectionRoot(f, len(*p), 0, fillElems(*p, func(v *[]ValidatorIndex) Root {
			return treeRoot((len(*v)+3)/4, depth, fillUint64s(*v))
		}))
	}
	return Root{} // unreachable: every schema type is handled here or in fieldRoot
}

// addressChunk returns an execution address's chunk: its 20 bytes, then
// zeros.
func addressChunk(a *[20]byte) (c Root) {
	copy(c[:], a[:])
	return c
}

func kzgRoot(k *KZGCommitment) Root {
	var a, b Root
	copy(a[:], k[:32])
	copy(b[:], k[32:])
	return hashPair(&a, &b)
}

func builderRoot(b *Builder) Root {
	c := [6]Root{pubKeyRoot(&b.PublicKey), {b.Version}, addressChunk((*[20]byte)(&b.ExecutionAddress)),
		u64Chunk(uint64(b.Balance)), u64Chunk(uint64(b.DepositEpoch)), u64Chunk(uint64(b.WithdrawableEpoch))}
	return merkleSmall(c[:], 3)
}

func builderPendingWithdrawalRoot(w *BuilderPendingWithdrawal) Root {
	c := [3]Root{addressChunk((*[20]byte)(&w.FeeRecipient)), u64Chunk(uint64(w.Amount)), u64Chunk(uint64(w.BuilderIndex))}
	return merkleSmall(c[:], 2)
}

func builderPendingPaymentRoot(p *BuilderPendingPayment) Root {
	c := [3]Root{u64Chunk(uint64(p.Weight)), builderPendingWithdrawalRoot(&p.Withdrawal), u64Chunk(uint64(p.ProposerIndex))}
	return merkleSmall(c[:], 2)
}

func withdrawalRoot(w *Withdrawal) Root {
	c := [4]Root{u64Chunk(w.Index), u64Chunk(uint64(w.ValidatorIndex)), addressChunk((*[20]byte)(&w.Address)), u64Chunk(uint64(w.Amount))}
	return merkleSmall(c[:], 2)
}

// bidRoot returns the root of the ExecutionPayloadBid progressive
// container (its 12 fields all active); blob_kzg_commitments is a
// progressive list.
func bidRoot(b *ExecutionPayloadBid) Root {
	kzg := progressiveListRoot(len(b.BlobKZGCommitments), len(b.BlobKZGCommitments), fillElems(b.BlobKZGCommitments, kzgRoot))
	c := [12]Root{Root(b.ParentBlockHash), b.ParentBlockRoot, Root(b.BlockHash), b.PrevRandao,
		addressChunk((*[20]byte)(&b.FeeRecipient)), u64Chunk(b.GasLimit), u64Chunk(uint64(b.BuilderIndex)),
		u64Chunk(uint64(b.Slot)), u64Chunk(uint64(b.Value)), u64Chunk(uint64(b.ExecutionPayment)), kzg, b.ExecutionRequestsRoot}
	return progressiveContainerRoot(c[:])
}
