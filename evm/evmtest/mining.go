package evmtest

import (
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/nodeaccess/nodeaccess/evm/evmtest/internal/node"
)

// MineEvery makes the server mine a block every d, as a chain does on its
// own, with the transactions waiting in the pool (none: an empty block),
// until MineEvery(0) or Close. A second call replaces the first one's
// pace. Blocks are mined as Commit mines them; a block that cannot be
// sealed stops the mining (Commit would panic).
func (s *Server) MineEvery(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopMining != nil {
		close(s.stopMining)
		s.stopMining = nil
	}
	if d <= 0 || s.closed {
		return
	}
	stop := make(chan struct{})
	s.stopMining = stop
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			s.mu.Lock()
			var err error
			select {
			case <-stop:
			default:
				if !s.closed {
					_, err = s.commit()
				}
			}
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
}

// Reorg replaces the chain's newest depth blocks with another branch of as
// many blocks, as a reorganisation does: the first block of the new branch
// holds the transactions of the blocks replaced, in their order, and the
// others are empty, so that the replaced blocks' logs leave the canonical
// chain (eth_getLogs by their block hash still answers them, as a node
// keeps side chains) and come back in one new block, with new block
// hashes and log indexes. The head's number stays the same. The safe and
// finalized blocks move back to the branch point when they were above it
// (evmtest's safe block is the head, so a Reorg replaces safe blocks, which
// a real chain does not).
//
// It fails for a depth below 1 or past the genesis, when transactions wait
// in the pool (mine them with Commit first), and after Close (ErrClosed).
func (s *Server) Reorg(depth int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	bc, pool := s.chain.BlockChain(), s.chain.TxPool()
	head := bc.CurrentBlock().Number.Uint64()
	if depth < 1 || uint64(depth) > head {
		return fmt.Errorf("evmtest: Reorg: depth %d: the chain has blocks 1 to %d to replace", depth, head)
	}
	if err := pool.Sync(); err != nil {
		return fmt.Errorf("evmtest: Reorg: %w", err)
	}
	if s.chain.PendingCount() != 0 {
		return errors.New("evmtest: Reorg: transactions wait in the pool: Commit them first")
	}
	base := head - uint64(depth)
	var txs []*types.Transaction
	for n := base + 1; n <= head; n++ {
		txs = append(txs, bc.GetBlockByNumber(n).Transactions()...)
	}
	anc := bc.GetBlockByNumber(base)
	if _, err := bc.SetCanonical(anc); err != nil {
		return fmt.Errorf("evmtest: Reorg to block %d: %w", base, err)
	}
	bc.SetSafe(anc.Header())
	if fin := bc.CurrentFinalBlock(); fin != nil && fin.Number.Uint64() > base {
		bc.SetFinalized(anc.Header())
	}
	pool.Clear()
	for i, err := range pool.Add(txs, true) {
		if err != nil {
			return fmt.Errorf("evmtest: Reorg: transaction %s again: %w", txs[i].Hash().Hex(), err)
		}
	}
	for range depth {
		if _, err := s.commit(); err != nil {
			return fmt.Errorf("evmtest: Reorg: %w", err)
		}
	}
	return nil
}

// LogsLimit is a provider's cap on eth_getLogs, for Server.LimitLogs.
type LogsLimit struct {
	// MaxRange is how many blocks one range may span; 0: no cap.
	MaxRange uint64
	// MaxResults is how many logs one answer may hold; 0: no cap.
	MaxResults int
	// Code is the refusal's JSON-RPC error code; 0 means -32602.
	Code int
	// Message is the refusal's message, in which {max} is the cap, and
	// {from} and {to} (hex, "0x1a") or {fromd} and {tod} (decimal) are the
	// range that would pass: from the range's first block, the blocks the
	// cap allows (the blocks whose logs fit, for MaxResults; at least one).
	// "" means go-ethereum's "exceed maximum block range {max}" for a
	// range and "query returned more than {max} results" for a count.
	Message string
}

// LimitLogs makes eth_getLogs refuse what the limit caps, as providers
// do, with the limit's code and message; LimitLogs(LogsLimit{}) lifts
// it. It applies to every eth_getLogs, those of EthClient included.
//
//	srv.LimitLogs(evmtest.LogsLimit{MaxResults: 10000, Code: -32005,
//		Message: "query returned more than {max} results. Try with this block range [{from}, {to}]."})
func (s *Server) LimitLogs(l LogsLimit) {
	s.chain.SetLogsLimit(node.LogsLimit{MaxRange: l.MaxRange, MaxResults: l.MaxResults, Code: l.Code, Message: l.Message})
}
