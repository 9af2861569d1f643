package beacon

import "slices"

// The prover's nodes and GIndexOf types for the fields gloas adds
// (gloasSpec), beside fieldNode and fieldType for the others.

// gloasFieldNode returns the node of a field of a type that gloas adds.
func (s *State) gloasFieldNode(f *field) tnode {
	switch p := f.ptr.(type) {
	case *bitvector:
		return newChunkTree((len(*p)+31)/32, depthFor((f.n+255)/256), fillBytes(*p), nil).rootNode()
	case *[]Builder:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, builderRoot), func(i int) tnode { return builderNode(&v[i]) })
	case *[]BuilderPendingPayment:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, builderPendingPaymentRoot), func(i int) tnode {
			b := &v[i]
			return container(u64Leaf(uint64(b.Weight)), builderPendingWithdrawalNode(&b.Withdrawal), u64Leaf(uint64(b.ProposerIndex)))
		})
	case *[]BuilderPendingWithdrawal:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, builderPendingWithdrawalRoot), func(i int) tnode {
			return builderPendingWithdrawalNode(&v[i])
		})
	case *[]Withdrawal:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, withdrawalRoot), func(i int) tnode { return withdrawalNode(&v[i]) })
	case *ExecutionPayloadBid:
		return bidNode(p)
	case *[][]ValidatorIndex:
		// A copy of the committees' slices: a proof rebuilds a committee's
		// tree, which must stay the one prepared.
		v, depth := slices.Clone(*p), depthFor((f.bits*8+31)/32)
		return collectionNode(f, len(v), 0, fillElems(v, func(w *[]ValidatorIndex) Root {
			return treeRoot((len(*w)+3)/4, depth, fillUint64s(*w))
		}), func(i int) tnode {
			return newChunkTree((len(v[i])+3)/4, depth, fillUint64s(v[i]), nil).rootNode()
		})
	}
	return leafNode(s.fieldRoot(f))
}

func builderNode(b *Builder) tnode {
	return container(pubKeyNode(&b.PublicKey), leafNode(Root{b.Version}), leafNode(addressChunk((*[20]byte)(&b.ExecutionAddress))),
		u64Leaf(uint64(b.Balance)), u64Leaf(uint64(b.DepositEpoch)), u64Leaf(uint64(b.WithdrawableEpoch)))
}

func withdrawalNode(w *Withdrawal) tnode {
	return container(u64Leaf(w.Index), u64Leaf(uint64(w.ValidatorIndex)), leafNode(addressChunk((*[20]byte)(&w.Address))), u64Leaf(uint64(w.Amount)))
}

func builderPendingWithdrawalNode(w *BuilderPendingWithdrawal) tnode {
	return container(leafNode(addressChunk((*[20]byte)(&w.FeeRecipient))), u64Leaf(uint64(w.Amount)), u64Leaf(uint64(w.BuilderIndex)))
}

func kzgNode(k *KZGCommitment) tnode {
	var a, b Root
	copy(a[:], k[:32])
	copy(b[:], k[32:])
	return container(leafNode(a), leafNode(b))
}

// bidNode is the bid's progressive container, its commitments a
// progressive list.
func bidNode(b *ExecutionPayloadBid) tnode {
	c := b.BlobKZGCommitments
	kzg := progressiveListNode(len(c), len(c), fillElems(c, kzgRoot), func(i int) tnode { return kzgNode(&c[i]) })
	return progressiveContainerNode(leafNode(Root(b.ParentBlockHash)), leafNode(b.ParentBlockRoot), leafNode(Root(b.BlockHash)),
		leafNode(b.PrevRandao), leafNode(addressChunk((*[20]byte)(&b.FeeRecipient))), u64Leaf(b.GasLimit),
		u64Leaf(uint64(b.BuilderIndex)), u64Leaf(uint64(b.Slot)), u64Leaf(uint64(b.Value)), u64Leaf(uint64(b.ExecutionPayment)),
		kzg, leafNode(b.ExecutionRequestsRoot))
}

var (
	builderPendingWithdrawalType = containerType("a builder pending withdrawal", builderPendingWithdrawalNames)
	kzgType                      = &sszType{name: "a KZG commitment", coll: true, n: 48, elemSize: 1}
)

// gloasFieldType returns the type of a field of a type that gloas adds, as
// GIndexOf walks it.
func (s *State) gloasFieldType(f *field) *sszType {
	list := func(name string, elemSize uint64, elem *sszType) *sszType {
		return &sszType{name: name, coll: true, list: !f.vector, progressive: f.progressive, n: f.n, elemSize: elemSize, elem: elem}
	}
	switch f.ptr.(type) {
	case *[]Builder:
		return list("the builders", 0, containerType("a builder", builderNames))
	case *[]BuilderPendingPayment:
		return list("the builder pending payments", 0,
			containerType("a builder pending payment", builderPendingPaymentNames, nil, builderPendingWithdrawalType))
	case *[]BuilderPendingWithdrawal:
		return list("the builder pending withdrawals", 0, builderPendingWithdrawalType)
	case *[]Withdrawal:
		return list("the withdrawals", 0, containerType("a withdrawal", withdrawalNames))
	case *ExecutionPayloadBid:
		kzg := &sszType{name: "the blob KZG commitments", coll: true, list: true, progressive: true, n: f.n, elem: kzgType}
		t := containerType("an execution payload bid", bidNames)
		t.types[10] = kzg
		t.progressive = true
		return t
	case *[][]ValidatorIndex:
		return list("the PTC window", 0, &sszType{name: "a PTC", coll: true, n: f.bits, elemSize: 8})
	}
	return nil // a chunk (a Bitvector is one here: its bits share chunks)
}
