package ton

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/ton/internal/wire"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// defaultBlockCount is the number of transactions BlockTransactions asks
// for when BlockTransactionsQuery.Count is 0 (toncenter's default).
const defaultBlockCount = 40

// maxBlockCount is the largest BlockTransactionsQuery.Count the SDK sends:
// toncenter's C++ server answers a larger count with 422 "count should be
// less or equal 10000". Whatever the count, a server may answer with fewer
// transactions and Incomplete set: the lite server lists at most 256 a call
// (the Python server passes its answer on as is; the C++ server asks in
// chunks of 256 up to the count). The JSON-RPC form asks for at most 256
// (see WithJSONRPC).
const maxBlockCount = 10000

// maxRPCBlockCount caps count in the JSON-RPC form: one lite server call.
// The C++ server runs a JSON-RPC call through its own REST handler with a
// 10 s timeout, asking the lite server for 256 transactions at a time, and
// the Python server gives a tonlib request 10 s too; a count of 256 keeps
// each call to one lite-server round trip (plus the block lookup the first
// page needs), far inside that.
const maxRPCBlockCount = 256

// BlockTransactionsQuery selects the transactions of one block.
type BlockTransactionsQuery struct {
	// Block is the block: workchain, shard (never 0) and seqno (never 0:
	// the servers refuse seqno 0, the zero state, which is no block).
	Block BlockRef
	// RootHash and FileHash, when both are set, are sent as root_hash and
	// file_hash: the server then skips looking the block up by seqno,
	// which it otherwise does on every call. Both or neither: one alone is
	// refused (the servers would ignore it). A BlockTransactionsPage answer's
	// Block carries both; AllBlockTransactions sends them from its second
	// page on. A server answering for a block with other hashes is an
	// error matching nodeaccess.ErrInvalidResponse.
	RootHash, FileHash Hash
	// Count is the most transactions one call returns, 1 to 10000;
	// 0 asks for 40. With WithJSONRPC at most 256 are asked
	// for (the answer is then Incomplete where the block has more).
	Count int
	// After continues a block the server answered as incomplete: the
	// transactions after this one. Nil starts at the block's first.
	After *BlockCursor
}

// BlockCursor marks a position in a block's transaction list, the last
// transaction of a page: its account and logical time. On the wire it is
// after_lt (the logical time) and after_hash (the account id in standard
// base64: tonlib's blocks.accountTransactionId, which toncenter fills from
// after_hash).
type BlockCursor struct {
	// Account is the account of the last transaction seen.
	Account Address
	// LT is the logical time of the last transaction seen.
	LT uint64
}

// BlockTransactionsPage is one page of a block's transactions.
type BlockTransactionsPage struct {
	// Block identifies the block, with its root and file hashes.
	Block BlockID
	// RequestedCount is the count the server worked with (req_count), 0
	// when it did not say.
	RequestedCount int
	// Incomplete is true when the block has more transactions than this
	// page: ask for the rest with Next (or walk with AllBlockTransactions).
	Incomplete bool
	// Transactions are the block's transactions in the server's order
	// (by account, then logical time).
	Transactions []BlockTransaction
}

// Next returns the cursor of the next page: ok is false when the block is
// complete (or the page is empty, which gives no position to continue from).
func (b *BlockTransactionsPage) Next() (cursor BlockCursor, ok bool) {
	if !b.Incomplete || len(b.Transactions) == 0 {
		return BlockCursor{}, false
	}
	last := b.Transactions[len(b.Transactions)-1]
	return BlockCursor{Account: last.Account, LT: last.LT}, true
}

