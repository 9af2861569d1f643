package verified

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// query is one account to prove, with some of its slots.
type query struct {
	addr  common.Address
	slots []common.Hash
}

// proven is an account proven at a block: its state, the values of the
// slots asked for (in order), and its code when it was asked for.
type proven struct {
	acc    Account
	values []*big.Int
	code   []byte
}

// maxCodeBytes bounds the code a proven account may have: EIP-7954's
// 64 KiB limit, twice EIP-170's 24 KiB. Code longer than it cannot hash to
// a real account's code hash on any chain this package anchors.
const maxCodeBytes = 64 << 10

// prove fetches, in one JSON-RPC batch, the header of a (unless it is
// known), an eth_getProof of each query at a's hash, and, with code, the
// code of each account; it checks the header against a's hash and each
// proof (with trie.VerifyProof) against the header's state root, and each
// code against the proven code hash. Any failed check is an error matching
// nodeaccess.ErrUnverified that names what was wrong.
func (v *Client) prove(ctx context.Context, a *anchored, qs []query, code bool) ([]proven, error) {
	var b evm.Batch
	var hr *evm.BatchResult[*types.Header]
	if a.header == nil {
		hr = headerByHash(&b, a.hash)
	}
	at := evm.BlockHash{Hash: a.hash}
	prs := make([]*evm.BatchResult[*evm.AccountProof], len(qs))
	crs := make([]*evm.BatchResult[hexutil.Bytes], len(qs))
	for i, q := range qs {
		slots := q.slots
		if slots == nil {
			slots = []common.Hash{}
		}
		prs[i] = evm.Add[*evm.AccountProof](&b, "eth_getProof", q.addr, slots, at)
		if code {
			crs[i] = evm.Add[hexutil.Bytes](&b, "eth_getCode", q.addr, at)
		}
	}
	if err := v.c.SendBatch(ctx, &b); err != nil {
		return nil, err
	}
	if hr != nil {
		h, err := checkHeader(hr, a.hash)
		if err != nil {
			return nil, err
		}
		a.header = h
	}
	out := make([]proven, len(qs))
	for i, q := range qs {
		p, err := prs[i].Result()
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, opError("eth_getProof", unverified("no proof (null) for account %s", q.addr.Hex()))
		}
		if len(p.StorageProof) != len(q.slots) {
			return nil, opError("eth_getProof", unverified("account %s: %d storage proofs for %d slots asked for", q.addr.Hex(), len(p.StorageProof), len(q.slots)))
		}
		acc, values, err := verifyProof(p, a.header.Root)
		if err != nil {
			return nil, opError("eth_getProof", unverified("block %d (%s): %v", a.header.Number.Uint64(), a.hash.Hex(), err))
		}
		out[i] = proven{acc: acc, values: values}
		if !code {
			continue
		}
		c, err := crs[i].Result()
		if err != nil {
			return nil, err
		}
		if len(c) > maxCodeBytes {
			return nil, opError("eth_getCode", unverified("account %s: %d bytes of code, more than the %d an account can have", q.addr.Hex(), len(c), maxCodeBytes))
		}
		if h := crypto.Keccak256Hash(c); h != acc.CodeHash {
			return nil, opError("eth_getCode", unverified("account %s: the code (%d bytes) hashes to %s, not to the proven code hash %s", q.addr.Hex(), len(c), h.Hex(), acc.CodeHash.Hex()))
		}
		out[i].code = c
	}
	return out, nil
}

// start checks ctx and resolves block, for the operation op.
func (v *Client) start(ctx context.Context, op string, block evm.Block) (anchored, error) {
	if ctx == nil {
		return anchored{}, opError(op, &nodeaccess.InputError{Arg: "ctx", Reason: "nil context.Context"})
	}
	a, err := v.resolve(ctx, block)
	if err != nil {
		return anchored{}, opError(op, err)
	}
	return a, nil
}

// Account returns account's balance, nonce, code hash and storage root at
// block, proven against the block's state root: one JSON-RPC batch of the
// block's header and eth_getProof (after what the block selector needs:
// see the package documentation). An account the chain does not hold is
// proven absent and returned as an empty account (no balance, nonce 0,
// the hashes of no code and no storage). A provider's lie (a proof for
// another root or account, a node missing, extra or altered, a value the
// proof contradicts, a header that does not hash to the anchored hash) is
// an error matching nodeaccess.ErrUnverified that says what was wrong.
func (v *Client) Account(ctx context.Context, account common.Address, block evm.Block) (Account, error) {
	a, err := v.start(ctx, "eth_getProof", block)
	if err != nil {
		return Account{}, err
	}
	ps, err := v.prove(ctx, &a, []query{{addr: account}}, false)
	if err != nil {
		return Account{}, err
	}
	return ps[0].acc, nil
}

// Balance returns account's balance in wei at block, proven as Account
// proves it (0 for an account the chain does not hold).
func (v *Client) Balance(ctx context.Context, account common.Address, block evm.Block) (*big.Int, error) {
	acc, err := v.Account(ctx, account, block)
	if err != nil {
		return nil, err
	}
	return acc.Balance, nil
}

// StorageAt returns the value of account's storage slot at block, a
// 32-byte word, proven against the account's storage root, itself proven
// against the block's state root; a slot never written (or cleared), and
// any slot of an account the chain does not hold, is proven to be zero.
// Errors as for Account.
func (v *Client) StorageAt(ctx context.Context, account common.Address, slot common.Hash, block evm.Block) (common.Hash, error) {
	a, err := v.start(ctx, "eth_getProof", block)
	if err != nil {
		return common.Hash{}, err
	}
	ps, err := v.prove(ctx, &a, []query{{addr: account, slots: []common.Hash{slot}}}, false)
	if err != nil {
		return common.Hash{}, err
	}
	return common.BigToHash(ps[0].values[0]), nil
}

// Code returns account's code at block (empty for an account without code,
// or that the chain does not hold): eth_getCode, in the batch of Account's
// proof, its answer checked to hash to the proven code hash. Code that
// does not (or of more than 64 KiB) is an error matching
// nodeaccess.ErrUnverified; other errors as for Account.
func (v *Client) Code(ctx context.Context, account common.Address, block evm.Block) ([]byte, error) {
	a, err := v.start(ctx, "eth_getCode", block)
	if err != nil {
		return nil, err
	}
	ps, err := v.prove(ctx, &a, []query{{addr: account}}, true)
	if err != nil {
		return nil, err
	}
	if ps[0].code == nil {
		return []byte{}, nil
	}
	return ps[0].code, nil
}
