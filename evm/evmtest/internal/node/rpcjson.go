package node

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
)

// The JSON-RPC shapes of headers, blocks, transactions and receipts, member
// for member as go-ethereum's eth namespace answers them (its
// internal/ethapi), so that ethclient and every other client read them as
// they read a geth node's.

// headerJSON returns the header's members.
func headerJSON(h *types.Header) map[string]any {
	m := map[string]any{
		"number":           (*hexutil.Big)(h.Number),
		"hash":             h.Hash(),
		"parentHash":       h.ParentHash,
		"nonce":            h.Nonce,
		"mixHash":          h.MixDigest,
		"sha3Uncles":       h.UncleHash,
		"logsBloom":        h.Bloom,
		"stateRoot":        h.Root,
		"miner":            h.Coinbase,
		"difficulty":       (*hexutil.Big)(h.Difficulty),
		"extraData":        hexutil.Bytes(h.Extra),
		"gasLimit":         hexutil.Uint64(h.GasLimit),
		"gasUsed":          hexutil.Uint64(h.GasUsed),
		"timestamp":        hexutil.Uint64(h.Time),
		"transactionsRoot": h.TxHash,
		"receiptsRoot":     h.ReceiptHash,
	}
	if h.BaseFee != nil {
		m["baseFeePerGas"] = (*hexutil.Big)(h.BaseFee)
	}
	if h.WithdrawalsHash != nil {
		m["withdrawalsRoot"] = h.WithdrawalsHash
	}
	if h.BlobGasUsed != nil {
		m["blobGasUsed"] = hexutil.Uint64(*h.BlobGasUsed)
	}
	if h.ExcessBlobGas != nil {
		m["excessBlobGas"] = hexutil.Uint64(*h.ExcessBlobGas)
	}
	if h.ParentBeaconRoot != nil {
		m["parentBeaconBlockRoot"] = h.ParentBeaconRoot
	}
	if h.RequestsHash != nil {
		m["requestsHash"] = h.RequestsHash
	}
	if h.BlockAccessListHash != nil {
		m["blockAccessListHash"] = h.BlockAccessListHash
	}
	if h.SlotNumber != nil {
		m["slotNumber"] = hexutil.Uint64(*h.SlotNumber)
	}
	return m
}

// blockJSON returns the block's members: the header's, its size, its
// transactions (hashes, or whole when full), uncles and withdrawals.
func blockJSON(b *types.Block, full bool, config *params.ChainConfig) map[string]any {
	m := headerJSON(b.Header())
	m["size"] = hexutil.Uint64(b.Size())
	txs := make([]any, len(b.Transactions()))
	for i, tx := range b.Transactions() {
		if full {
			txs[i] = txJSON(tx, b.Hash(), b.NumberU64(), b.Time(), uint64(i), b.BaseFee(), config)
		} else {
			txs[i] = tx.Hash()
		}
	}
	m["transactions"] = txs
	uncles := make([]common.Hash, len(b.Uncles()))
	for i, u := range b.Uncles() {
		uncles[i] = u.Hash()
	}
	m["uncles"] = uncles
	if b.Withdrawals() != nil {
		m["withdrawals"] = b.Withdrawals()
	}
	return m
}

// rpcTransaction is a transaction with where it was mined (the block
// members stay null for one in the pool).
type rpcTransaction struct {
	BlockHash           *common.Hash                 `json:"blockHash"`
	BlockNumber         *hexutil.Big                 `json:"blockNumber"`
	BlockTimestamp      *hexutil.Uint64              `json:"blockTimestamp"`
	From                common.Address               `json:"from"`
	Gas                 hexutil.Uint64               `json:"gas"`
	GasPrice            *hexutil.Big                 `json:"gasPrice"`
	GasFeeCap           *hexutil.Big                 `json:"maxFeePerGas,omitempty"`
	GasTipCap           *hexutil.Big                 `json:"maxPriorityFeePerGas,omitempty"`
	MaxFeePerBlobGas    *hexutil.Big                 `json:"maxFeePerBlobGas,omitempty"`
	Hash                common.Hash                  `json:"hash"`
	Input               hexutil.Bytes                `json:"input"`
	Nonce               hexutil.Uint64               `json:"nonce"`
	To                  *common.Address              `json:"to"`
	TransactionIndex    *hexutil.Uint64              `json:"transactionIndex"`
	Value               *hexutil.Big                 `json:"value"`
	Type                hexutil.Uint64               `json:"type"`
	Accesses            *types.AccessList            `json:"accessList,omitempty"`
	ChainID             *hexutil.Big                 `json:"chainId,omitempty"`
	BlobVersionedHashes []common.Hash                `json:"blobVersionedHashes,omitempty"`
	AuthorizationList   []types.SetCodeAuthorization `json:"authorizationList,omitempty"`
	V                   *hexutil.Big                 `json:"v"`
	R                   *hexutil.Big                 `json:"r"`
	S                   *hexutil.Big                 `json:"s"`
	YParity             *hexutil.Uint64              `json:"yParity,omitempty"`
}

