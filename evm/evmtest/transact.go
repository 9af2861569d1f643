package evmtest

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
)

// ErrTxFailed is returned (wrapped) by Transact when the transaction was
// mined but failed (receipt status 0).
var ErrTxFailed = errors.New("evmtest: transaction failed")

// Commit seals a block with the transactions waiting in the pool (none is
// fine: the block is empty) and returns its hash. Blocks are only made by
// Commit, Transact and AdjustTime: the chain does not mine on its own. The
// block's timestamp is the wall clock's, or, when the chain is ahead of the
// wall clock, one second after the latest block sealed (after a Revert,
// that may be a dropped block; see AdjustTime).
//
// Commit panics when called after Close, and if the block cannot be sealed
// (which only a failure inside go-ethereum causes). It has no error result,
// as go-ethereum's simulated backend's Commit has none, and returning the
// hash of a block that was not made would let a test go on against a chain
// that is not what it believes; a panic stops it where the mistake is.
func (s *Server) Commit() common.Hash {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		panic("evmtest: Commit on a closed Server")
	}
	h, err := s.commit()
	if err != nil {
		panic("evmtest: Commit: " + err.Error())
	}
	return h
}

// commit seals a block at the wall clock's time and returns its hash. The
// caller holds mu.
func (s *Server) commit() (common.Hash, error) {
	if err := s.chain.Seal(uint64(time.Now().Unix())); err != nil {
		return common.Hash{}, err
	}
	return s.chain.BlockChain().CurrentBlock().Hash(), nil
}

// SendTransaction adds a signed transaction to the pool; the next Commit
// mines it. Sign with types.LatestSignerForChainID(big.NewInt(ChainID)).
// After Close it returns ErrClosed.
func (s *Server) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return s.ec.SendTransaction(ctx, tx)
}

// Transact sends a transaction from from to to (nil: a contract creation
// with data as its creation code) carrying value wei (nil: none) and the
// call data data, mines a block with it and returns its receipt. The gas
// limit is estimated first: a transaction the node estimates to fail (a
// revert) is not sent, and the estimate's error is returned. A transaction
// that is mined and fails returns its receipt and an error matching
// ErrTxFailed. After Close it returns ErrClosed.
func (s *Server) Transact(ctx context.Context, from Account, to *common.Address, value *big.Int, data []byte) (*types.Receipt, error) {
	if from.Key == nil {
		return nil, errors.New("evmtest: Transact: from has no key")
	}
	if crypto.PubkeyToAddress(from.Key.PublicKey) != from.Address {
		return nil, errors.New("evmtest: Transact: from.Address is not the key's address")
	}
	if value == nil {
		value = new(big.Int)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	nonce, err := s.ec.PendingNonceAt(ctx, from.Address)
	if err != nil {
		return nil, fmt.Errorf("evmtest: nonce: %w", err)
	}
	head, err := s.ec.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("evmtest: head: %w", err)
	}
	gas, err := s.ec.EstimateGas(ctx, ethereum.CallMsg{From: from.Address, To: to, Value: value, Data: data})
	if err != nil {
		return nil, fmt.Errorf("evmtest: estimating gas: %w", err)
	}
	tip := big.NewInt(params.GWei)
	tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(big.NewInt(ChainID)), &types.DynamicFeeTx{
		ChainID:   big.NewInt(ChainID),
		Nonce:     nonce,
		GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	})
	if err != nil {
		return nil, fmt.Errorf("evmtest: signing: %w", err)
	}
	if err := s.ec.SendTransaction(ctx, tx); err != nil {
		return nil, fmt.Errorf("evmtest: sending: %w", err)
	}
	if _, err := s.commit(); err != nil {
		return nil, fmt.Errorf("evmtest: mining %s: %w", tx.Hash().Hex(), err)
	}
	receipt, err := s.ec.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		return nil, fmt.Errorf("evmtest: transaction %s was not mined: %w", tx.Hash().Hex(), err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return receipt, fmt.Errorf("%w: %s in block %d", ErrTxFailed, tx.Hash().Hex(), receipt.BlockNumber)
	}
	return receipt, nil
}
