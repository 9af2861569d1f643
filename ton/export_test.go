package ton

import "encoding/json"

// DecodeMessage exposes decodeMessage to the external tests.
func DecodeMessage(raw json.RawMessage) (*Message, error) { return decodeMessage(raw) }

// DecodeBlockTransaction exposes decodeBlockTx to the external tests.
func DecodeBlockTransaction(raw json.RawMessage) (*BlockTransaction, error) {
	var tx BlockTransaction
	if err := decodeBlockTx(raw, &tx); err != nil {
		return nil, err
	}
	return &tx, nil
}