// txJSON returns tx as mined at index of the block blockHash (the zero hash
// for a transaction in the pool). A mined 1559-style transaction shows the
// price it paid, min(tip + base fee, fee cap); one in the pool its fee cap.
func txJSON(tx *types.Transaction, blockHash common.Hash, number, time, index uint64, baseFee *big.Int, config *params.ChainConfig) *rpcTransaction {
	from, _ := types.Sender(types.MakeSigner(config, new(big.Int).SetUint64(number), time), tx)
	v, r, s := tx.RawSignatureValues()
	t := &rpcTransaction{
		Type: hexutil.Uint64(tx.Type()), From: from, Gas: hexutil.Uint64(tx.Gas()), GasPrice: (*hexutil.Big)(tx.GasPrice()),
		Hash: tx.Hash(), Input: tx.Data(), Nonce: hexutil.Uint64(tx.Nonce()), To: tx.To(), Value: (*hexutil.Big)(tx.Value()),
		V: (*hexutil.Big)(v), R: (*hexutil.Big)(r), S: (*hexutil.Big)(s),
	}
	mined := blockHash != (common.Hash{})
	if mined {
		t.BlockHash = &blockHash
		t.BlockNumber = (*hexutil.Big)(new(big.Int).SetUint64(number))
		t.BlockTimestamp = (*hexutil.Uint64)(&time)
		t.TransactionIndex = (*hexutil.Uint64)(&index)
	}
	if tx.Type() == types.LegacyTxType {
		if id := tx.ChainId(); id.Sign() != 0 {
			t.ChainID = (*hexutil.Big)(id)
		}
		return t
	}
	al := tx.AccessList()
	parity := hexutil.Uint64(v.Sign())
	t.Accesses, t.ChainID, t.YParity = &al, (*hexutil.Big)(tx.ChainId()), &parity
	if tx.Type() == types.AccessListTxType {
		return t
	}
	t.GasFeeCap, t.GasTipCap = (*hexutil.Big)(tx.GasFeeCap()), (*hexutil.Big)(tx.GasTipCap())
	if baseFee != nil && mined {
		price := new(big.Int).Add(tx.GasTipCap(), baseFee)
		if tx.GasFeeCapIntCmp(price) < 0 {
			price = tx.GasFeeCap()
		}
		t.GasPrice = (*hexutil.Big)(price)
	} else {
		t.GasPrice = (*hexutil.Big)(tx.GasFeeCap())
	}
	switch tx.Type() {
	case types.BlobTxType:
		t.MaxFeePerBlobGas = (*hexutil.Big)(tx.BlobGasFeeCap())
		t.BlobVersionedHashes = tx.BlobHashes()
	case types.SetCodeTxType:
		t.AuthorizationList = tx.SetCodeAuthorizations()
	}
	return t
}

// pendingTxJSON returns a transaction of the pool, priced at the next
// block's base fee.
func pendingTxJSON(tx *types.Transaction, head *types.Header, config *params.ChainConfig) *rpcTransaction {
	return txJSON(tx, common.Hash{}, head.Number.Uint64(), head.Time, 0, eip1559.CalcBaseFee(config, head), config)
}

// receiptJSON returns the receipt of tx, mined at index of the block.
func receiptJSON(r *types.Receipt, blockHash common.Hash, number uint64, signer types.Signer, tx *types.Transaction, index int) map[string]any {
	from, _ := types.Sender(signer, tx)
	m := map[string]any{
		"blockHash":         blockHash,
		"blockNumber":       hexutil.Uint64(number),
		"transactionHash":   tx.Hash(),
		"transactionIndex":  hexutil.Uint64(index),
		"from":              from,
		"to":                tx.To(),
		"gasUsed":           hexutil.Uint64(r.GasUsed),
		"cumulativeGasUsed": hexutil.Uint64(r.CumulativeGasUsed),
		"contractAddress":   nil,
		"logs":              r.Logs,
		"logsBloom":         r.Bloom,
		"type":              hexutil.Uint(tx.Type()),
		"effectiveGasPrice": (*hexutil.Big)(r.EffectiveGasPrice),
	}
	if len(r.PostState) > 0 {
		m["root"] = hexutil.Bytes(r.PostState)
	} else {
		m["status"] = hexutil.Uint(r.Status)
	}
	if r.Logs == nil {
		m["logs"] = []*types.Log{}
	}
	if tx.Type() == types.BlobTxType {
		m["blobGasUsed"] = hexutil.Uint64(r.BlobGasUsed)
		m["blobGasPrice"] = (*hexutil.Big)(r.BlobGasPrice)
	}
	if r.ContractAddress != (common.Address{}) {
		m["contractAddress"] = r.ContractAddress
	}
	return m
}
