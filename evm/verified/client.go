package verified

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/internal/evmlatest"
)

// Anchor is what a Client believes: the hashes of execution blocks that
// something other than the provider has verified. *light.Client of
// package beacon/light is one: it follows the beacon chain's sync
// committee from a checkpoint the user trusts.
type Anchor interface {
	// ExecutionBlocks returns the hashes of the newest execution block the
	// anchor has verified (its head, optimistic) and of the newest
	// finalized one.
	ExecutionBlocks(ctx context.Context) (head, finalized common.Hash, err error)
}

// Client reads an EVM chain's state through an *evm.Client and believes
// none of it that a proof can check: every value it returns is proven
// against the state root of a block header that hashes to a block hash
// its Anchor gave. It is safe for concurrent use.
type Client struct {
	c *evm.Client
	a Anchor
	// config is the fork schedule of the chain, learnt by the first Call.
	config atomic.Pointer[params.ChainConfig]
}

// New returns a verified client reading through c (its transport: key,
// retries, budget, hooks) and believing a. c must be a client of the chain
// the anchor follows: a provider that serves another chain can only fail
// the checks. New refuses a nil c or a, and a client of a chain no light
// client anchors (one made by hypercore.New: HyperEVM), with an
// *nodeaccess.InputError; it sends nothing.
func New(c *evm.Client, a Anchor) (*Client, error) {
	switch {
	case c == nil:
		return nil, &nodeaccess.InputError{Arg: "c", Reason: "nil *evm.Client"}
	case a == nil:
		return nil, &nodeaccess.InputError{Arg: "a", Reason: "nil Anchor"}
	}
	if why := evmlatest.WhyUnanchored(c); why != "" {
		return nil, &nodeaccess.InputError{Arg: "c", Reason: "verified reads refused: " + why}
	}
	return &Client{c: c, a: a}, nil
}

// opError wraps err as an error of the operation op, as package evm does.
func opError(op string, err error) error {
	var oe *nodeaccess.OpError
	if errors.As(err, &oe) {
		return err
	}
	return &nodeaccess.OpError{Chain: "evm", Op: op, Err: err}
}

// unverified is an error matching nodeaccess.ErrUnverified that says what
// did not hold.
func unverified(format string, args ...any) error {
	return fmt.Errorf("%w: %s", nodeaccess.ErrUnverified, fmt.Sprintf(format, args...))
}

// anchored is a block the anchor backs: its hash, and, once fetched and
// checked, its header.
type anchored struct {
	hash   common.Hash
	header *types.Header
}

// resolve finds the block b selects among those the anchor backs: Latest
// (and nil) is the anchor's head, Finalized its finalized block, a
// BlockHash either of them. A BlockNumber or another BlockHash is backed
// when it is one of the 256 blocks below the head: its header, and those
// between it and the head, are fetched in one batch and chained by their
// parent hashes (chain.go). Every other selector (Pending, Safe, Earliest,
// a block the anchor has not reached or that is older) is an
// *nodeaccess.InputError naming it, and nothing is sent.
func (v *Client) resolve(ctx context.Context, b evm.Block) (anchored, error) {
	switch b := b.(type) {
	case nil:
	case evm.Tag:
		if b != evm.Latest && b != evm.Finalized {
			return anchored{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("tag %q refused: a verified read needs a block the anchor backs (latest, finalized, a block hash or number at most 256 blocks below the head)", string(b))}
		}
	case evm.BlockNumber, evm.BlockHash:
	default:
		return anchored{}, &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("block selector of type %T refused", b)}
	}
	head, fin, err := v.a.ExecutionBlocks(ctx)
	if err != nil {
		return anchored{}, fmt.Errorf("the anchor: %w", err)
	}
	if head == (common.Hash{}) || fin == (common.Hash{}) {
		return anchored{}, fmt.Errorf("%w: the anchor has no verified execution block yet (head %s, finalized %s)", nodeaccess.ErrUnavailable, head.Hex(), fin.Hex())
	}
	switch b := b.(type) {
	case nil:
		return anchored{hash: head}, nil
	case evm.Tag:
		if b == evm.Finalized {
			return anchored{hash: fin}, nil
		}
		return anchored{hash: head}, nil
	case evm.BlockHash:
		if b.Hash == head || b.Hash == fin {
			return anchored{hash: b.Hash}, nil
		}
		return v.recent(ctx, head, b)
	default: // evm.BlockNumber
		return v.recent(ctx, head, b)
	}
}
