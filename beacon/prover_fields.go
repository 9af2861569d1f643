package beacon

import (
	"slices"
)

// fieldNode returns the prover's node for one field of s: the same roots
// as fieldRoot, as a tree a proof can descend.
func (s *State) fieldNode(f *field) tnode {
	switch p := f.ptr.(type) {
	case *Fork:
		return forkNode(p)
	case *BeaconBlockHeader:
		h := p
		return container(u64Leaf(uint64(h.Slot)), u64Leaf(uint64(h.ProposerIndex)), leafNode(h.ParentRoot), leafNode(h.StateRoot), leafNode(h.BodyRoot))
	case *Eth1Data:
		return eth1DataNode(p)
	case *Checkpoint:
		return checkpointNode(p)
	case *SyncCommittee:
		keys := make([]tnode, len(p.PublicKeys))
		for i := range p.PublicKeys {
			keys[i] = pubKeyNode(&p.PublicKeys[i])
		}
		return container(dense(keys, depthFor(f.n)), pubKeyNode(&p.AggregatePublicKey))
	case *ExecutionPayloadHeader:
		return payloadHeaderNode(p, s.Version, f.n)
	case *[]Root:
		return collectionNode(f, len(*p), 32, fillRoots(*p), nil)
	case *[]Gwei:
		return collectionNode(f, len(*p), 8, fillUint64s(*p), nil)
	case *[]ValidatorIndex:
		return collectionNode(f, len(*p), 8, fillUint64s(*p), nil)
	case *[]uint64:
		return collectionNode(f, len(*p), 8, fillUint64s(*p), nil)
	case *[]uint8:
		return collectionNode(f, len(*p), 1, fillUint8s(*p), nil)
	case *[]Validator:
		v := *p
		return collectionNode(f, len(v), 0, fillValidators(v), func(i int) tnode { return validatorNode(&v[i]) })
	case *[]Eth1Data:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, eth1DataRoot), func(i int) tnode { return eth1DataNode(&v[i]) })
	case *[]HistoricalSummary:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, historicalSummaryRoot), func(i int) tnode { return historicalSummaryNode(&v[i]) })
	case *[]PendingDeposit:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, pendingDepositRoot), func(i int) tnode { return pendingDepositNode(&v[i]) })
	case *[]PendingPartialWithdrawal:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, pendingPartialWithdrawalRoot), func(i int) tnode { return pendingPartialWithdrawalNode(&v[i]) })
	case *[]PendingConsolidation:
		v := *p
		return collectionNode(f, len(v), 0, fillElems(v, pendingConsolidationRoot), func(i int) tnode { return pendingConsolidationNode(&v[i]) })
	case *[]PendingAttestation:
		// A copy: a proof rebuilds an attestation's tree from its bitlist,
		// which must stay the one prepared (its length may change in place).
		v, limit := slices.Clone(*p), f.bits
		return collectionNode(f, len(v), 0, fillElems(v, func(a *PendingAttestation) Root {
			return pendingAttestationRoot(a, limit)
		}), func(i int) tnode { return pendingAttestationNode(&v[i], limit) })
	}
	// uint64 fields, roots, justification bits: a chunk; gloas's types.
	return s.gloasFieldNode(f)
}

// collectionNode is collectionRoot as a node (a progressive list's too).
func collectionNode(f *field, n int, packed int, fill leafFiller, elem func(int) tnode) tnode {
	leaves, limit := uint64(n), f.n
	if packed > 0 {
		leaves = (uint64(n)*uint64(packed) + 31) / 32
		limit = (f.n*uint64(packed) + 31) / 32
	}
	if f.progressive {
		return progressiveListNode(n, int(leaves), fill, elem)
	}
	t := newChunkTree(int(leaves), depthFor(limit), fill, elem).rootNode()
	if f.vector {
		return t
	}
	return mixin(t, uint64(n))
}

func u64Leaf(v uint64) tnode { return leafNode(u64Chunk(v)) }

func forkNode(f *Fork) tnode {
	var a, b Root
	copy(a[:], f.PreviousVersion[:])
	copy(b[:], f.CurrentVersion[:])
	return container(leafNode(a), leafNode(b), u64Leaf(uint64(f.Epoch)))
}

func checkpointNode(c *Checkpoint) tnode {
	return container(u64Leaf(uint64(c.Epoch)), leafNode(c.Root))
}