// BlockTransaction is one transaction of a block, from an entry {account,
// hash, lt, transaction} or from the transaction itself with account added
// (as toncenter's v2 servers send it), with the members servers send typed
// where they are stable.
type BlockTransaction struct {
	// Account is the account the transaction belongs to.
	Account Address
	// Hash is the transaction's hash.
	Hash Hash
	// LT is the transaction's logical time.
	LT uint64
	// Time is the transaction's time (utime), UTC; the zero time.Time
	// (IsZero) when the server sent none, null or 0, never 1970-01-01.
	Time time.Time
	// Fee is the total fee in nanotons (v2 fee, v3 total_fees); nil when
	// not sent.
	Fee *big.Int
	// StorageFee is the storage part of the fee in nanotons; nil when not sent.
	StorageFee *big.Int
	// OtherFee is the rest of the fee in nanotons; nil when not sent.
	OtherFee *big.Int
	// Data is the transaction as a serialised bag of cells (data); nil when
	// not sent.
	Data []byte
	// InMsg is the message that started the transaction; nil when there is
	// none (tick-tock and other system transactions). InMsg.Source is nil
	// for an external message (a wallet's signed request).
	InMsg *Message
	// OutMsgs are the messages the transaction sent, in order; nil when the
	// server sent no out_msgs member.
	OutMsgs []Message
	// PrevTransactionLT is the logical time of the account's previous
	// transaction (v3 prev_trans_lt); 0 when not sent, as in every v2
	// transaction (v2 names no previous transaction per transaction), and
	// for an account's first transaction.
	PrevTransactionLT uint64
	// PrevTransactionHash is the hash of the account's previous transaction
	// (v3 prev_trans_hash); zero when not sent.
	PrevTransactionHash Hash
	// Transaction is the detailed transaction as the server sent it: the
	// entry's "transaction" member when it has one, else the whole entry
	// (toncenter's v2 servers send the transaction itself, with account
	// added).
	Transaction json.RawMessage
	// Unread names the secondary members the SDK could not read, its
	// messages' included ("utime", "out_msgs[0].opcode"; see the package
	// documentation): the fields they fill are left as when not sent, and
	// their values are in Transaction. Nil when every member was read.
	Unread []string
}

// check validates q before anything is sent.
func (q *BlockTransactionsQuery) check() error {
	switch {
	case q.Block.Shard == 0:
		return &nodeaccess.InputError{Arg: "shard", Reason: "0 is not a shard id (the masterchain's is ton.MasterchainShard)"}
	case q.Count < 0:
		return &nodeaccess.InputError{Arg: "count", Reason: fmt.Sprintf("negative count %d", q.Count)}
	case q.Count > maxBlockCount:
		return &nodeaccess.InputError{Arg: "count", Reason: fmt.Sprintf("count %d is over the server maximum %d", q.Count, maxBlockCount)}
	case q.Block.Seqno == 0:
		return &nodeaccess.InputError{Arg: "seqno", Reason: "0 is the zero state, not a block with transactions (the servers refuse it)"}
	case (q.RootHash == Hash{}) != (q.FileHash == Hash{}):
		return &nodeaccess.InputError{Arg: "root_hash", Reason: "root_hash and file_hash go together: set both or neither"}
	}
	return nil
}

func (q *BlockTransactionsQuery) count() int {
	if q.Count == 0 {
		return defaultBlockCount
	}
	return q.Count
}

// BlockTransactions runs getBlockTransactionsExt: one page of the
// transactions of q.Block. It sends GET {base}/api/v2/{key}/getBlockTransactionsExt
// with workchain, shard (signed decimal), seqno and count, plus after_lt and
// after_hash when q.After is set; with WithJSONRPC it posts the same
// parameters to {base}/api/v2/{key}/jsonRPC. While the result is Incomplete,
// pass its Next cursor as q.After for the rest, or use AllBlockTransactions.
func (c *Client) BlockTransactions(ctx context.Context, q BlockTransactionsQuery) (*BlockTransactionsPage, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap("getBlockTransactionsExt", err)
	}
	const op = "getBlockTransactionsExt"
	if err := q.check(); err != nil {
		return nil, c.t.Wrap(op, err)
	}
	resp, err := c.sendBlockQuery(ctx, op, c.blockREST, &q)
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	out, err := decode(c, &resp, decodeBlockTransactions)
	if err == nil {
		err = q.checkAnswer(out)
	}
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	return out, nil
}

