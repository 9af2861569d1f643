package ton

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"
)

// PendingTransactionsQuery selects pending transactions.
type PendingTransactionsQuery struct {
	// Account is the account, in any form ParseAddress reads; the SDK
	// checks it and sends its raw form. The interface marks it optional;
	// the v3 indexer requires it (422 without).
	Account string
	// Limit is the page size, 1 to MaxLimit; 0 sends none (server default,
	// 10 in the interface).
	Limit int
	// Offset skips that many transactions; 0 sends none.
	Offset int
}

// PendingTransactionsPage is one page of pendingTransactions.
type PendingTransactionsPage struct {
	// Transactions are the pending transactions of the page; empty, never
	// nil, when nothing is pending.
	Transactions []PendingTransaction
	// AddressBook maps the accounts the page mentions to their
	// user-friendly forms; empty, never nil, when the server sent none.
	AddressBook AddressBook
}

// PendingTransaction is a transaction that is not yet fully confirmed. Once
// it is, the server stops listing it here and lists it with the regular
// transactions.
type PendingTransaction struct {
	// Account is the account the transaction belongs to.
	Account Address
	// Hash is the transaction's hash.
	Hash Hash
	// LT is the transaction's logical time (a string on the indexer, a
	// number in the interface; both decode).
	LT uint64
	// Now is the transaction's time, UTC; the zero time.Time (IsZero)
	// when the server sent none, null or 0, never 1970-01-01.
	Now time.Time
	// MCBlockSeqno is the masterchain block the transaction is expected
	// in; 0 when the server sent none (null).
	MCBlockSeqno uint32
	// TraceID identifies the trace the transaction belongs to (a base64
	// hash on the indexer); "" when none was sent.
	TraceID string
	// TotalFees is the transaction's total fee in nanotons, nil when not
	// sent (the interface does not list it; the indexer sends it).
	TotalFees *big.Int
	// InMsg is the message that started the transaction (nil when none;
	// InMsg.Source is nil for an external message).
	InMsg *Message
	// OutMsgs are the messages the transaction sent; nil when the server
	// sent no out_msgs member.
	OutMsgs []Message
	// PrevTransaction is the account's previous transaction (prev_trans_lt,
	// prev_trans_hash); zero when not sent.
	PrevTransaction TxID
	// Raw is the entry as the server sent it: the indexer's full v3
	// transaction (in_msg, out_msgs, description, block_ref, emulated, …).
	Raw json.RawMessage
}

func (q *PendingTransactionsQuery) values() (url.Values, error) {
	if err := checkPage(q.Limit, q.Offset); err != nil {
		return nil, err
	}
	acct, err := accountParam("account", q.Account)
	if err != nil {
		return nil, err
	}
	v := url.Values{}
	if acct != "" {
		v.Set("account", acct)
	}
	setPage(v, q.Limit, q.Offset)
	return v, nil
}

// PendingTransactions runs pendingTransactions: GET
// {base}/{key}/api/v3/pendingTransactions with account, limit and offset.
// The indexer's 404 "emulated traces not found", its answer when nothing is
// pending, is an empty page, not an error.
func (c *Client) PendingTransactions(ctx context.Context, q PendingTransactionsQuery) (*PendingTransactionsPage, error) {
	const op = "pendingTransactions"
	v, err := q.values()
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	resp, err := c.get(ctx, op, c.pending, v)
	if err != nil {
		if nothingPending(err) {
			return &PendingTransactionsPage{Transactions: []PendingTransaction{}, AddressBook: AddressBook{}}, nil
		}
		return nil, c.t.Wrap(op, err)
	}
	page, err := decode(c, &resp, decodePendingTransactions)
	return page, c.t.Wrap(op, err)
}

// nothingPendingMessage is the indexer's message when an account has
// nothing pending.
const nothingPendingMessage = "emulated traces not found"

// nothingPending reports whether err is the indexer's 404 for an account
// with nothing pending: a TON error body whose message is "emulated traces
// not found" (in any case, surrounding spaces ignored). Every other 404 (a
// wrong path, a gateway's {"error":"Not Found"}, an HTML page) stays an
// error matching nodeaccess.ErrNotFound.
func nothingPending(err error) bool {
	se, ok := err.(*serverError)
	return ok && se.http.StatusCode == 404 && strings.EqualFold(strings.TrimSpace(se.rpc.Message), nothingPendingMessage)
}

type wirePending struct {
	Account       addrField         `json:"account"`
	Hash          hashField         `json:"hash"`
	LT            num               `json:"lt"`
	Now           num               `json:"now"`
	MCBlockSeqno  num               `json:"mc_block_seqno"`
	TraceID       *string           `json:"trace_id"`
	TotalFees     num               `json:"total_fees"`
	InMsg         json.RawMessage   `json:"in_msg"`
	OutMsgs       []json.RawMessage `json:"out_msgs"`
	PrevTransLT   num               `json:"prev_trans_lt"`
	PrevTransHash hashField         `json:"prev_trans_hash"`
}

// decodePendingTransactions decodes a pendingTransactions body:
// {"transactions":[…],"address_book":{…}}.
func decodePendingTransactions(body []byte) (*PendingTransactionsPage, error) {
	var w struct {
		errorEnvelope
		Transactions []json.RawMessage `json:"transactions"`
		AddressBook  json.RawMessage   `json:"address_book"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("pending transactions: %v", err)
	}
	if err := bodyError(&w.errorEnvelope); err != nil {
		return nil, err
	}
	if w.Transactions == nil {
		return nil, fmt.Errorf(`pending transactions: "transactions" is not an array`)
	}
	page := &PendingTransactionsPage{Transactions: make([]PendingTransaction, len(w.Transactions))}
	for i, raw := range w.Transactions {
		if err := decodePending(raw, &page.Transactions[i]); err != nil {
			return nil, fmt.Errorf("transaction %d: %v", i, err)
		}
	}
	var err error
	if page.AddressBook, err = decodeAddressBook(w.AddressBook); err != nil {
		return nil, err
	}
	return page, nil
}

func decodePending(raw json.RawMessage, out *PendingTransaction) error {
	var w wirePending
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	if !w.Account.set || !w.Hash.set || !w.LT.set {
		return fmt.Errorf("account, hash or lt is missing")
	}
	out.Account, out.Hash = w.Account.a, w.Hash.h
	var err error
	if out.LT, err = w.LT.uint64("lt"); err != nil {
		return err
	}
	if out.Now, err = unixTime(w.Now, "now"); err != nil {
		return err
	}
	if w.MCBlockSeqno.set {
		if out.MCBlockSeqno, err = w.MCBlockSeqno.uint32("mc_block_seqno"); err != nil {
			return err
		}
	}
	if w.TraceID != nil {
		out.TraceID = *w.TraceID
	}
	if out.TotalFees, err = w.TotalFees.optAmount("total_fees"); err != nil {
		return err
	}
	if out.InMsg, out.OutMsgs, err = decodeMessages(w.InMsg, w.OutMsgs); err != nil {
		return err
	}
	if out.PrevTransaction, err = decodePrevTx(w.PrevTransLT, w.PrevTransHash); err != nil {
		return err
	}
	out.Raw = raw
	return nil
}
