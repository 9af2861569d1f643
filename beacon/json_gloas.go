package beacon

import "fmt"

// The JSON forms of the gloas types (gloasSpec): the consensus specs' JSON
// mapping, as for every other fork (a progressive container is an object,
// a progressive list an array, a Bitvector a 0x-hex string).

// gloasField decodes the value of a gloas field.
func (d *jsonDecoder) gloasField(f field) error {
	var err error
	switch p := f.ptr.(type) {
	case *bitvector:
		b := make(bitvector, (f.n+7)/8)
		off := d.offset()
		if err = d.hexInto(b); err != nil {
			return err
		}
		if r := f.n % 8; r != 0 && b[len(b)-1]>>r != 0 {
			return d.errAt(off, "sets bits beyond the %d of the Bitvector", f.n)
		}
		*p = b
	case *[]Builder:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).builder)
	case *[]BuilderPendingPayment:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).builderPendingPayment)
	case *[]BuilderPendingWithdrawal:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).builderPendingWithdrawal)
	case *[]Withdrawal:
		*p, err = decodeList(d, f, 0, (*jsonDecoder).withdrawal)
	case *ExecutionPayloadBid:
		err = d.bid(p, f.n)
	case *[][]ValidatorIndex:
		inner := field{name: f.name, vector: true, n: f.bits}
		*p, err = decodeList(d, f, 0, func(d *jsonDecoder, v *[]ValidatorIndex) (err error) {
			*v, err = decodeList(d, inner, 0, (*jsonDecoder).validatorIndex)
			return err
		})
	default:
		err = fmt.Errorf("beacon: json: internal error: no decoder for %T", f.ptr)
	}
	return err
}

var builderNames = []string{"pubkey", "version", "execution_address", "balance", "deposit_epoch", "withdrawable_epoch"}

func (d *jsonDecoder) builder(b *Builder) error {
	return d.object("a builder", builderNames, 1<<6-1, func(i int) (err error) {
		switch i {
		case 0:
			return d.hexInto(b.PublicKey[:])
		case 1:
			b.Version, err = d.uint8v()
			return err
		case 2:
			return d.hexInto(b.ExecutionAddress[:])
		case 3:
			return d.u64((*uint64)(&b.Balance))
		case 4:
			return d.u64((*uint64)(&b.DepositEpoch))
		}
		return d.u64((*uint64)(&b.WithdrawableEpoch))
	})
}

var builderPendingWithdrawalNames = []string{"fee_recipient", "amount", "builder_index"}

func (d *jsonDecoder) builderPendingWithdrawal(w *BuilderPendingWithdrawal) error {
	return d.object("a builder pending withdrawal", builderPendingWithdrawalNames, 1<<3-1, func(i int) error {
		switch i {
		case 0:
			return d.hexInto(w.FeeRecipient[:])
		case 1:
			return d.u64((*uint64)(&w.Amount))
		}
		return d.u64((*uint64)(&w.BuilderIndex))
	})
}

var builderPendingPaymentNames = []string{"weight", "withdrawal", "proposer_index"}

func (d *jsonDecoder) builderPendingPayment(p *BuilderPendingPayment) error {
	return d.object("a builder pending payment", builderPendingPaymentNames, 1<<3-1, func(i int) error {
		switch i {
		case 0:
			return d.u64((*uint64)(&p.Weight))
		case 1:
			return d.builderPendingWithdrawal(&p.Withdrawal)
		}
		return d.u64((*uint64)(&p.ProposerIndex))
	})
}

var withdrawalNames = []string{"index", "validator_index", "address", "amount"}

func (d *jsonDecoder) withdrawal(w *Withdrawal) error {
	return d.object("a withdrawal", withdrawalNames, 1<<4-1, func(i int) error {
		switch i {
		case 0:
			return d.u64(&w.Index)
		case 1:
			return d.u64((*uint64)(&w.ValidatorIndex))
		case 2:
			return d.hexInto(w.Address[:])
		}
		return d.u64((*uint64)(&w.Amount))
	})
}

var bidNames = []string{"parent_block_hash", "parent_block_root", "block_hash", "prev_randao", "fee_recipient",
	"gas_limit", "builder_index", "slot", "value", "execution_payment", "blob_kzg_commitments", "execution_requests_root"}

// bid decodes an execution payload bid with at most maxKZG commitments.
func (d *jsonDecoder) bid(b *ExecutionPayloadBid, maxKZG uint64) error {
	kzg := field{name: "blob_kzg_commitments", n: maxKZG}
	return d.object("an execution payload bid", bidNames, 1<<12-1, func(i int) (err error) {
		switch i {
		case 0:
			return d.hexInto(b.ParentBlockHash[:])
		case 1:
			return d.hexInto(b.ParentBlockRoot[:])
		case 2:
			return d.hexInto(b.BlockHash[:])
		case 3:
			return d.hexInto(b.PrevRandao[:])
		case 4:
			return d.hexInto(b.FeeRecipient[:])
		case 5:
			return d.u64(&b.GasLimit)
		case 6:
			return d.u64((*uint64)(&b.BuilderIndex))
		case 7:
			return d.u64((*uint64)(&b.Slot))
		case 8:
			return d.u64((*uint64)(&b.Value))
		case 9:
			return d.u64((*uint64)(&b.ExecutionPayment))
		case 10:
			b.BlobKZGCommitments, err = decodeList(d, kzg, 0, func(d *jsonDecoder, k *KZGCommitment) error { return d.hexInto(k[:]) })
			return err
		}
		return d.hexInto(b.ExecutionRequestsRoot[:])
	})
}

