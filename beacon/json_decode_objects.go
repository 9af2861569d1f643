package beacon

// The decoders of the state's small containers, through object: each
// names its keys in the consensus specs' order and decodes one by index.

var forkNames = []string{"previous_version", "current_version", "epoch"}

func (d *jsonDecoder) fork(f *Fork) error {
	return d.object("a fork", forkNames, 1<<3-1, func(i int) error {
		switch i {
		case 0:
			return d.hexInto(f.PreviousVersion[:])
		case 1:
			return d.hexInto(f.CurrentVersion[:])
		}
		return d.u64((*uint64)(&f.Epoch))
	})
}

var checkpointNames = []string{"epoch", "root"}

func (d *jsonDecoder) checkpoint(c *Checkpoint) error {
	return d.object("a checkpoint", checkpointNames, 1<<2-1, func(i int) error {
		if i == 0 {
			return d.u64((*uint64)(&c.Epoch))
		}
		return d.hexInto(c.Root[:])
	})
}

var blockHeaderNames = []string{"slot", "proposer_index", "parent_root", "state_root", "body_root"}

func (d *jsonDecoder) blockHeader(h *BeaconBlockHeader) error {
	return d.object("a block header", blockHeaderNames, 1<<5-1, func(i int) error {
		switch i {
		case 0:
			return d.u64((*uint64)(&h.Slot))
		case 1:
			return d.u64((*uint64)(&h.ProposerIndex))
		case 2:
			return d.hexInto(h.ParentRoot[:])
		case 3:
			return d.hexInto(h.StateRoot[:])
		}
		return d.hexInto(h.BodyRoot[:])
	})
}

var eth1DataNames = []string{"deposit_root", "deposit_count", "block_hash"}

func (d *jsonDecoder) eth1Data(e *Eth1Data) error {
	return d.object("eth1 data", eth1DataNames, 1<<3-1, func(i int) error {
		switch i {
		case 0:
			return d.hexInto(e.DepositRoot[:])
		case 1:
			return d.u64(&e.DepositCount)
		}
		return d.hexInto(e.BlockHash[:])
	})
}

// justificationBits decodes the Bitvector[4]: one byte whose high four
// bits must be zero.
func (d *jsonDecoder) justificationBits(j *uint8) error {
	off := d.offset()
	var b [1]byte
	if err := d.hexInto(b[:]); err != nil {
		return err
	}
	if b[0]&0xf0 != 0 {
		return d.errAt(off, "0x%02x sets bits beyond the 4 of the bitvector", b[0])
	}
	*j = uint8(b[0])
	return nil
}

var syncCommitteeNames = []string{"pubkeys", "aggregate_pubkey"}

func (d *jsonDecoder) syncCommittee(c *SyncCommittee, size uint64) error {
	return d.object("a sync committee", syncCommitteeNames, 1<<2-1, func(i int) (err error) {
		if i == 0 {
			c.PublicKeys, err = decodeList(d, field{vector: true, n: size}, 0, (*jsonDecoder).pubkey)
			return err
		}
		return d.hexInto(c.AggregatePublicKey[:])
	})
}

var attestationDataNames = []string{"slot", "index", "beacon_block_root", "source", "target"}

func (d *jsonDecoder) attestationData(a *AttestationData) error {
	return d.object("attestation data", attestationDataNames, 1<<5-1, func(i int) error {
		switch i {
		case 0:
			return d.u64((*uint64)(&a.Slot))
		case 1:
			return d.u64(&a.Index)
		case 2:
			return d.hexInto(a.BeaconBlockRoot[:])
		case 3:
			return d.checkpoint(&a.Source)
		}
		return d.checkpoint(&a.Target)
	})
}

var pendingAttestationNames = []string{"aggregation_bits", "data", "inclusion_delay", "proposer_index"}

// pendingAttestation decodes a phase0 pending attestation whose bitlist
// holds at most limit bits.
func (d *jsonDecoder) pendingAttestation(a *PendingAttestation, limit uint64) error {
	return d.object("a pending attestation", pendingAttestationNames, 1<<4-1, func(i int) error {
		switch i {
		case 0:
			off := d.offset()
			b, err := d.hexBytes(int(limit/8 + 1))
			if err != nil {
				return err
			}
			if err := Bitlist(b).check(limit); err != nil {
				return d.errAt(off, "%v", err)
			}
			a.AggregationBits = b
			return nil
		case 1:
			return d.attestationData(&a.Data)
		case 2:
			return d.u64((*uint64)(&a.InclusionDelay))
		}
		return d.u64((*uint64)(&a.ProposerIndex))
	})
}

var historicalSummaryNames = []string{"block_summary_root", "state_summary_root"}