// checkAnswer refuses an answer for a block other than the one asked for by
// hash: a server that sends hashes must send the requested ones.
func (q *BlockTransactionsQuery) checkAnswer(out *BlockTransactionsPage) error {
	if q.RootHash == (Hash{}) {
		return nil
	}
	got := out.Block
	if got.RootHash != (Hash{}) && got.RootHash != q.RootHash || got.FileHash != (Hash{}) && got.FileHash != q.FileHash {
		return fmt.Errorf("%w: asked for block root_hash %s file_hash %s, the answer is for root_hash %s file_hash %s",
			nodeaccess.ErrInvalidResponse, q.RootHash, q.FileHash, got.RootHash, got.FileHash)
	}
	return nil
}

// blockTxIDs runs getBlockTransactions: the ids (account, lt, hash) of the
// transactions of q.Block after q.After, which the server lists without
// reading the transactions themselves (tonlib's blocks.getTransactions
// answers blocks.shortTxId), so a transaction getBlockTransactionsExt
// cannot read is listed here.
func (c *Client) blockTxIDs(ctx context.Context, q BlockTransactionsQuery) (*BlockTransactionsPage, error) {
	const op = "getBlockTransactions"
	resp, err := c.sendBlockQuery(ctx, op, c.idsREST, &q)
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	out, err := decode(c, &resp, decodeBlockTransactions)
	if err == nil {
		err = q.checkAnswer(out)
	}
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	return out, nil
}

// sendBlockQuery sends the v2 call op (getBlockTransactionsExt or
// getBlockTransactions) for q: a GET to rest, or with WithJSONRPC a POST to
// jsonRPC with op as the method and count at most maxRPCBlockCount.
func (c *Client) sendBlockQuery(ctx context.Context, op string, rest transport.Target, q *BlockTransactionsQuery) (transport.Response, error) {
	if !c.useRPC {
		v := url.Values{
			"workchain": {strconv.Itoa(int(q.Block.Workchain))},
			"shard":     {strconv.FormatInt(int64(q.Block.Shard), 10)},
			"seqno":     {strconv.FormatUint(uint64(q.Block.Seqno), 10)},
			"count":     {strconv.Itoa(q.count())},
		}
		if q.RootHash != (Hash{}) {
			v.Set("root_hash", q.RootHash.String())
			v.Set("file_hash", q.FileHash.String())
		}
		if q.After != nil {
			v.Set("after_lt", strconv.FormatUint(q.After.LT, 10))
			v.Set("after_hash", base64.StdEncoding.EncodeToString(q.After.Account.ID[:]))
		}
		return c.send(ctx, &transport.Request{Op: op, Method: http.MethodGet, Target: rest, Query: v})
	}
	p := make([]byte, 0, 256)
	p = append(p, `{"workchain":`...)
	p = strconv.AppendInt(p, int64(q.Block.Workchain), 10)
	p = append(p, `,"shard":"`...)
	p = strconv.AppendInt(p, int64(q.Block.Shard), 10)
	p = append(p, `","seqno":`...)
	p = strconv.AppendUint(p, uint64(q.Block.Seqno), 10)
	p = append(p, `,"count":`...)
	p = strconv.AppendInt(p, int64(min(q.count(), maxRPCBlockCount)), 10)
	if q.RootHash != (Hash{}) {
		p = append(p, `,"root_hash":"`...)
		p = base64.StdEncoding.AppendEncode(p, q.RootHash[:])
		p = append(p, `","file_hash":"`...)
		p = base64.StdEncoding.AppendEncode(p, q.FileHash[:])
		p = append(p, '"')
	}
	if q.After != nil {
		p = append(p, `,"after_lt":`...)
		p = strconv.AppendUint(p, q.After.LT, 10)
		p = append(p, `,"after_hash":"`...)
		p = base64.StdEncoding.AppendEncode(p, q.After.Account.ID[:])
		p = append(p, '"')
	}
	p = append(p, '}')
	return c.send(ctx, &transport.Request{Op: op, Method: http.MethodPost, Target: c.rpc, Body: c.rpcRequest(op, p)})
}

