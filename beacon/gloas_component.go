package beacon

import "encoding/json"

// The hash tree roots and beacon API JSON of gloas's own containers
// (GloasSpec), computed by the same functions that hash, encode and decode
// them inside a state, so a component's root is exactly the leaf the
// state's tree has for it and its JSON exactly the bytes of the state's
// member. The JSON rules are those of the other components
// (component_json.go).

var (
	_ json.Marshaler   = Builder{}
	_ json.Unmarshaler = (*Builder)(nil)
	_ json.Marshaler   = ExecutionPayloadBid{}
	_ json.Unmarshaler = (*ExecutionPayloadBid)(nil)
)

// HashTreeRoot returns the root of the Builder container: the leaf of this
// builder in the state's builders list.
func (b Builder) HashTreeRoot() Root { return builderRoot(&b) }

// HashTreeRoot returns the root of the BuilderPendingWithdrawal container.
func (w BuilderPendingWithdrawal) HashTreeRoot() Root { return builderPendingWithdrawalRoot(&w) }

// HashTreeRoot returns the root of the BuilderPendingPayment container.
func (p BuilderPendingPayment) HashTreeRoot() Root { return builderPendingPaymentRoot(&p) }

// HashTreeRoot returns the root of the Withdrawal container (an element of
// gloas's payload_expected_withdrawals).
func (w Withdrawal) HashTreeRoot() Root { return withdrawalRoot(&w) }

// HashTreeRoot returns the root of the ExecutionPayloadBid, a progressive
// container (EIP-7495) with its 12 fields active, whose
// blob_kzg_commitments is a progressive list (EIP-7916): neither has a
// limit in the tree, so every value has a root.
func (b ExecutionPayloadBid) HashTreeRoot() Root { return bidRoot(&b) }

// MarshalJSON writes b as the beacon API does: pubkey, version,
// execution_address, balance, deposit_epoch, withdrawable_epoch.
func (b Builder) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.builder(&b) })
}

// UnmarshalJSON reads the beacon API's JSON of a builder. The execution
// address may be in any case (Lodestar writes it checksummed, EIP-55);
// the checksum is not checked.
func (b *Builder) UnmarshalJSON(data []byte) error {
	return unmarshalInto(b, data, (*jsonDecoder).builder)
}

// MarshalJSON writes w as the beacon API does: fee_recipient, amount,
// builder_index.
func (w BuilderPendingWithdrawal) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.builderPendingWithdrawal(&w) })
}

// UnmarshalJSON reads the beacon API's JSON of a builder pending
// withdrawal.
func (w *BuilderPendingWithdrawal) UnmarshalJSON(data []byte) error {
	return unmarshalInto(w, data, (*jsonDecoder).builderPendingWithdrawal)
}

// MarshalJSON writes p as the beacon API does: weight, withdrawal (a
// builder pending withdrawal), proposer_index.
func (p BuilderPendingPayment) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.builderPendingPayment(&p) })
}

// UnmarshalJSON reads the beacon API's JSON of a builder pending payment.
func (p *BuilderPendingPayment) UnmarshalJSON(data []byte) error {
	return unmarshalInto(p, data, (*jsonDecoder).builderPendingPayment)
}

// MarshalJSON writes w as the beacon API does: index, validator_index,
// address, amount.
func (w Withdrawal) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.withdrawal(&w) })
}

// UnmarshalJSON reads the beacon API's JSON of a withdrawal.
func (w *Withdrawal) UnmarshalJSON(data []byte) error {
	return unmarshalInto(w, data, (*jsonDecoder).withdrawal)
}

// MarshalJSON writes b as the beacon API does: its 12 fields in the specs'
// order, blob_kzg_commitments as an array of 0x-hex strings.
func (b ExecutionPayloadBid) MarshalJSON() ([]byte, error) {
	return marshalComponent(func(e *jsonEncoder) { e.bid(&b) })
}

// UnmarshalJSON reads the beacon API's JSON of an execution payload bid,
// with at most the mainnet preset's MAX_BLOB_COMMITMENTS_PER_BLOCK
// commitments (the bound a state's decoder applies).
func (b *ExecutionPayloadBid) UnmarshalJSON(data []byte) error {
	return unmarshalInto(b, data, func(d *jsonDecoder, b *ExecutionPayloadBid) error {
		return d.bid(b, d.preset.MaxBlobCommitmentsPerBlock)
	})
}