func (d *jsonDecoder) historicalSummary(h *HistoricalSummary) error {
	return d.object("a historical summary", historicalSummaryNames, 1<<2-1, func(i int) error {
		if i == 0 {
			return d.hexInto(h.BlockSummaryRoot[:])
		}
		return d.hexInto(h.StateSummaryRoot[:])
	})
}

var pendingDepositNames = []string{"pubkey", "withdrawal_credentials", "amount", "signature", "slot"}

func (d *jsonDecoder) pendingDeposit(p *PendingDeposit) error {
	return d.object("a pending deposit", pendingDepositNames, 1<<5-1, func(i int) error {
		switch i {
		case 0:
			return d.hexInto(p.PublicKey[:])
		case 1:
			return d.hexInto(p.WithdrawalCredentials[:])
		case 2:
			return d.u64((*uint64)(&p.Amount))
		case 3:
			return d.hexInto(p.Signature[:])
		}
		return d.u64((*uint64)(&p.Slot))
	})
}

var pendingPartialWithdrawalNames = []string{"validator_index", "amount", "withdrawable_epoch"}

func (d *jsonDecoder) pendingPartialWithdrawal(p *PendingPartialWithdrawal) error {
	return d.object("a pending partial withdrawal", pendingPartialWithdrawalNames, 1<<3-1, func(i int) error {
		switch i {
		case 0:
			return d.u64((*uint64)(&p.ValidatorIndex))
		case 1:
			return d.u64((*uint64)(&p.Amount))
		}
		return d.u64((*uint64)(&p.WithdrawableEpoch))
	})
}

var pendingConsolidationNames = []string{"source_index", "target_index"}

func (d *jsonDecoder) pendingConsolidation(p *PendingConsolidation) error {
	return d.object("a pending consolidation", pendingConsolidationNames, 1<<2-1, func(i int) error {
		if i == 0 {
			return d.u64((*uint64)(&p.SourceIndex))
		}
		return d.u64((*uint64)(&p.TargetIndex))
	})
}

// payloadHeaderNames are the execution payload header's fields of every
// fork, in order; payloadHeaderFields says which a fork has.
var payloadHeaderNames = []string{"parent_hash", "fee_recipient", "state_root", "receipts_root", "logs_bloom",
	"prev_randao", "block_number", "gas_limit", "gas_used", "timestamp", "extra_data", "base_fee_per_gas",
	"block_hash", "transactions_root", "withdrawals_root", "blob_gas_used", "excess_blob_gas"}

func payloadHeaderFields(v Version) uint64 {
	switch {
	case v >= Deneb:
		return 1<<17 - 1
	case v >= Capella:
		return 1<<15 - 1
	}
	return 1<<14 - 1
}

// payloadHeader decodes the execution payload header of fork v, whose
// extra data holds at most maxExtra bytes.
// While the fork is unsettled (d.hdr is set), every fork's members are
// allowed, none is required, and d.hdr records which came: settle checks
// them against the fork.
func (d *jsonDecoder) payloadHeader(h *ExecutionPayloadHeader, v Version, maxExtra uint64) error {
	what, allowed, required, at := article(v)+" "+v.String()+" execution payload header", payloadHeaderFields(v), payloadHeaderFields(v), []int64(nil)
	if d.hdr != nil {
		what, allowed, required, at = "an execution payload header", 1<<len(payloadHeaderNames)-1, 0, d.hdr.at
	}
	seen, err := d.objectOf(what, payloadHeaderNames, allowed, required, at, func(i int) (err error) {
		switch i {
		case 0:
			return d.hexInto(h.ParentHash[:])
		case 1:
			return d.hexInto(h.FeeRecipient[:])
		case 2:
			return d.hexInto(h.StateRoot[:])
		case 3:
			return d.hexInto(h.ReceiptsRoot[:])
		case 4:
			return d.hexInto(h.LogsBloom[:])
		case 5:
			return d.hexInto(h.PrevRandao[:])
		case 6:
			return d.u64(&h.BlockNumber)
		case 7:
			return d.u64(&h.GasLimit)
		case 8:
			return d.u64(&h.GasUsed)
		case 9:
			return d.u64(&h.Timestamp)
		case 10:
			h.ExtraData, err = d.hexBytes(int(maxExtra))
			return err
		case 11:
			return d.uint256v(&h.BaseFeePerGas)
		case 12:
			return d.hexInto(h.BlockHash[:])
		case 13:
			return d.hexInto(h.TransactionsRoot[:])
		case 14:
			return d.hexInto(h.WithdrawalsRoot[:])
		case 15:
			return d.u64(&h.BlobGasUsed)
		}
		return d.u64(&h.ExcessBlobGas)
	})
	if d.hdr != nil {
		d.hdr.seen = seen
	}
	return err
}