func eth1DataNode(e *Eth1Data) tnode {
	return container(leafNode(e.DepositRoot), u64Leaf(e.DepositCount), leafNode(e.BlockHash))
}

func historicalSummaryNode(h *HistoricalSummary) tnode {
	return container(leafNode(h.BlockSummaryRoot), leafNode(h.StateSummaryRoot))
}

func pendingDepositNode(d *PendingDeposit) tnode {
	return container(pubKeyNode(&d.PublicKey), leafNode(d.WithdrawalCredentials), u64Leaf(uint64(d.Amount)), signatureNode(&d.Signature), u64Leaf(uint64(d.Slot)))
}

func pendingPartialWithdrawalNode(w *PendingPartialWithdrawal) tnode {
	return container(u64Leaf(uint64(w.ValidatorIndex)), u64Leaf(uint64(w.Amount)), u64Leaf(uint64(w.WithdrawableEpoch)))
}

func pendingConsolidationNode(c *PendingConsolidation) tnode {
	return container(u64Leaf(uint64(c.SourceIndex)), u64Leaf(uint64(c.TargetIndex)))
}

// pubKeyNode is a public key's root, whose two chunks a proof can reach.
func pubKeyNode(k *BLSPubKey) tnode {
	key := *k
	return subNode{r: pubKeyRoot(&key), tree: func() tnode {
		var a, b Root
		copy(a[:], key[:32])
		copy(b[:], key[32:])
		return container(leafNode(a), leafNode(b))
	}}
}

func signatureNode(sig *BLSSignature) tnode {
	var c [3]tnode
	for i := range c {
		var r Root
		copy(r[:], sig[32*i:])
		c[i] = leafNode(r)
	}
	return container(c[:]...)
}

func validatorNode(v *Validator) tnode {
	var l [8]Root
	validatorLeaves(v, &l)
	nodes := make([]tnode, 8)
	for i := range l {
		nodes[i] = leafNode(l[i])
	}
	nodes[0] = pubKeyNode(&v.PublicKey)
	return container(nodes...)
}

func bytesNode(data []byte, limitChunks uint64) tnode {
	n := (len(data) + 31) / 32
	t := newChunkTree(n, depthFor(limitChunks), fillBytes(data), nil).rootNode()
	return mixin(t, uint64(len(data)))
}

func pendingAttestationNode(a *PendingAttestation, bitsLimit uint64) tnode {
	n := a.AggregationBits.bitLen()
	data := make([]byte, (n+7)/8)
	copy(data, a.AggregationBits)
	if n%8 != 0 {
		data[len(data)-1] &^= 1 << (n % 8)
	}
	bits := newChunkTree((len(data)+31)/32, depthFor((bitsLimit+255)/256), fillBytes(data), nil).rootNode()
	d := &a.Data
	data2 := container(u64Leaf(uint64(d.Slot)), u64Leaf(d.Index), leafNode(d.BeaconBlockRoot), checkpointNode(&d.Source), checkpointNode(&d.Target))
	return container(mixin(bits, uint64(n)), data2, u64Leaf(uint64(a.InclusionDelay)), u64Leaf(uint64(a.ProposerIndex)))
}

func payloadHeaderNode(h *ExecutionPayloadHeader, v Version, maxExtra uint64) tnode {
	var fee, baseFee Root
	copy(fee[:], h.FeeRecipient[:])
	for i, limb := range h.BaseFeePerGas {
		put64(baseFee[8*i:], limb)
	}
	bloom := make([]tnode, 8)
	for i := range bloom {
		var r Root
		copy(r[:], h.LogsBloom[32*i:])
		bloom[i] = leafNode(r)
	}
	c := []tnode{leafNode(Root(h.ParentHash)), leafNode(fee), leafNode(h.StateRoot), leafNode(h.ReceiptsRoot),
		container(bloom...), leafNode(h.PrevRandao), u64Leaf(h.BlockNumber), u64Leaf(h.GasLimit), u64Leaf(h.GasUsed),
		u64Leaf(h.Timestamp), bytesNode(h.ExtraData, (maxExtra+31)/32), leafNode(baseFee), leafNode(Root(h.BlockHash)),
		leafNode(h.TransactionsRoot)}
	if v >= Capella {
		c = append(c, leafNode(h.WithdrawalsRoot))
	}
	if v >= Deneb {
		c = append(c, u64Leaf(h.BlobGasUsed), u64Leaf(h.ExcessBlobGas))
	}
	return container(c...)
}
