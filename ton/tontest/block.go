package tontest

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
)

// Block is a block the server serves: its full identifier and its
// transactions.
//
// Each transaction is served as toncenter's getBlockTransactionsExt writes
// one (the "raw.transaction" of the recorded body): the typed fields give
// account (raw form, and the bounceable user-friendly form in "address"),
// transaction_id (lt and hash), utime, data, fee, storage_fee and other_fee;
// a typed field left unset (nil fee, nil data, zero time) is left out.
// InMsg and OutMsgs, when set, are served as tonlib's raw.message (see
// ton.Message; ExtraCurrencies as tonlib's list; Bounce, Bounced, CreatedAt
// and the v3 members ExtraFlags, Opcode, DecodedOpcode and HashNorm have
// no place in that shape).
// The other members of the entry (and in_msg, out_msgs when not set) come
// from the Transaction raw JSON when it is a JSON object, or from its
// "transaction" member when the raw JSON is in the {account, hash, lt,
// transaction} shape; out_msgs is [] when neither has any.
type Block struct {
	// ID is the block: workchain, shard and seqno (the reference a request
	// names), and the root and file hashes the answers carry.
	ID ton.BlockID
	// Transactions are the block's transactions, in any order.
	Transactions []ton.BlockTransaction
	// Unreadable lists, by index in Transactions, the transactions the
	// server cannot read, as tonlib cannot convert a transaction whose
	// balance does not fit its int64: a getBlockTransactionsExt page that
	// would hold one is answered with toncenter's 500 {"ok":false,"error":
	// "Error occured while creating tonlib_api::raw_transaction: Failed to
	// unpack balance (2)","code":500} (toncenter/ton-http-api issue 183),
	// pages that stop before it are served, and getBlockTransactions lists
	// it like any other.
	Unreadable []int
}

type blockRec struct {
	ref    ton.BlockRef
	idJSON []byte // the "id" member
	txs    []txRec
	setAt  time.Time // when it was set: WithLag counts from here
}

type txRec struct {
	account    ton.Address
	lt         uint64
	hash       ton.Hash
	entry      []byte
	unreadable bool
}

func (s *store) setBlock(b Block) error {
	rec, err := renderBlock(b)
	if err != nil {
		return fmt.Errorf("tontest: block %s: %w", b.ID.BlockRef, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocks[rec.ref] = rec
	return nil
}

func (s *store) removeBlock(ref ton.BlockRef) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.blocks, ref)
}

func (s *store) block(ref ton.BlockRef) *blockRec {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.blocks[ref] // never modified after it is stored
}

func renderBlock(b Block) (*blockRec, error) {
	if b.ID.Shard == 0 {
		return nil, fmt.Errorf("0 is not a shard id")
	}
	rec := &blockRec{ref: b.ID.BlockRef, txs: make([]txRec, 0, len(b.Transactions)), setAt: time.Now()}
	unreadable := make(map[int]bool, len(b.Unreadable))
	for _, i := range b.Unreadable {
		if i < 0 || i >= len(b.Transactions) || unreadable[i] {
			return nil, fmt.Errorf("the Unreadable field: %d is not the index of a transaction (there are %d) listed once", i, len(b.Transactions))
		}
		unreadable[i] = true
	}
	rec.idJSON = renderObject([]member{
		{"@type", jsonString("ton.blockIdExt")},
		{"workchain", appendInt(nil, int64(b.ID.Workchain))},
		{"shard", jsonString(strconv.FormatInt(int64(b.ID.Shard), 10))},
		{"seqno", jsonUint(uint64(b.ID.Seqno))},
		{"root_hash", jsonString(b.ID.RootHash.String())},
		{"file_hash", jsonString(b.ID.FileHash.String())},
	}, nil)
	for i := range b.Transactions {
		tx := &b.Transactions[i]
		if int32(tx.Account.Workchain) != b.ID.Workchain {
			return nil, fmt.Errorf("transaction %d: account %s is not on the block's workchain %d", i, tx.Account, b.ID.Workchain)
		}
		entry, err := renderBlockTx(tx)
		if err != nil {
			return nil, fmt.Errorf("transaction %d: %w", i, err)
		}
		rec.txs = append(rec.txs, txRec{account: tx.Account, lt: tx.LT, hash: tx.Hash, entry: entry, unreadable: unreadable[i]})
	}
	// A block lists its transactions by account id, then logical time:
	// the order lite servers walk them in, and the one the cursor follows.
	slices.SortFunc(rec.txs, func(a, b txRec) int {
		if c := bytes.Compare(a.account.ID[:], b.account.ID[:]); c != 0 {
			return c
		}
		return cmp.Compare(a.lt, b.lt)
	})
	for i := 1; i < len(rec.txs); i++ {
		if rec.txs[i].account == rec.txs[i-1].account && rec.txs[i].lt == rec.txs[i-1].lt {
			return nil, fmt.Errorf("two transactions of account %s have lt %d", rec.txs[i].account, rec.txs[i].lt)
		}
	}
	return rec, nil
}

