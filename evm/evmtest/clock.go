package evmtest

import (
	"errors"
	"fmt"
	"time"
)

// AdjustTime moves the chain's clock forward: it mines an empty block whose
// timestamp is d after the head's, as go-ethereum's simulated backend's
// AdjustTime does (after a Revert past later blocks, one second after the
// latest block ever sealed, dropped ones included, if that is later). Use
// it for code that reads a block's time or a contract that reads
// block.timestamp (vesting, deadlines, rate windows).
//
// Timestamps are whole seconds: d is truncated to seconds, and a block is
// always at least one second after its parent, so a d under a second (zero
// included) gives one second. Time never goes back: later blocks made by
// Commit and Transact carry the wall clock's time, or, while the chain is
// ahead of the wall clock, one second after the latest block sealed;
// Revert does not take the clock back either. The genesis's time is 0
// (1970-01-01): on a server started WithoutScenario, Commit a block first
// to move the chain to the wall clock, or AdjustTime counts from 1970.
//
// It fails on a negative d, when transactions wait in the pool (mine them
// with Commit first: go-ethereum's rule, so that no transaction is mined
// at a time its sender did not choose), and after Close (ErrClosed).
func (s *Server) AdjustTime(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("evmtest: AdjustTime: negative duration %v: the chain's time only moves forward", d)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	// Wait for the pool to settle before reading its pending transactions
	// (go-ethereum's AdjustTime does not): a transaction just sent could be
	// missed (and mined in the adjusted block), one just mined still seen.
	if err := s.chain.TxPool().Sync(); err != nil {
		return fmt.Errorf("evmtest: AdjustTime: %w", err)
	}
	if s.chain.PendingCount() != 0 {
		return errors.New("evmtest: AdjustTime: could not adjust time on non-empty block")
	}
	parent := s.chain.BlockChain().CurrentBlock()
	if err := s.chain.Seal(parent.Time + uint64(d/time.Second)); err != nil {
		return fmt.Errorf("evmtest: AdjustTime: %w", err)
	}
	return nil
}
