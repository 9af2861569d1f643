package tontest

import (
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
)

//go:embed data/v2_getBlockTransactionsExt_blockpi_mc39984096.json data/v3_transactions_axelar_amplifier.json
var recorded embed.FS

const (
	recordedBlockFile = "data/v2_getBlockTransactionsExt_blockpi_mc39984096.json"
	recordedTxFile    = "data/v3_transactions_axelar_amplifier.json"
)

// DefaultAccount is the account the server knows by default in API v3
// (a testnet contract, from the recorded v3 transaction, data/SOURCES.md):
//
//   - accountStates lists two historical states of it, the one before and
//     the one after the recorded transaction (lt 36582626000003): balances
//     2717267789 and 2715939331 nanotons, both active;
//   - pendingTransactions lists that transaction as its one pending
//     transaction (total fees 6617389 nanotons), served as emulated with
//     finality "pending", as the indexer lists pending transactions.
//
// Any other account has no states (accountStates answers an empty list)
// and nothing pending (pendingTransactions answers 404 "emulated traces not
// found", which ton.Client reads as an empty page). Its String is the raw
// form a query's Accounts takes.
func DefaultAccount() ton.Address {
	a, err := ton.ParseAddress(defaultAccount)
	if err != nil {
		panic("tontest: the default account does not parse: " + err.Error()) // a build defect
	}
	return a
}

// defaultAccount is DefaultAccount as the indexer writes it.
const defaultAccount = "0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A"

// DefaultBlock returns the block the server serves by default, as it
// serves it: masterchain block 39984096, (-1,8000000000000000,39984096),
// recorded from toncenter's getBlockTransactionsExt (data/SOURCES.md), with
// its real id (root and file hashes) and its three real transactions, each
// with its entry (in_msg, out_msgs, …) in Transaction. A query names it by
// DefaultBlock().ID.BlockRef. The caller may change what it gets.
func DefaultBlock() Block {
	b, err := parseRecordedBlock()
	if err != nil {
		panic("tontest: the embedded block does not decode: " + err.Error()) // a build defect
	}
	return b
}

func (s *store) loadDefaults() error {
	b, err := parseRecordedBlock()
	if err != nil {
		return fmt.Errorf("tontest: the embedded block does not decode: %w", err)
	}
	if err := s.setBlock(b); err != nil {
		return err
	}
	acct, states, pending, err := parseRecordedTx()
	if err != nil {
		return fmt.Errorf("tontest: the embedded v3 transaction does not decode: %w", err)
	}
	if err := s.setStates(acct, states); err != nil {
		return err
	}
	return s.setPending(acct, pending)
}

func mustRead(name string) []byte {
	b, err := recorded.ReadFile(name)
	if err != nil {
		panic("tontest: embedded file missing: " + name) // a build defect
	}
	return b
}

// parseRecordedBlock reads the recorded getBlockTransactionsExt body.
func parseRecordedBlock() (Block, error) {
	var body struct {
		Result struct {
			ID struct {
				Workchain int32  `json:"workchain"`
				Shard     string `json:"shard"`
				Seqno     uint32 `json:"seqno"`
				RootHash  string `json:"root_hash"`
				FileHash  string `json:"file_hash"`
			} `json:"id"`
			Transactions []json.RawMessage `json:"transactions"`
		} `json:"result"`
	}
	if err := json.Unmarshal(mustRead(recordedBlockFile), &body); err != nil {
		return Block{}, err
	}
	id := body.Result.ID
	var b Block
	b.ID.Workchain, b.ID.Seqno = id.Workchain, id.Seqno
	shard, err := strconv.ParseInt(id.Shard, 10, 64) // v2 writes the decimal form
	if err != nil {
		return Block{}, err
	}
	b.ID.Shard = ton.ShardID(shard)
	if b.ID.RootHash, err = ton.ParseHash(id.RootHash); err != nil {
		return Block{}, err
	}
	if b.ID.FileHash, err = ton.ParseHash(id.FileHash); err != nil {
		return Block{}, err
	}
	for i, raw := range body.Result.Transactions {
		tx, err := parseRecordedBlockTx(raw)
		if err != nil {
			return Block{}, fmt.Errorf("transaction %d: %w", i, err)
		}
		b.Transactions = append(b.Transactions, tx)
	}
	return b, nil
}

