package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// The limits of go-ethereum's log filters (eth/filters).
const (
	maxTopics    = 4
	maxAddresses = 1000
)

// logQuery is eth_getLogs' filter object, in go-ethereum's JSON: blockHash
// or a fromBlock/toBlock range (both "latest" when left out), address one
// address or a list, topics a list per position of null (any), one hash or
// a list of hashes (any of them).
type logQuery struct {
	BlockHash *common.Hash
	FromBlock rpc.BlockNumber
	ToBlock   rpc.BlockNumber
	Addresses []common.Address
	Topics    [][]common.Hash
}

// UnmarshalJSON reads the filter object with go-ethereum's rules and
// errors.
func (q *logQuery) UnmarshalJSON(data []byte) error {
	var raw struct {
		BlockHash *common.Hash     `json:"blockHash"`
		FromBlock *rpc.BlockNumber `json:"fromBlock"`
		ToBlock   *rpc.BlockNumber `json:"toBlock"`
		Addresses any              `json:"address"`
		Topics    []any            `json:"topics"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	q.BlockHash, q.FromBlock, q.ToBlock = raw.BlockHash, rpc.LatestBlockNumber, rpc.LatestBlockNumber
	if raw.BlockHash != nil {
		if raw.FromBlock != nil || raw.ToBlock != nil {
			return errors.New("cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other")
		}
	} else {
		if raw.FromBlock != nil {
			q.FromBlock = *raw.FromBlock
		}
		if raw.ToBlock != nil {
			q.ToBlock = *raw.ToBlock
		}
	}
	switch a := raw.Addresses.(type) {
	case nil:
	case string:
		addr, err := decodeAddress(a)
		if err != nil {
			return err
		}
		q.Addresses = []common.Address{addr}
	case []any:
		for i, v := range a {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("non-string address at index %d", i)
			}
			addr, err := decodeAddress(s)
			if err != nil {
				return fmt.Errorf("invalid address at index %d: %v", i, err)
			}
			q.Addresses = append(q.Addresses, addr)
		}
	default:
		return errors.New("invalid addresses in query")
	}
	if len(raw.Topics) > maxTopics {
		return errors.New("exceed max topics")
	}
	q.Topics = make([][]common.Hash, len(raw.Topics))
	for i, t := range raw.Topics {
		switch t := t.(type) {
		case nil: // any topic
		case string:
			h, err := decodeTopic(t)
			if err != nil {
				return err
			}
			q.Topics[i] = []common.Hash{h}
		case []any:
			for _, v := range t {
				if v == nil { // null in a list matches any topic
					q.Topics[i] = nil
					break
				}
				s, ok := v.(string)
				if !ok {
					return errors.New("invalid topic(s)")
				}
				h, err := decodeTopic(s)
				if err != nil {
					return err
				}
				q.Topics[i] = append(q.Topics[i], h)
			}
		default:
			return errors.New("invalid topic(s)")
		}
	}
	return nil
}

// decodeAddress reads a 20-byte hex address.
func decodeAddress(s string) (common.Address, error) {
	b, err := hexutil.Decode(s)
	if err == nil && len(b) != common.AddressLength {
		err = fmt.Errorf("hex has invalid length %d after decoding; expected %d for address", len(b), common.AddressLength)
	}
	return common.BytesToAddress(b), err
}

// decodeTopic reads a 32-byte hex topic.
func decodeTopic(s string) (common.Hash, error) {
	b, err := hexutil.Decode(s)
	if err == nil && len(b) != common.HashLength {
		err = fmt.Errorf("hex has invalid length %d after decoding; expected %d for topic", len(b), common.HashLength)
	}
	return common.BytesToHash(b), err
}

// matches says whether l passes the query's address and topic filters.
func (q *logQuery) matches(l *types.Log) bool {
	if len(q.Addresses) > 0 && !slices.Contains(q.Addresses, l.Address) {
		return false
	}
	if len(q.Topics) > len(l.Topics) {
		return false
	}
	for i, want := range q.Topics {
		if len(want) > 0 && !slices.Contains(want, l.Topics[i]) {
			return false
		}
	}
	return true
}

// GetLogs is eth_getLogs: the logs of the canonical blocks in the range (or
// of the block with the hash) that match the filter, in chain order; an
// empty list, never null, when none does. "pending" is refused, as
// go-ethereum refuses it.
func (api *ethAPI) GetLogs(q logQuery) ([]*types.Log, error) {
	if len(q.Addresses) > maxAddresses {
		return nil, errors.New("exceed max addresses")
	}
	out := []*types.Log{}
	if q.BlockHash != nil {
		h := api.c.bc.GetHeaderByHash(*q.BlockHash)
		if h == nil {
			return nil, errors.New("unknown block")
		}
		return api.c.limitResults(api.appendLogs(out, h, &q), h.Number.Uint64())
	}
	resolve := func(n rpc.BlockNumber) (uint64, error) {
		if n == rpc.PendingBlockNumber {
			return 0, errors.New("pending logs are not supported")
		}
		h, err := api.c.headerByNumber(n)
		if err != nil {
			return 0, err
		}
		if h == nil { // a number past the head: the head
			return api.c.bc.CurrentBlock().Number.Uint64(), nil
		}
		return h.Number.Uint64(), nil
	}
	from, err := resolve(q.FromBlock)
	if err != nil {
		return nil, err
	}
	to, err := resolve(q.ToBlock)
	if err != nil {
		return nil, err
	}
	if from > to {
		return nil, errors.New("invalid block range params")
	}
	if err := api.c.limitRange(from, to); err != nil {
		return nil, err
	}
	for n := from; n <= to; n++ {
		if h := api.c.bc.GetHeaderByNumber(n); h != nil {
			out = api.appendLogs(out, h, &q)
		}
	}
	return api.c.limitResults(out, from)
}

// appendLogs appends the logs of the block h that match q.
func (api *ethAPI) appendLogs(out []*types.Log, h *types.Header, q *logQuery) []*types.Log {
	if h.Bloom == (types.Bloom{}) {
		return out
	}
	for _, r := range api.c.bc.GetReceiptsByHash(h.Hash()) {
		for _, l := range r.Logs {
			if q.matches(l) {
				out = append(out, l)
			}
		}
	}
	return out
}
