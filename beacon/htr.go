package beacon

// hashTreeRoot returns the SSZ hash_tree_root of s (see HashTreeRoot). It
// checks s with validate first.
func (s *State) hashTreeRoot() (Root, error) {
	if err := s.validate(); err != nil {
		return Root{}, err
	}
	fields := s.fields()
	roots := make([]Root, len(fields))
	for i := range fields {
		roots[i] = s.fieldRoot(&fields[i])
	}
	if s.Version >= Gloas {
		return progressiveContainerRoot(roots), nil
	}
	return merkleSmall(roots, depthFor(uint64(len(roots)))), nil
}

// fieldRoot returns the hash tree root of one field of s.
func (s *State) fieldRoot(f *field) Root {
	switch p := f.ptr.(type) {
	case *uint64:
		return u64Chunk(*p)
	case *Root:
		return *p
	case *Fork:
		return forkRoot(p)
	case *BeaconBlockHeader:
		return blockHeaderRoot(p)
	case *Eth1Data:
		return eth1DataRoot(p)
	case *Checkpoint:
		return checkpointRoot(p)
	case *uint8:
		return Root{byte(*p)} // Bitvector[4]: its one packed chunk
	case *SyncCommittee:
		keys := treeRoot(len(p.PublicKeys), depthFor(f.n), fillElems(p.PublicKeys, pubKeyRoot))
		agg := pubKeyRoot(&p.AggregatePublicKey)
		return hashPair(&keys, &agg)
	case *ExecutionPayloadHeader:
		return headerRoot(p, s.Version, f.n)
	case *[]Root:
		return collectionRoot(f, len(*p), 32, fillRoots(*p))
	case *[]Gwei:
		return collectionRoot(f, len(*p), 8, fillUint64s(*p))
	case *[]ValidatorIndex:
		return collectionRoot(f, len(*p), 8, fillUint64s(*p))
	case *[]uint64:
		return collectionRoot(f, len(*p), 8, fillUint64s(*p))
	case *[]uint8:
		return collectionRoot(f, len(*p), 1, fillUint8s(*p))
	case *[]Validator:
		return collectionRoot(f, len(*p), 0, fillValidators(*p))
	case *[]Eth1Data:
		return collectionRoot(f, len(*p), 0, fillElems(*p, eth1DataRoot))
	case *[]HistoricalSummary:
		return collectionRoot(f, len(*p), 0, fillElems(*p, historicalSummaryRoot))
	case *[]PendingDeposit:
		return collectionRoot(f, len(*p), 0, fillElems(*p, pendingDepositRoot))
	case *[]PendingPartialWithdrawal:
		return collectionRoot(f, len(*p), 0, fillElems(*p, pendingPartialWithdrawalRoot))
	case *[]PendingConsolidation:
		return collectionRoot(f, len(*p), 0, fillElems(*p, pendingConsolidationRoot))
	case *[]PendingAttestation:
		bitsLimit := f.bits
		return collectionRoot(f, len(*p), 0, fillElems(*p, func(a *PendingAttestation) Root {
			return pendingAttestationRoot(a, bitsLimit)
		}))
	}
	return s.gloasFieldRoot(f)
}

// collectionRoot returns the root of a vector or list field of n elements.
// packed is the byte size of a basic element packed into chunks, or 0 for
// composite elements (one leaf each). A list mixes in its length; its tree
// is as deep as its limit needs; a progressive list's tree grows with its
// length instead (see progressiveListRoot).
func collectionRoot(f *field, n int, packed int, fill leafFiller) Root {
	leaves, limit := uint64(n), f.n
	if packed > 0 {
		leaves = (uint64(n)*uint64(packed) + 31) / 32
		limit = (f.n*uint64(packed) + 31) / 32
	}
	if f.progressive {
		return progressiveListRoot(n, int(leaves), fill)
	}
	r := treeRoot(int(leaves), depthFor(limit), fill)
	if f.vector {
		return r
	}
	return mixInLength(r, uint64(n))
}

// putChunk64 writes v as a uint64 chunk: 8 little-endian bytes, 24 zeros.
func putChunk64(c []byte, v uint64) {
	put64(c, v)
	clear(c[8:32])
}

// u64Chunk returns v's chunk, which is also its hash tree root.
func u64Chunk(v uint64) (c Root) {
	put64(c[:], v)
	return c
}

func pubKeyRoot(k *BLSPubKey) Root {
	var a, b Root
	copy(a[:], k[:32])
	copy(b[:], k[32:])
	return hashPair(&a, &b)
}

func signatureRoot(sig *BLSSignature) Root {
	var c [4]Root
	copy(c[0][:], sig[0:32])
	copy(c[1][:], sig[32:64])
	copy(c[2][:], sig[64:96])
	return merkleSmall(c[:3], 2)
}