// gloasField appends the value of a gloas field.
func (e *jsonEncoder) gloasField(f field) {
	switch p := f.ptr.(type) {
	case *bitvector:
		e.hex(*p)
	case *[]Builder:
		encodeList(e, *p, (*jsonEncoder).builder)
	case *[]BuilderPendingPayment:
		encodeList(e, *p, (*jsonEncoder).builderPendingPayment)
	case *[]BuilderPendingWithdrawal:
		encodeList(e, *p, (*jsonEncoder).builderPendingWithdrawal)
	case *[]Withdrawal:
		encodeList(e, *p, (*jsonEncoder).withdrawal)
	case *ExecutionPayloadBid:
		e.bid(p)
	case *[][]ValidatorIndex:
		encodeList(e, *p, func(e *jsonEncoder, v *[]ValidatorIndex) {
			encodeList(e, *v, func(e *jsonEncoder, i *ValidatorIndex) { e.uint(uint64(*i)) })
		})
	default:
		if e.err == nil {
			e.err = fmt.Errorf("beacon: json: internal error: no encoder for %T", f.ptr)
		}
	}
}

func (e *jsonEncoder) builder(b *Builder) {
	e.raw(`{"pubkey":`)
	e.hex(b.PublicKey[:])
	e.raw(`,"version":`)
	e.uint(uint64(b.Version))
	e.raw(`,"execution_address":`)
	e.hex(b.ExecutionAddress[:])
	e.raw(`,"balance":`)
	e.uint(uint64(b.Balance))
	e.raw(`,"deposit_epoch":`)
	e.uint(uint64(b.DepositEpoch))
	e.raw(`,"withdrawable_epoch":`)
	e.uint(uint64(b.WithdrawableEpoch))
	e.raw(`}`)
}

func (e *jsonEncoder) builderPendingWithdrawal(w *BuilderPendingWithdrawal) {
	e.raw(`{"fee_recipient":`)
	e.hex(w.FeeRecipient[:])
	e.raw(`,"amount":`)
	e.uint(uint64(w.Amount))
	e.raw(`,"builder_index":`)
	e.uint(uint64(w.BuilderIndex))
	e.raw(`}`)
}

func (e *jsonEncoder) builderPendingPayment(p *BuilderPendingPayment) {
	e.raw(`{"weight":`)
	e.uint(uint64(p.Weight))
	e.raw(`,"withdrawal":`)
	e.builderPendingWithdrawal(&p.Withdrawal)
	e.raw(`,"proposer_index":`)
	e.uint(uint64(p.ProposerIndex))
	e.raw(`}`)
}

func (e *jsonEncoder) withdrawal(w *Withdrawal) {
	e.raw(`{"index":`)
	e.uint(w.Index)
	e.raw(`,"validator_index":`)
	e.uint(uint64(w.ValidatorIndex))
	e.raw(`,"address":`)
	e.hex(w.Address[:])
	e.raw(`,"amount":`)
	e.uint(uint64(w.Amount))
	e.raw(`}`)
}

func (e *jsonEncoder) bid(b *ExecutionPayloadBid) {
	e.raw(`{"parent_block_hash":`)
	e.hex(b.ParentBlockHash[:])
	e.raw(`,"parent_block_root":`)
	e.hex(b.ParentBlockRoot[:])
	e.raw(`,"block_hash":`)
	e.hex(b.BlockHash[:])
	e.raw(`,"prev_randao":`)
	e.hex(b.PrevRandao[:])
	e.raw(`,"fee_recipient":`)
	e.hex(b.FeeRecipient[:])
	e.raw(`,"gas_limit":`)
	e.uint(b.GasLimit)
	e.raw(`,"builder_index":`)
	e.uint(uint64(b.BuilderIndex))
	e.raw(`,"slot":`)
	e.uint(uint64(b.Slot))
	e.raw(`,"value":`)
	e.uint(uint64(b.Value))
	e.raw(`,"execution_payment":`)
	e.uint(uint64(b.ExecutionPayment))
	e.raw(`,"blob_kzg_commitments":`)
	encodeList(e, b.BlobKZGCommitments, func(e *jsonEncoder, k *KZGCommitment) { e.hex(k[:]) })
	e.raw(`,"execution_requests_root":`)
	e.hex(b.ExecutionRequestsRoot[:])
	e.raw(`}`)
}
