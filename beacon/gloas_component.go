package beacon

// The hash tree roots and beacon API JSON of gloas's own containers
// (gloasSpec), computed by the same functions that hash, encode and decode
// them inside a state, so a component's root is exactly the leaf the
// state's tree has for it and its JSON exactly the bytes of the state's
// member. The JSON rules are those of the other components
// (component_json.go).

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