// v2Result returns the result of a v2 body: the "result" member of
// {"ok":true,"result":…} or of a JSON-RPC envelope, or the body itself when
// it is bare. A v2 error body gives a *nodeaccess.RPCError.
func v2Result(body []byte) ([]byte, error) {
	var env errorEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("body is not a JSON object: %v", err)
	}
	if err := bodyError(&env); err != nil {
		return nil, err
	}
	res := bytes.TrimSpace(env.Result)
	switch {
	case len(res) > 0 && res[0] == '{':
		return res, nil
	case env.OK != nil:
		return nil, fmt.Errorf(`"ok" is true but "result" is not an object`)
	}
	return body, nil
}

type wireBlockID struct {
	Workchain wire.Num  `json:"workchain"`
	Shard     wire.Num  `json:"shard"`
	Seqno     wire.Num  `json:"seqno"`
	RootHash  wire.Hash `json:"root_hash"`
	FileHash  wire.Hash `json:"file_hash"`
}

type wireTxID struct {
	LT   wire.Num  `json:"lt"`
	Hash wire.Hash `json:"hash"`
}

type wireBlockTx struct {
	Account       wire.Addr       `json:"account"`
	Address       *wire.MsgAddr   `json:"address"`
	Hash          wire.Hash       `json:"hash"`
	LT            wire.Num        `json:"lt"`
	TransactionID *wireTxID       `json:"transaction_id"`
	Transaction   json.RawMessage `json:"transaction"`
	Fee           wire.Num        `json:"fee"`
	// Secondary: one that cannot be read is named in Unread.
	Utime         jsontext.Soft[wire.Num] `json:"utime"`
	Data          jsontext.Soft[wire.BOC] `json:"data"`
	StorageFee    jsontext.Soft[wire.Num] `json:"storage_fee"`
	OtherFee      jsontext.Soft[wire.Num] `json:"other_fee"`
	TotalFees     wire.Num                `json:"total_fees"`
	InMsg         json.RawMessage         `json:"in_msg"`
	OutMsgs       []json.RawMessage       `json:"out_msgs"`
	PrevTransLT   wire.Num                `json:"prev_trans_lt"`
	PrevTransHash wire.Hash               `json:"prev_trans_hash"`
}

// decodeBlockTransactions decodes a getBlockTransactionsExt body, wrapped
// ({"ok":true,"result":…}, JSON-RPC) or bare.
func decodeBlockTransactions(body []byte) (*BlockTransactionsPage, error) {
	res, err := v2Result(body)
	if err != nil {
		return nil, err
	}
	var w struct {
		ID           *wireBlockID      `json:"id"`
		ReqCount     wire.Num          `json:"req_count"`
		Incomplete   *bool             `json:"incomplete"`
		Transactions []json.RawMessage `json:"transactions"`
	}
	if err := json.Unmarshal(res, &w); err != nil {
		return nil, fmt.Errorf("block transactions: %v", err)
	}
	if w.ID == nil || w.Transactions == nil {
		return nil, fmt.Errorf(`block transactions: "id" or "transactions" is missing`)
	}
	out := &BlockTransactionsPage{Incomplete: w.Incomplete != nil && *w.Incomplete}
	if out.Block, err = w.ID.decode(); err != nil {
		return nil, fmt.Errorf("block id: %v", err)
	}
	if w.ReqCount.Set {
		n, err := w.ReqCount.Int32("req_count")
		if err != nil {
			return nil, err
		}
		out.RequestedCount = int(n)
	}
	out.Transactions = make([]BlockTransaction, len(w.Transactions))
	for i, raw := range w.Transactions {
		if err := decodeBlockTx(raw, &out.Transactions[i]); err != nil {
			return nil, fmt.Errorf("%s: %v", itemName("transaction", i, raw), err)
		}
	}
	return out, nil
}

