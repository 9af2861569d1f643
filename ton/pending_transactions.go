package ton

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess/ton/internal/wire"

	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// PendingTransactionsQuery selects pending transactions.
//
// A server that pages takes account (optional), limit
// (default 10) and offset. The open-source v3 indexer takes account
// repeated, requires it (422 without), has no paging (limit and offset are
// ignored), and lists only emulated transactions, in no stable order. It
// also reads trace_id, but checks account first and ignores trace_id when
// account is there, so trace_id alone never works: the SDK has no such
// parameter.
type PendingTransactionsQuery struct {
	// Accounts are the accounts, each in any form ParseAddress reads; the
	// SDK checks each (an empty one is refused) and sends its raw form as
	// account, repeated, an account given twice, in any spelling, once.
	// More than 1000 accounts go in several requests (see
	// PendingTransactions). None sends no account: the indexer refuses
	// that with a 422, an error matching nodeaccess.ErrInvalidInput.
	Accounts []string
	// Limit is the page size, 1 to 1000; 0 sends none (the server's
	// default: 10 on a server that pages). The indexer ignores it.
	Limit int
	// Offset skips that many transactions; 0 sends none. The indexer
	// ignores it.
	Offset int
}

// PendingTransactionsPage is one page of pendingTransactions.
type PendingTransactionsPage struct {
	// Transactions are the pending transactions of the page; empty, never
	// nil, when nothing is pending. They are sorted by Account (workchain,
	// then account id), then LT, then Hash, whatever order the server sent
	// them in (the indexer's changes from one request to the next).
	Transactions []PendingTransaction
	// AddressBook maps the accounts the page mentions to their
	// user-friendly forms; empty, never nil, when the server sent none.
	AddressBook map[Address]AddressBookEntry
	// UnknownAddresses are the address book entries whose key is not a
	// standard address, by the key as sent; nil when there are none (see
	// AccountStatesPage).
	UnknownAddresses map[string]AddressBookEntry
}

// Finality says how final a v3 transaction is. The indexer writes it as a
// string ("pending", "confirmed", "finalized"); its published schema
// declares the integers 0, 1 and 2: both decode to the constants below. A
// value the SDK does not know decodes without error and is kept as sent:
// an integer n beyond 2 as "unknown_n" (the indexer's own spelling for it),
// any other JSON value as its text ("1.5", `{"mc":1}`, "true"), which none
// of the constants is.
type Finality string

// The finality states the indexer sends.
const (
	// FinalityPending: the transaction was emulated and is in no block yet
	// (0 in the published schema). pendingTransactions lists only these.
	FinalityPending Finality = "pending"
	// FinalityConfirmed: the transaction is in a block that is not yet
	// final (1).
	FinalityConfirmed Finality = "confirmed"
	// FinalityFinalized: the transaction is in a final block (2).
	FinalityFinalized Finality = "finalized"
)

// PendingTransaction is a transaction that is not yet fully confirmed. Once
// it is, the server stops listing it here and lists it with the regular
// transactions.
//
// The indexer lists emulated transactions: their Hash, LT, Now and the
// hashes of the internal messages they receive are results of an
// emulation, and may change when the trace is emulated again or lands in a
// block. To recognise a pending transaction from one poll to the next, key
// it by Account and TraceExternalHash (the hash of the external message
// that started its trace); a trace that reaches an account twice (a bounce
// coming back) has two transactions with that pair, in LT order.
type PendingTransaction struct {
	// Account is the account the transaction belongs to.
	Account Address
	// Hash is the transaction's hash.
	Hash Hash
	// LT is the transaction's logical time (a string on the indexer, a
	// number on other servers; both decode).
	LT uint64
	// Now is the transaction's time, UTC; the zero time.Time (IsZero)
	// when the server sent none, null or 0, never 1970-01-01.
	Now time.Time
	// MCBlockSeqno is the masterchain block the transaction is expected
	// in; 0 when the server sent none (null).
	MCBlockSeqno uint32
	// TraceID identifies the trace the transaction belongs to (a base64
	// hash on the indexer); "" when none was sent. The indexer sends it
	// only once the trace's first transaction is in a block.
	TraceID string
	// TraceExternalHash is the hash of the external message that started
	// the transaction's trace (trace_external_hash, which the indexer
	// always sends); zero when not sent.
	TraceExternalHash Hash
	// Emulated reports that the transaction is an emulation's result, not
	// yet in a block (the indexer's emulated, true for every transaction
	// pendingTransactions lists); false when not sent.
	Emulated bool
	// Finality is how final the transaction is (FinalityPending for every
	// transaction the indexer lists here); "" when not sent.
	Finality Finality
	// TotalFees is the transaction's total fee in nanotons, nil when not
	// sent (the indexer sends it).
	TotalFees *big.Int
	// InMsg is the message that started the transaction (nil when none;
	// InMsg.Source is nil for an external message).
	InMsg *Message
	// OutMsgs are the messages the transaction sent; nil when the server
	// sent no out_msgs member.
	OutMsgs []Message
	// PrevTransactionLT is the logical time of the account's previous
	// transaction (prev_trans_lt); 0 when not sent.
	PrevTransactionLT uint64
	// PrevTransactionHash is the hash of the account's previous transaction
	// (prev_trans_hash); zero when not sent.
	PrevTransactionHash Hash
	// Raw is the entry as the server sent it: the indexer's full v3
	// transaction (in_msg, out_msgs, description, block_ref, …).
	Raw json.RawMessage
	// Unread names the secondary members the SDK could not read, its
	// messages' included ("now", "out_msgs[0].opcode"; see the package
	// documentation): the fields they fill are left as when not sent, and
	// their values are in Raw. Nil when every member was read.
	Unread []string
}