func parseRecordedBlockTx(raw json.RawMessage) (ton.BlockTransaction, error) {
	var w struct {
		Account       string `json:"account"`
		Utime         int64  `json:"utime"`
		Data          string `json:"data"`
		TransactionID struct {
			LT   string `json:"lt"`
			Hash string `json:"hash"`
		} `json:"transaction_id"`
		Fee        string `json:"fee"`
		StorageFee string `json:"storage_fee"`
		OtherFee   string `json:"other_fee"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return ton.BlockTransaction{}, err
	}
	tx := ton.BlockTransaction{Time: time.Unix(w.Utime, 0).UTC(), Transaction: raw}
	var err error
	if tx.Account, err = ton.ParseAddress(w.Account); err != nil {
		return tx, err
	}
	if tx.Hash, err = ton.ParseHash(w.TransactionID.Hash); err != nil {
		return tx, err
	}
	if tx.LT, err = parseUint(w.TransactionID.LT); err != nil {
		return tx, err
	}
	if tx.Data, err = base64.StdEncoding.DecodeString(w.Data); err != nil {
		return tx, err
	}
	for _, f := range []struct {
		dst **big.Int
		s   string
	}{{&tx.Fee, w.Fee}, {&tx.StorageFee, w.StorageFee}, {&tx.OtherFee, w.OtherFee}} {
		v, ok := new(big.Int).SetString(f.s, 10)
		if !ok {
			return tx, fmt.Errorf("fee %q is not a decimal amount", f.s)
		}
		*f.dst = v
	}
	return tx, nil
}

// parseRecordedTx reads the recorded v3 transaction: its account, the
// account's states before and after it (from account_state_before and
// account_state_after; their last transaction is prev_trans_lt and
// prev_trans_hash, and the transaction itself), and the transaction as a
// pending one.
func parseRecordedTx() (ton.Address, []ton.AccountState, []ton.PendingTransaction, error) {
	var body struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	if err := json.Unmarshal(mustRead(recordedTxFile), &body); err != nil {
		return ton.Address{}, nil, nil, err
	}
	if len(body.Transactions) != 1 {
		return ton.Address{}, nil, nil, fmt.Errorf("%d transactions, want 1", len(body.Transactions))
	}
	raw := body.Transactions[0]
	type wireState struct {
		Hash     string `json:"hash"`
		Balance  string `json:"balance"`
		Status   string `json:"account_status"`
		DataHash string `json:"data_hash"`
		CodeHash string `json:"code_hash"`
	}
	var w struct {
		Account       string          `json:"account"`
		Hash          string          `json:"hash"`
		LT            string          `json:"lt"`
		Now           int64           `json:"now"`
		MCBlockSeqno  uint32          `json:"mc_block_seqno"`
		TraceID       string          `json:"trace_id"`
		PrevTransHash string          `json:"prev_trans_hash"`
		PrevTransLT   string          `json:"prev_trans_lt"`
		TotalFees     string          `json:"total_fees"`
		Before        json.RawMessage `json:"account_state_before"`
		After         json.RawMessage `json:"account_state_after"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return ton.Address{}, nil, nil, err
	}
	acct, err := ton.ParseAddress(w.Account)
	if err != nil {
		return ton.Address{}, nil, nil, err
	}
	// Served as the indexer serves a pending transaction: emulated, and
	// pending (the recording, from /api/v3/transactions, says emulated
	// false and has no finality).
	tx := ton.PendingTransaction{Account: acct, Now: time.Unix(w.Now, 0).UTC(), MCBlockSeqno: w.MCBlockSeqno, TraceID: w.TraceID,
		Emulated: true, Finality: ton.FinalityPending, Raw: raw}
	var ok bool
	if tx.Hash, err = ton.ParseHash(w.Hash); err != nil {
		return acct, nil, nil, err
	}
	if tx.LT, err = parseUint(w.LT); err != nil {
		return acct, nil, nil, err
	}
	if tx.TotalFees, ok = new(big.Int).SetString(w.TotalFees, 10); !ok {
		return acct, nil, nil, fmt.Errorf("total_fees %q is not a decimal amount", w.TotalFees)
	}
	state := func(rawState json.RawMessage, lt, hash string) (ton.AccountState, error) {
		var ws wireState
		if err := json.Unmarshal(rawState, &ws); err != nil {
			return ton.AccountState{}, err
		}
		st := ton.AccountState{Account: acct, Status: ton.AccountStatus(ws.Status), Raw: rawState}
		var err error
		var ok bool
		if st.Balance, ok = new(big.Int).SetString(ws.Balance, 10); !ok {
			return st, fmt.Errorf("balance %q is not a decimal amount", ws.Balance)
		}
		for _, h := range []struct {
			dst *ton.Hash
			s   string
		}{{&st.Hash, ws.Hash}, {&st.CodeHash, ws.CodeHash}, {&st.DataHash, ws.DataHash}, {&st.LastTransactionHash, hash}} {
			if *h.dst, err = ton.ParseHash(h.s); err != nil {
				return st, err
			}
		}
		st.LastTransactionLT, err = parseUint(lt)
		return st, err
	}
	before, err := state(w.Before, w.PrevTransLT, w.PrevTransHash)
	if err != nil {
		return acct, nil, nil, fmt.Errorf("account_state_before: %w", err)
	}
	after, err := state(w.After, w.LT, w.Hash)
	if err != nil {
		return acct, nil, nil, fmt.Errorf("account_state_after: %w", err)
	}
	return acct, []ton.AccountState{before, after}, []ton.PendingTransaction{tx}, nil
}

func parseUint(s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an unsigned 64-bit integer", s)
	}
	return n, nil
}