func (w *wireBlockID) decode() (BlockID, error) {
	var id BlockID
	if !w.Workchain.Set || !w.Shard.Set || !w.Seqno.Set {
		return id, fmt.Errorf("workchain, shard or seqno is missing")
	}
	var err error
	if id.Workchain, err = w.Workchain.Int32("workchain"); err != nil {
		return id, err
	}
	shard, err := w.Shard.Int64("shard")
	if err != nil {
		return id, err
	}
	id.Shard = ShardID(shard)
	if id.Seqno, err = w.Seqno.Uint32("seqno"); err != nil {
		return id, err
	}
	id.RootHash, id.FileHash = Hash(w.RootHash.H), Hash(w.FileHash.H)
	return id, nil
}

// decodeBlockTx decodes one entry: {account, hash, lt,
// transaction} or the real servers' transaction with account added, whose
// hash and lt are in transaction_id.
func decodeBlockTx(raw json.RawMessage, out *BlockTransaction) error {
	var w, inner wireBlockTx
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	typed := &w
	out.Transaction = raw
	if t := bytes.TrimSpace(w.Transaction); len(t) > 0 && t[0] == '{' {
		if err := json.Unmarshal(t, &inner); err != nil {
			return fmt.Errorf("transaction: %v", err)
		}
		typed, out.Transaction = &inner, w.Transaction
	}
	switch {
	case w.Account.Set:
		out.Account = Address(w.Account.A)
	case w.Address != nil && w.Address.Set:
		out.Account = Address(w.Address.A)
	case inner.Account.Set:
		out.Account = Address(inner.Account.A)
	case inner.Address != nil && inner.Address.Set:
		out.Account = Address(inner.Address.A)
	default:
		return fmt.Errorf("account is missing")
	}
	hash, lt := w.Hash, w.LT
	for _, id := range []*wireTxID{w.TransactionID, {LT: inner.LT, Hash: inner.Hash}, inner.TransactionID} {
		if id == nil {
			continue
		}
		if !hash.Set {
			hash = id.Hash
		}
		if !lt.Set {
			lt = id.LT
		}
	}
	if !hash.Set || !lt.Set {
		return fmt.Errorf("hash or lt is missing")
	}
	out.Hash = Hash(hash.H)
	var err error
	if out.LT, err = lt.Uint64("lt"); err != nil {
		return err
	}
	u := (*jsontext.Unread)(&out.Unread)
	if u.Check("utime", typed.Utime.Err) {
		t, err := wire.UnixTime(typed.Utime.V, "utime")
		if u.Check("utime", err) {
			out.Time = t
		}
	}
	fee, feeName := typed.Fee, "fee"
	if !fee.Set {
		fee, feeName = typed.TotalFees, "total_fees"
	}
	if out.Fee, err = fee.OptAmount(feeName); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    jsontext.Soft[wire.Num]
		out  **big.Int
	}{{"storage_fee", typed.StorageFee, &out.StorageFee}, {"other_fee", typed.OtherFee, &out.OtherFee}} {
		if u.Check(f.name, f.v.Err) {
			v, err := f.v.V.OptAmount(f.name)
			if u.Check(f.name, err) {
				*f.out = v
			}
		}
	}
	if u.Check("data", typed.Data.Err) {
		out.Data = typed.Data.V
	}
	if out.InMsg, out.OutMsgs, err = decodeMessages(typed.InMsg, typed.OutMsgs); err != nil {
		return err
	}
	nestedUnread(u, out.InMsg, out.OutMsgs)
	out.PrevTransactionLT, out.PrevTransactionHash, err = decodePrevTx(typed.PrevTransLT, typed.PrevTransHash)
	return err
}