// check validates q and returns its accounts, parsed.
func (q *PendingTransactionsQuery) check() ([]Address, error) {
	if err := checkPage(q.Limit, q.Offset); err != nil {
		return nil, err
	}
	return parseAccounts("accounts", q.Accounts)
}

// values returns the parameters of one request for accounts.
func (q *PendingTransactionsQuery) values(accounts []Address) url.Values {
	v := url.Values{}
	for _, a := range accounts {
		v.Add("account", a.Raw())
	}
	setPage(v, q.Limit, q.Offset)
	return v
}

// PendingTransactions runs pendingTransactions: GET
// {base}/{key}/api/v3/pendingTransactions with account (repeated), limit
// and offset (see PendingTransactionsQuery for what each server honours).
// Each request costs one request unit, whatever the number of accounts it
// names. More than 1000 accounts are sent in several requests of at
// most 1000 accounts, one after the other, as AccountStates sends them;
// the page holds the transactions of all of them, sorted as one.
//
// Nothing pending is an empty page, not an error, in both of the indexer's
// answers for it: its 404 "emulated traces not found", and a 200 whose
// transactions is null (traces it still holds whose every transaction is
// already in a block). A 422, the indexer's answer to a request without
// account or with one it cannot read, is an error matching
// nodeaccess.ErrInvalidInput.
func (c *Client) PendingTransactions(ctx context.Context, q PendingTransactionsQuery) (*PendingTransactionsPage, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap("pendingTransactions", err)
	}
	const op = "pendingTransactions"
	accounts, err := q.check()
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	pages, err := indexerPages(accounts, func(g []Address) (*PendingTransactionsPage, error) { return c.pendingTransactions(ctx, &q, g) })
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	page := &PendingTransactionsPage{Transactions: []PendingTransaction{}, AddressBook: map[Address]AddressBookEntry{}}
	for _, p := range pages {
		page.Transactions = append(page.Transactions, p.Transactions...)
		mergeBook(page.AddressBook, &page.UnknownAddresses, p.AddressBook, p.UnknownAddresses)
	}
	slices.SortStableFunc(page.Transactions, comparePending)
	return page, nil
}

// pendingTransactions sends one request, for accounts.
func (c *Client) pendingTransactions(ctx context.Context, q *PendingTransactionsQuery, accounts []Address) (*PendingTransactionsPage, error) {
	resp, err := c.send(ctx, &transport.Request{Op: "pendingTransactions", Method: http.MethodGet, Target: c.pending, Query: q.values(accounts)})
	if err == nil {
		var page *PendingTransactionsPage
		if page, err = decode(c, &resp, decodePendingTransactions); err == nil {
			return page, nil
		}
	}
	if nothingPending(err) {
		return &PendingTransactionsPage{}, nil
	}
	return nil, refuse422(err)
}

// comparePending orders pending transactions by account (workchain, then
// account id), logical time and hash.
func comparePending(a, b PendingTransaction) int {
	if c := cmp.Compare(a.Account.Workchain, b.Account.Workchain); c != 0 {
		return c
	}
	if c := bytes.Compare(a.Account.ID[:], b.Account.ID[:]); c != 0 {
		return c
	}
	if c := cmp.Compare(a.LT, b.LT); c != 0 {
		return c
	}
	return bytes.Compare(a.Hash[:], b.Hash[:])
}

// nothingPendingMessage is the indexer's message when an account has
// nothing pending.
const nothingPendingMessage = "emulated traces not found"