// renderMessage writes a message as tonlib's raw.message (the v2 shape):
// addresses as accountAddress objects, "" for none (an external
// message), amounts as decimal strings, extra currencies (when not nil) as
// tonlib's list of extraCurrency with the id as a signed 32-bit number (so
// currency 4294967279 is -17), the comment as msg.dataText, else the body
// as msg.dataRaw. Bounce, Bounced, CreatedAt, ExtraFlags, Opcode,
// DecodedOpcode and HashNorm have no place in that shape and are not
// served.
func renderMessage(m *ton.Message) ([]byte, error) {
	for _, a := range []struct {
		name string
		v    *big.Int
	}{{"Value", m.Value}, {"FwdFee", m.FwdFee}, {"IHRFee", m.IHRFee}} {
		if err := checkAmount(a.name, a.v); err != nil {
			return nil, err
		}
	}
	for id, v := range m.ExtraCurrencies {
		if v == nil || v.Sign() < 0 {
			return nil, fmt.Errorf("extra currency %d: amount %v is not a non-negative number", id, v)
		}
	}
	addr := func(a *ton.Address) []byte {
		s := ""
		if a != nil {
			s = a.Friendly(true, false).String()
		}
		return renderObject([]member{{"@type", jsonString("accountAddress")}, {"account_address", jsonString(s)}}, nil)
	}
	ms := []member{{"@type", jsonString("raw.message")}}
	if m.Hash != (ton.Hash{}) {
		ms = append(ms, member{"hash", jsonHash(m.Hash)})
	}
	ms = append(ms,
		member{"source", addr(m.Source)},
		member{"destination", addr(m.Destination)},
		member{"value", jsonAmount(m.Value)},
	)
	if m.ExtraCurrencies != nil {
		ms = append(ms, member{"extra_currencies", renderExtra(m.ExtraCurrencies)})
	}
	ms = append(ms,
		member{"fwd_fee", jsonAmount(m.FwdFee)},
		member{"ihr_fee", jsonAmount(m.IHRFee)},
		member{"created_lt", jsonUintString(m.CreatedLt)},
		member{"body_hash", jsonHash(m.BodyHash)},
	)
	var data []member
	if m.HasComment {
		data = []member{{"@type", jsonString("msg.dataText")}, {"text", jsonString(base64.StdEncoding.EncodeToString([]byte(m.Comment)))}}
	} else {
		data = []member{{"@type", jsonString("msg.dataRaw")}, {"body", jsonString(base64.StdEncoding.EncodeToString(m.Body))}, {"init_state", jsonString("")}}
	}
	return renderObject(append(ms, member{"msg_data", renderObject(data, nil)}), nil), nil
}

// renderExtra writes extra currencies as tonlib's list, by unsigned id.
func renderExtra(m map[uint32]*big.Int) []byte {
	b := []byte{'['}
	for i, id := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, renderObject([]member{
			{"@type", jsonString("extraCurrency")},
			{"id", appendInt(nil, int64(int32(id)))},
			{"amount", jsonString(m[id].String())},
		}, nil)...)
	}
	return append(b, ']')
}

// blockTxSkip are the members of a v2 transaction entry that the typed
// fields own: a raw entry's own values for them are never served.
var blockTxSkip = []string{"@type", "address", "utime", "data", "transaction_id", "fee", "storage_fee", "other_fee", "account", "hash", "lt", "transaction"}

func renderBlockTx(tx *ton.BlockTransaction) ([]byte, error) {
	if tx.LT == 0 {
		return nil, fmt.Errorf("lt is 0 (logical times start at 1)")
	}
	fees := []struct {
		name string
		v    *big.Int
	}{{"fee", tx.Fee}, {"storage_fee", tx.StorageFee}, {"other_fee", tx.OtherFee}}
	for _, f := range fees {
		if err := checkAmount(f.name, f.v); err != nil {
			return nil, err
		}
	}
	raw, err := rawObject(tx.Transaction)
	if err != nil {
		return nil, fmt.Errorf("the Transaction field: %w", err)
	}
	if inner := bytes.TrimSpace(raw["transaction"]); len(inner) > 0 && inner[0] == '{' {
		if raw, err = rawObject(inner); err != nil {
			return nil, fmt.Errorf("the Transaction field's transaction member: %w", err)
		}
	}
	ms := []member{
		{"@type", jsonString("raw.transaction")},
		{"address", renderObject([]member{
			{"@type", jsonString("accountAddress")},
			{"account_address", jsonString(tx.Account.Friendly(true, false).String())},
		}, nil)},
	}
	if !tx.Time.IsZero() {
		ms = append(ms, member{"utime", appendInt(nil, tx.Time.Unix())})
	}
	if tx.Data != nil {
		ms = append(ms, member{"data", jsonBOC(tx.Data)})
	}
	ms = append(ms, member{"transaction_id", renderObject([]member{
		{"@type", jsonString("internal.transactionId")},
		{"lt", jsonUintString(tx.LT)},
		{"hash", jsonString(tx.Hash.String())},
	}, nil)})
	for _, f := range fees {
		if f.v != nil {
			ms = append(ms, member{f.name, jsonAmount(f.v)})
		}
	}
	var inMsg, outMsgs []byte
	if tx.InMsg != nil {
		if inMsg, err = renderMessage(tx.InMsg); err != nil {
			return nil, fmt.Errorf("InMsg: %w", err)
		}
	}
	switch {
	case tx.OutMsgs != nil:
		outMsgs = []byte{'['}
		for i := range tx.OutMsgs {
			m, err := renderMessage(&tx.OutMsgs[i])
			if err != nil {
				return nil, fmt.Errorf("OutMsgs %d: %w", i, err)
			}
			if i > 0 {
				outMsgs = append(outMsgs, ',')
			}
			outMsgs = append(outMsgs, m...)
		}
		outMsgs = append(outMsgs, ']')
	case raw["out_msgs"] == nil:
		outMsgs = []byte("[]")
	}
	ms = append(ms, member{"in_msg", inMsg}, member{"out_msgs", outMsgs}, member{"account", jsonString(tx.Account.String())})
	return renderObject(ms, raw, blockTxSkip...), nil
}
