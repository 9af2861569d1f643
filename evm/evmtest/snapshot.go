package evmtest

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/core/types"
)

// Snapshot is a point of a Server's chain that Revert takes the chain back
// to: its head, safe and finalized blocks. Take one with Server.Snapshot.
// The zero Snapshot is none.
type Snapshot struct {
	srv                   *Server
	head, safe, finalized *types.Header
}

// Block returns the number of the snapshot's head block.
func (sn Snapshot) Block() uint64 {
	if sn.head == nil {
		return 0
	}
	return sn.head.Number.Uint64()
}

// Snapshot returns the chain's current point, for Revert: take it before a
// test changes the chain, revert to it afterwards, and the next test finds
// the chain as it was, without the cost of a new Server.
//
//	snap := srv.Snapshot()
//	t.Cleanup(func() { require.NoError(t, srv.Revert(snap)) })
func (s *Server) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	bc := s.chain.BlockChain()
	return Snapshot{srv: s, head: bc.CurrentBlock(), safe: bc.CurrentSafeBlock(), finalized: bc.CurrentFinalBlock()}
}

// Revert takes the chain back to snap: the blocks mined since are no longer
// canonical (a reorganisation, as a node sees one), so the state, the head
// number, the "safe" and "finalized" blocks, balances and nonces are the
// snapshot's again, and the transactions of the dropped blocks are gone
// (eth_getTransactionReceipt answers null, ots_getInternalOperations "not
// found"). Transactions waiting in the pool are dropped too. The next Commit
// mines the snapshot's head number plus one again, with another hash.
//
// What Revert does not take back: the clock (the next block is later than
// every block mined before, see AdjustTime), the dropped blocks themselves,
// which stay readable by hash as a node keeps the blocks of a side chain,
// and anything outside the chain (Requests, faults). A snapshot stays valid
// after Revert, so one snapshot can be reverted to many times; reverting to
// a snapshot of a dropped branch makes that branch canonical again.
//
// It fails for the zero Snapshot or another Server's, and after Close
// (ErrClosed).
func (s *Server) Revert(snap Snapshot) error {
	if snap.srv == nil {
		return errors.New("evmtest: Revert: the zero Snapshot")
	}
	if snap.srv != s {
		return errors.New("evmtest: Revert: the Snapshot is another Server's")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	bc := s.chain.BlockChain()
	pool := s.chain.TxPool()
	if bc.CurrentBlock().Hash() != snap.head.Hash() {
		// go-ethereum's SimulatedBeacon.Fork would refuse while a
		// transaction waits in the pool, and one can arrive at any moment
		// over HTTP; the pool is emptied below anyway. The next block is
		// built on the chain's head.
		block := bc.GetBlockByHash(snap.head.Hash())
		if block == nil {
			return fmt.Errorf("evmtest: Revert to block %d: block %s not found", snap.Block(), snap.head.Hash())
		}
		if _, err := bc.SetCanonical(block); err != nil {
			return fmt.Errorf("evmtest: Revert to block %d: %w", snap.Block(), err)
		}
	}
	bc.SetSafe(snap.safe)
	bc.SetFinalized(snap.finalized)
	// On a reorganisation the pool takes back the dropped blocks'
	// transactions, as a node's does; a revert forgets them. Clear waits
	// for the pool's reset to the new head, then empties it, so that the
	// nonces the next transaction reads are the snapshot's.
	pool.Clear()
	return nil
}