func forkRoot(f *Fork) Root {
	var c [3]Root
	copy(c[0][:], f.PreviousVersion[:])
	copy(c[1][:], f.CurrentVersion[:])
	c[2] = u64Chunk(uint64(f.Epoch))
	return merkleSmall(c[:], 2)
}

func blockHeaderRoot(h *BeaconBlockHeader) Root {
	c := [5]Root{u64Chunk(uint64(h.Slot)), u64Chunk(uint64(h.ProposerIndex)), h.ParentRoot, h.StateRoot, h.BodyRoot}
	return merkleSmall(c[:], 3)
}

func eth1DataRoot(e *Eth1Data) Root {
	c := [3]Root{e.DepositRoot, u64Chunk(e.DepositCount), e.BlockHash}
	return merkleSmall(c[:], 2)
}

func checkpointRoot(cp *Checkpoint) Root {
	e := u64Chunk(uint64(cp.Epoch))
	return hashPair(&e, &cp.Root)
}

func historicalSummaryRoot(h *HistoricalSummary) Root {
	return hashPair(&h.BlockSummaryRoot, &h.StateSummaryRoot)
}

func pendingDepositRoot(d *PendingDeposit) Root {
	c := [5]Root{pubKeyRoot(&d.PublicKey), d.WithdrawalCredentials, u64Chunk(uint64(d.Amount)), signatureRoot(&d.Signature), u64Chunk(uint64(d.Slot))}
	return merkleSmall(c[:], 3)
}

func pendingPartialWithdrawalRoot(w *PendingPartialWithdrawal) Root {
	c := [3]Root{u64Chunk(uint64(w.ValidatorIndex)), u64Chunk(uint64(w.Amount)), u64Chunk(uint64(w.WithdrawableEpoch))}
	return merkleSmall(c[:], 2)
}

func pendingConsolidationRoot(p *PendingConsolidation) Root {
	a, b := u64Chunk(uint64(p.SourceIndex)), u64Chunk(uint64(p.TargetIndex))
	return hashPair(&a, &b)
}

func attestationDataRoot(a *AttestationData) Root {
	c := [5]Root{u64Chunk(uint64(a.Slot)), u64Chunk(a.Index), a.BeaconBlockRoot, checkpointRoot(&a.Source), checkpointRoot(&a.Target)}
	return merkleSmall(c[:], 3)
}

func pendingAttestationRoot(a *PendingAttestation, bitsLimit uint64) Root {
	c := [4]Root{bitlistRoot(a.AggregationBits, bitsLimit), attestationDataRoot(&a.Data), u64Chunk(uint64(a.InclusionDelay)), u64Chunk(uint64(a.ProposerIndex))}
	return merkleSmall(c[:], 2)
}

// bitlistRoot returns the root of a well-formed Bitlist[limit]: its bits
// (without the length bit) packed into chunks, in a tree deep enough for
// limit bits, with the bit count mixed in.
func bitlistRoot(b Bitlist, limit uint64) Root {
	n := b.bitLen()
	data := make([]byte, (n+7)/8)
	copy(data, b)
	if n%8 != 0 {
		data[len(data)-1] &^= 1 << (n % 8) // drop the length bit
	}
	r := treeRoot((len(data)+31)/32, depthFor((limit+255)/256), fillBytes(data))
	return mixInLength(r, uint64(n))
}

// headerRoot returns the root of the execution payload header of fork v,
// whose extra_data is a ByteList[maxExtra].
func headerRoot(h *ExecutionPayloadHeader, v Version, maxExtra uint64) Root {
	var c [17]Root
	c[0] = Root(h.ParentHash)
	copy(c[1][:], h.FeeRecipient[:])
	c[2], c[3] = h.StateRoot, h.ReceiptsRoot
	var bloom [8]Root
	for i := range bloom {
		copy(bloom[i][:], h.LogsBloom[32*i:])
	}
	c[4] = merkleSmall(bloom[:], 3)
	c[5] = h.PrevRandao
	c[6], c[7], c[8], c[9] = u64Chunk(h.BlockNumber), u64Chunk(h.GasLimit), u64Chunk(h.GasUsed), u64Chunk(h.Timestamp)
	extra := treeRoot((len(h.ExtraData)+31)/32, depthFor((maxExtra+31)/32), fillBytes(h.ExtraData))
	c[10] = mixInLength(extra, uint64(len(h.ExtraData)))
	for i, limb := range h.BaseFeePerGas {
		put64(c[11][8*i:], limb)
	}
	c[12], c[13] = Root(h.BlockHash), h.TransactionsRoot
	n := 14
	if v >= Capella {
		c[14] = h.WithdrawalsRoot
		n = 15
	}
	if v >= Deneb {
		c[15], c[16] = u64Chunk(h.BlobGasUsed), u64Chunk(h.ExcessBlobGas)
		n = 17
	}
	return merkleSmall(c[:n], depthFor(uint64(n)))
}
