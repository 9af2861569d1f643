package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// OperationType is the kind of an internal operation, as Otterscan numbers
// them. Numbers the SDK does not know decode without error and stay visible.
type OperationType int

// The operation types Otterscan defines.
const (
	// Transfer is a value transfer by CALL.
	Transfer OperationType = 0
	// SelfDestruct is a SELFDESTRUCT: From is the destroyed contract, To the
	// beneficiary.
	SelfDestruct OperationType = 1
	// Create is a contract creation by CREATE.
	Create OperationType = 2
	// Create2 is a contract creation by CREATE2.
	Create2 OperationType = 3
	// EOFCreate is a contract creation by EOFCREATE.
	EOFCreate OperationType = 4
)

// String names the type: "transfer", "selfdestruct", "create", "create2",
// "eofcreate", or "type(N)" for a number the SDK does not know.
func (t OperationType) String() string {
	switch t {
	case Transfer:
		return "transfer"
	case SelfDestruct:
		return "selfdestruct"
	case Create:
		return "create"
	case Create2:
		return "create2"
	case EOFCreate:
		return "eofcreate"
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// InternalOperation is one value transfer or contract operation inside a
// transaction, as ots_getInternalOperations lists them in execution order.
type InternalOperation struct {
	// Type is the kind of operation; numbers the SDK does not know are kept.
	Type OperationType
	// From sends the value (for SelfDestruct, the destroyed contract; for
	// Create and Create2, the creator).
	From common.Address
	// To receives the value (for SelfDestruct, the beneficiary; for Create
	// and Create2, the new contract).
	To common.Address
	// Value in wei; never nil (zero when the server sent "0x0").
	Value *big.Int
}

// InternalOperations runs ots_getInternalOperations for the transaction tx.
//
// Servers differ and the result reflects the server: Erigon leaves out the
// top-level call, reth and anvil list it; reth drops zero-value creations. An
// unknown transaction is an empty list on reth and an *nodeaccess.RPCError on
// Erigon (-32000) and anvil (-32603); go-ethereum does not serve the method
// (-32601). An empty list is a valid answer, not an error.
func (c *Client) InternalOperations(ctx context.Context, tx common.Hash) ([]InternalOperation, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(OpInternalOperations, err)
	}
	const op = OpInternalOperations
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params := append((*bp)[:0], `["0x`...)
	params = hex.AppendEncode(params, tx[:])
	params = append(params, `"]`...)
	*bp = params
	ops, err := rpc(ctx, c, op, params, 0, decodeInternalOperations)
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	return ops, nil
}

// decodeInternalOperations decodes the result of ots_getInternalOperations:
// a JSON array of {type, from, to, value}. null decodes as an empty list.
func decodeInternalOperations(raw []byte) ([]InternalOperation, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("internal operations: %v", err)
	}
	ops := make([]InternalOperation, len(list))
	for i, item := range list {
		// Every member is load-bearing: one that cannot be read refuses
		// the answer, naming the operation.
		var w struct {
			Type  *json.Number    `json:"type"`
			From  json.RawMessage `json:"from"`
			To    json.RawMessage `json:"to"`
			Value *string         `json:"value"`
		}
		dec := json.NewDecoder(bytes.NewReader(item))
		dec.UseNumber()
		if err := dec.Decode(&w); err != nil {
			return nil, fmt.Errorf("internal operation %d: %v", i, err)
		}
		if w.Type == nil || isAbsent(w.From) || isAbsent(w.To) || w.Value == nil {
			return nil, fmt.Errorf("internal operation %d lacks one of type, from, to, value", i)
		}
		var from, to common.Address
		if err := from.UnmarshalJSON(jsontext.Unescaped(w.From)); err != nil {
			return nil, fmt.Errorf("internal operation %d: from: %v", i, err)
		}
		if err := to.UnmarshalJSON(jsontext.Unescaped(w.To)); err != nil {
			return nil, fmt.Errorf("internal operation %d: to: %v", i, err)
		}
		t, err := strconv.ParseInt(w.Type.String(), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("internal operation %d: type %s is not an integer", i, w.Type)
		}
		v, err := parseQuantity(*w.Value)
		if err != nil {
			return nil, fmt.Errorf("internal operation %d: value: %v", i, err)
		}
		ops[i] = InternalOperation{Type: OperationType(t), From: from, To: to, Value: v}
	}
	return ops, nil
}

// isAbsent reports a member that was missing or null.
func isAbsent(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }
