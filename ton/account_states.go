package ton

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// MaxLimit is the largest limit the v3 API serves in one page; the SDK
// refuses a larger one before sending (the indexer answers 422).
const MaxLimit = 1000

// SortOrder orders accountStates by time.
type SortOrder string

// The sort orders of accountStates. The zero value sends no sort parameter
// (the interface's default is descending).
const (
	// SortAsc lists the oldest state first.
	SortAsc SortOrder = "asc"
	// SortDesc lists the newest state first.
	SortDesc SortOrder = "desc"
)

// String returns the order as the API spells it ("asc", "desc"), or "" for
// none, as the other enumerations of the SDK have a String.
func (s SortOrder) String() string { return string(s) }

// AccountStatesQuery selects account states. The zero value asks for the
// server's defaults.
type AccountStatesQuery struct {
	// Account is the account, in any form ParseAddress reads (raw or
	// user-friendly); the SDK checks it and sends its raw form as both
	// account_address (the interface's name) and address (the indexer's).
	// "" sends neither.
	Account string
	// IncludeBOC asks for the code and data bags of cells. It is always
	// sent (include_boc=false when unset), because the indexer's default is
	// true and the interface's false.
	IncludeBOC bool
	// Limit is the page size, 1 to MaxLimit; 0 sends none (server default,
	// 10 in the interface).
	Limit int
	// Offset skips that many states; 0 sends none.
	Offset int
	// Sort is SortAsc, SortDesc, or "" to send none.
	Sort SortOrder
}

// AccountStatesPage is one page of accountStates.
type AccountStatesPage struct {
	// States are the account states of the page.
	States []AccountState
	// AddressBook maps the accounts the page mentions to their
	// user-friendly forms; empty, never nil, when the server sent none.
	AddressBook AddressBook
}

// AccountState is an account's state. The interface's member names
// (account, hash, account_status, last_trans_lt, last_trans_hash) and the v3
// indexer's (address, account_state_hash, status, last_transaction_lt,
// last_transaction_hash) decode to the same fields.
type AccountState struct {
	// Account is the account.
	Account Address
	// Hash is the hash of the account state.
	Hash Hash
	// Balance is the balance in nanotons, exact. It is nil when the server
	// sent no balance ("balance": null, which the v3 indexer's model
	// allows, or no balance member): that is "unknown", not zero, which
	// comes as "0". (Amounts are VarUInteger 16 in TON, up to 120 bits, so
	// *big.Int rather than uint64, although today's supply fits in 63 bits.)
	Balance *big.Int
	// Status is the account's status; values the SDK does not know are
	// kept as sent (IsKnown reports false).
	Status AccountStatus
	// LastTransactionLT is the logical time of the account's last
	// transaction, 0 when none was sent.
	LastTransactionLT uint64
	// LastTransactionHash is the hash of the account's last transaction,
	// zero when none was sent.
	LastTransactionHash Hash
	// FrozenHash is the hash of a frozen account's state, zero otherwise.
	FrozenHash Hash
	// CodeHash is the hash of the code cell, zero when not sent.
	CodeHash Hash
	// DataHash is the hash of the data cell, zero when not sent.
	DataHash Hash
	// CodeBOC is the code as a bag of cells, nil unless IncludeBOC.
	CodeBOC []byte
	// DataBOC is the data as a bag of cells, nil unless IncludeBOC.
	DataBOC []byte
	// Raw is the entry as the server sent it (extra_currencies and other
	// members the SDK does not type are there).
	Raw json.RawMessage
}

// checkPage validates limit and offset.
func checkPage(limit, offset int) error {
	switch {
	case limit < 0:
		return &nodeaccess.InputError{Arg: "limit", Reason: fmt.Sprintf("negative limit %d", limit)}
	case limit > MaxLimit:
		return &nodeaccess.InputError{Arg: "limit", Reason: fmt.Sprintf("limit %d is over the server maximum %d", limit, MaxLimit)}
	case offset < 0:
		return &nodeaccess.InputError{Arg: "offset", Reason: fmt.Sprintf("negative offset %d", offset)}
	}
	return nil
}

// accountParam parses an optional account argument into its raw form.
func accountParam(arg, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	a, err := ParseAddress(s)
	if err != nil {
		return "", &nodeaccess.InputError{Arg: arg, Reason: err.(*nodeaccess.InputError).Reason}
	}
	return a.Raw(), nil
}

func setPage(v url.Values, limit, offset int) {
	if limit > 0 {
		v.Set("limit", strconv.Itoa(limit))
	}
	if offset > 0 {
		v.Set("offset", strconv.Itoa(offset))
	}
}

func (q *AccountStatesQuery) values() (url.Values, error) {
	if err := checkPage(q.Limit, q.Offset); err != nil {
		return nil, err
	}
	if q.Sort != "" && q.Sort != SortAsc && q.Sort != SortDesc {
		return nil, &nodeaccess.InputError{Arg: "sort", Reason: quoteValue(string(q.Sort), 40) + " is not asc or desc"}
	}
	acct, err := accountParam("account", q.Account)
	if err != nil {
		return nil, err
	}
	v := url.Values{"include_boc": {strconv.FormatBool(q.IncludeBOC)}}
	if acct != "" {
		v.Set("account_address", acct)
		v.Set("address", acct)
	}
	setPage(v, q.Limit, q.Offset)
	if q.Sort != "" {
		v.Set("sort", string(q.Sort))
	}
	return v, nil
}

// AccountStates runs accountStates: GET {base}/{key}/api/v3/accountStates
// with the query's parameters. The indexer behind many v3 endpoints has no
// limit, offset or sort on this call and ignores them; AllAccountStates
// notices a server that repeats a page.
func (c *Client) AccountStates(ctx context.Context, q AccountStatesQuery) (*AccountStatesPage, error) {
	const op = "accountStates"
	v, err := q.values()
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	resp, err := c.get(ctx, op, c.states, v)
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	page, err := decode(c, &resp, decodeAccountStates)
	return page, c.t.Wrap(op, err)
}

type wireAccountState struct {
	Account             addrField `json:"account"`
	Address             addrField `json:"address"`
	Hash                hashField `json:"hash"`
	AccountStateHash    hashField `json:"account_state_hash"`
	Balance             num       `json:"balance"`
	AccountStatus       *string   `json:"account_status"`
	Status              *string   `json:"status"`
	LastTransLT         num       `json:"last_trans_lt"`
	LastTransactionLT   num       `json:"last_transaction_lt"`
	LastTransHash       hashField `json:"last_trans_hash"`
	LastTransactionHash hashField `json:"last_transaction_hash"`
	FrozenHash          hashField `json:"frozen_hash"`
	CodeHash            hashField `json:"code_hash"`
	DataHash            hashField `json:"data_hash"`
	CodeBOC             bocField  `json:"code_boc"`
	DataBOC             bocField  `json:"data_boc"`
}

// decodeAccountStates decodes an accountStates body: the interface's
// {"account_states":[…],"address_book":{…}} or the indexer's
// {"accounts":[…],"address_book":{…},"metadata":{…}}.
func decodeAccountStates(body []byte) (*AccountStatesPage, error) {
	var w struct {
		errorEnvelope
		AccountStates []json.RawMessage `json:"account_states"`
		Accounts      []json.RawMessage `json:"accounts"`
		AddressBook   json.RawMessage   `json:"address_book"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("account states: %v", err)
	}
	if err := bodyError(&w.errorEnvelope); err != nil {
		return nil, err
	}
	entries := w.AccountStates
	if entries == nil {
		entries = w.Accounts
	}
	if entries == nil {
		return nil, fmt.Errorf(`account states: neither "account_states" nor "accounts" is an array`)
	}
	page := &AccountStatesPage{States: make([]AccountState, len(entries))}
	for i, raw := range entries {
		if err := decodeAccountState(raw, &page.States[i]); err != nil {
			return nil, fmt.Errorf("account state %d: %v", i, err)
		}
	}
	var err error
	if page.AddressBook, err = decodeAddressBook(w.AddressBook); err != nil {
		return nil, err
	}
	return page, nil
}

func decodeAccountState(raw json.RawMessage, out *AccountState) error {
	var w wireAccountState
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	switch {
	case w.Account.set:
		out.Account = w.Account.a
	case w.Address.set:
		out.Account = w.Address.a
	default:
		return fmt.Errorf("account (address) is missing")
	}
	var err error
	if out.Balance, err = w.Balance.optAmount("balance"); err != nil {
		return err
	}
	out.Hash = either(w.Hash, w.AccountStateHash)
	switch {
	case w.AccountStatus != nil:
		out.Status = AccountStatus(*w.AccountStatus)
	case w.Status != nil:
		out.Status = AccountStatus(*w.Status)
	}
	lt := w.LastTransLT
	if !lt.set {
		lt = w.LastTransactionLT
	}
	if lt.set {
		if out.LastTransactionLT, err = lt.uint64("last_trans_lt"); err != nil {
			return err
		}
	}
	out.LastTransactionHash = either(w.LastTransHash, w.LastTransactionHash)
	out.FrozenHash, out.CodeHash, out.DataHash = w.FrozenHash.h, w.CodeHash.h, w.DataHash.h
	out.CodeBOC, out.DataBOC = w.CodeBOC, w.DataBOC
	out.Raw = raw
	return nil
}

// either returns the interface's member when it was sent, else the
// indexer's.
func either(iface, indexer hashField) Hash {
	if iface.set {
		return iface.h
	}
	return indexer.h
}