// nothingPending reports whether err is the indexer's 404 for an account
// with nothing pending: a TON error body whose message is "emulated traces
// not found" (in any case, surrounding spaces ignored), as a 404 or with
// code 404 in a 2xx body. Every other 404 (a wrong path, a gateway's
// {"error":"Not Found"}, an HTML page) stays an error matching
// nodeaccess.ErrNotFound.
func nothingPending(err error) bool {
	status, msg, ok := serverFault(err)
	return ok && status == http.StatusNotFound && strings.EqualFold(strings.TrimSpace(msg), nothingPendingMessage)
}

type wirePending struct {
	// Load-bearing: a member that cannot be read refuses the page.
	Account       wire.Addr         `json:"account"`
	Hash          wire.Hash         `json:"hash"`
	LT            wire.Num          `json:"lt"`
	TotalFees     wire.Num          `json:"total_fees"`
	InMsg         json.RawMessage   `json:"in_msg"`
	OutMsgs       []json.RawMessage `json:"out_msgs"`
	PrevTransLT   wire.Num          `json:"prev_trans_lt"`
	PrevTransHash wire.Hash         `json:"prev_trans_hash"`
	// Secondary: one that cannot be read is named in Unread (finality is
	// kept as sent instead).
	Now          jsontext.Soft[wire.Num]  `json:"now"`
	MCBlockSeqno jsontext.Soft[wire.Num]  `json:"mc_block_seqno"`
	TraceID      jsontext.Soft[*string]   `json:"trace_id"`
	TraceExtHash jsontext.Soft[wire.Hash] `json:"trace_external_hash"`
	Emulated     jsontext.Soft[*bool]     `json:"emulated"`
	Finality     wire.Finality            `json:"finality"`
}

// decodePendingTransactions decodes a pendingTransactions body:
// {"transactions":[…],"address_book":{…}}; "transactions": null (the
// indexer's answer when every transaction of the traces it holds is
// already in a block) is an empty page.
func decodePendingTransactions(body []byte) (*PendingTransactionsPage, error) {
	var w struct {
		errorEnvelope
		Transactions json.RawMessage `json:"transactions"`
		AddressBook  json.RawMessage `json:"address_book"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("pending transactions: %v", err)
	}
	if err := bodyError(&w.errorEnvelope); err != nil {
		return nil, err
	}
	var txs []json.RawMessage
	if len(w.Transactions) == 0 || json.Unmarshal(w.Transactions, &txs) != nil {
		return nil, fmt.Errorf(`pending transactions: "transactions" is neither an array nor null`)
	}
	page := &PendingTransactionsPage{Transactions: make([]PendingTransaction, len(txs))}
	for i, raw := range txs {
		if err := decodePending(raw, &page.Transactions[i]); err != nil {
			return nil, fmt.Errorf("%s: %v", itemName("transaction", i, raw), err)
		}
	}
	var err error
	if page.AddressBook, page.UnknownAddresses, err = decodeAddressBook(w.AddressBook); err != nil {
		return nil, err
	}
	return page, nil
}

func decodePending(raw json.RawMessage, out *PendingTransaction) error {
	var w wirePending
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	if !w.Account.Set || !w.Hash.Set || !w.LT.Set {
		return fmt.Errorf("account, hash or lt is missing")
	}
	out.Account, out.Hash = Address(w.Account.A), Hash(w.Hash.H)
	var err error
	if out.LT, err = w.LT.Uint64("lt"); err != nil {
		return err
	}
	if out.TotalFees, err = w.TotalFees.OptAmount("total_fees"); err != nil {
		return err
	}
	if out.InMsg, out.OutMsgs, err = decodeMessages(w.InMsg, w.OutMsgs); err != nil {
		return err
	}
	if out.PrevTransactionLT, out.PrevTransactionHash, err = decodePrevTx(w.PrevTransLT, w.PrevTransHash); err != nil {
		return err
	}
	u := (*jsontext.Unread)(&out.Unread)
	if u.Check("now", w.Now.Err) {
		t, err := wire.UnixTime(w.Now.V, "now")
		if u.Check("now", err) {
			out.Now = t
		}
	}
	if u.Check("mc_block_seqno", w.MCBlockSeqno.Err) && w.MCBlockSeqno.V.Set {
		n, err := w.MCBlockSeqno.V.Uint32("mc_block_seqno")
		if u.Check("mc_block_seqno", err) {
			out.MCBlockSeqno = n
		}
	}
	if u.Check("trace_id", w.TraceID.Err) && w.TraceID.V != nil {
		out.TraceID = *w.TraceID.V
	}
	if u.Check("trace_external_hash", w.TraceExtHash.Err) {
		out.TraceExternalHash = Hash(w.TraceExtHash.V.H)
	}
	if u.Check("emulated", w.Emulated.Err) {
		out.Emulated = w.Emulated.V != nil && *w.Emulated.V
	}
	out.Finality = Finality(w.Finality)
	nestedUnread(u, out.InMsg, out.OutMsgs)
	out.Raw = raw
	return nil
}
