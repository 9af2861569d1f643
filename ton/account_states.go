package ton

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/ton/internal/wire"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// maxLimit is the largest limit the v3 API serves in one page (the SDK
// refuses a larger one before sending; the indexer answers 422), and the
// most accounts one accountStates or pendingTransactions request names
// (the indexer answers at most 1000 account states a request).
const maxLimit = 1000

// SortOrder orders accountStates by time.
type SortOrder string

// The sort orders of accountStates. The zero value sends no sort parameter
// (servers that sort list the newest state first by default).
const (
	// SortAsc lists the oldest state first.
	SortAsc SortOrder = "asc"
	// SortDesc lists the newest state first.
	SortDesc SortOrder = "desc"
)

// AccountStatesQuery selects account states.
//
// Which parameters a server honours depends on the server. A server that
// pages takes one account_address, include_boc (default false), limit
// (default 10), offset and sort, and may list several historical states of
// an account. The open-source v3 indexer takes
// address (repeated, at most 1000 states an answer), code_hash and
// include_boc (default true); it ignores limit, offset and sort, answers the
// latest state of each account it knows in no particular order, leaves out
// the accounts it does not know, and refuses a request without address
// (422). The SDK sends what both read: see Accounts.
type AccountStatesQuery struct {
	// Accounts are the accounts, each in any form ParseAddress reads (raw
	// or user-friendly). The SDK checks each (an empty one is refused: the
	// indexer would take it for no filter at all) and sends its raw form,
	// an account given twice, in any spelling, once. A request for one
	// account sends it as both account_address (a paging server's name) and
	// address (the indexer's); a request for several repeats address alone,
	// since account_address names one account. More than
	// 1000 accounts go in several requests (see AccountStates). None
	// sends neither parameter.
	Accounts []string
	// CodeHash, when not zero, asks for the states whose code has this hash
	// (code_hash; with Accounts, the states of those accounts with that
	// code). The indexer honours it only together with Accounts (it refuses
	// a request without address); a server that ignores it is caught: a
	// state with another code hash in the answer is an ErrInvalidResponse
	// error.
	CodeHash Hash
	// IncludeBOC asks for the code and data bags of cells. It is always
	// sent (include_boc=false when unset), because the indexer's default is
	// true and a paging server's false.
	IncludeBOC bool
	// Limit is the page size, 1 to 1000; 0 sends none (the server's
	// default: 10 on a server that pages). The indexer ignores it.
	Limit int
	// Offset skips that many states; 0 sends none. The indexer ignores it.
	Offset int
	// Sort is SortAsc, SortDesc, or "" to send none. The indexer ignores it.
	Sort SortOrder
}

// AccountStatesPage is one page of accountStates.
type AccountStatesPage struct {
	// States are the account states of the page, in the server's order
	// (the indexer's is arbitrary: match states to accounts by Account).
	// An account the server does not know has no state here.
	States []AccountState
	// AddressBook is what the page says of the accounts it mentions: its
	// address_book (their user-friendly forms, domains, interfaces) and the
	// indexer's metadata (what it knows of the tokens at them: IsIndexed,
	// TokenInfo), by account; empty, never nil, when the server sent
	// neither. An account the metadata names and the address book does not
	// has an entry with its metadata alone.
	AddressBook map[Address]AddressBookEntry
	// UnknownAddresses are the address book entries whose key is not a
	// standard address (such as the literals addr_none, addr_var and
	// addr_extern the indexer may write), by the key as sent; nil when
	// there are none. Such an entry never fails a page.
	UnknownAddresses map[string]AddressBookEntry
}

// AccountState is an account's state. A paging server's member names
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
	// *big.Int rather than uint64.)
	Balance *big.Int
	// Status is the account's status; values the SDK does not know are
	// kept as sent (a value none of the constants is).
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
	// Unread names the secondary members the SDK could not read
	// ("code_hash", "data_boc"; see the package documentation): the fields
	// they fill are left as when not sent, and their values are in Raw.
	// Nil when every member was read.
	Unread []string
}

// checkPage validates limit and offset.
func checkPage(limit, offset int) error {
	switch {
	case limit < 0:
		return &nodeaccess.InputError{Arg: "limit", Reason: fmt.Sprintf("negative limit %d", limit)}
	case limit > maxLimit:
		return &nodeaccess.InputError{Arg: "limit", Reason: fmt.Sprintf("limit %d is over the server maximum %d", limit, maxLimit)}
	case offset < 0:
		return &nodeaccess.InputError{Arg: "offset", Reason: fmt.Sprintf("negative offset %d", offset)}
	}
	return nil
}

// parseAccounts checks the accounts of a query (named arg[i] in errors)
// and returns them parsed, in the order given, each once.
func parseAccounts(arg string, in []string) ([]Address, error) {
	out := make([]Address, 0, len(in))
	seen := make(map[Address]bool, len(in))
	for i, s := range in {
		name := fmt.Sprintf("%s[%d]", arg, i)
		if strings.TrimSpace(s) == "" {
			return nil, &nodeaccess.InputError{Arg: name, Reason: transport.Quote(s) + " is empty (the indexer would read it as no filter and list other accounts)"}
		}
		a, err := ParseAddress(s)
		if err != nil {
			return nil, &nodeaccess.InputError{Arg: name, Reason: err.(*nodeaccess.InputError).Reason}
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// groups splits accounts into requests of at most n accounts; no accounts
// is one request without any.
func groups(accounts []Address, n int) [][]Address {
	if len(accounts) == 0 {
		return [][]Address{nil}
	}
	var out [][]Address
	for len(accounts) > n {
		out = append(out, accounts[:n:n])
		accounts = accounts[n:]
	}
	return append(out, accounts)
}

func setPage(v url.Values, limit, offset int) {
	if limit > 0 {
		v.Set("limit", strconv.Itoa(limit))
	}
	if offset > 0 {
		v.Set("offset", strconv.Itoa(offset))
	}
}

// check validates q and returns its accounts, parsed.
func (q *AccountStatesQuery) check() ([]Address, error) {
	if err := checkPage(q.Limit, q.Offset); err != nil {
		return nil, err
	}
	if q.Sort != "" && q.Sort != SortAsc && q.Sort != SortDesc {
		return nil, &nodeaccess.InputError{Arg: "sort", Reason: transport.Quote(string(q.Sort)) + " is not asc or desc"}
	}
	return parseAccounts("accounts", q.Accounts)
}

// values returns the parameters of one request for accounts.
func (q *AccountStatesQuery) values(accounts []Address) url.Values {
	v := url.Values{"include_boc": {strconv.FormatBool(q.IncludeBOC)}}
	switch len(accounts) {
	case 0:
	case 1:
		v.Set("account_address", accounts[0].Raw())
		v.Set("address", accounts[0].Raw())
	default:
		raw := make([]string, len(accounts))
		for i, a := range accounts {
			raw[i] = a.Raw()
		}
		v["address"] = raw
	}
	if q.CodeHash != (Hash{}) {
		v.Set("code_hash", q.CodeHash.String())
	}
	setPage(v, q.Limit, q.Offset)
	if q.Sort != "" {
		v.Set("sort", string(q.Sort))
	}
	return v
}

// AccountStates runs accountStates: GET {base}/{key}/api/v3/accountStates
// with the query's parameters (see AccountStatesQuery for what each server
// honours). Each request costs one request unit, whatever the number of
// accounts it names.
//
// More than 1000 accounts are sent in several requests of at most
// 1000 accounts each, one after the other (each waits for the client's
// budget, if any), every one with the query's other parameters; the page
// holds the states, address books and metadata of all of them, in the
// order of the requests. The first request that fails ends the call with
// its error and no page. On a server that pages, each request is a page of
// its own accounts: AllAccountStates walks every page.
//
// A state of an account the query did not name is an ErrInvalidResponse
// error (a server that reads only account_address, not the repeated
// address, answers so for several accounts), and so is a state whose code
// hash is not CodeHash.
//
// A 422 answer whose message is one of the indexer's refusals of a
// request's parameters ("address of account is required", or a parameter
// it cannot convert) is an error matching nodeaccess.ErrInvalidInput. The
// indexer answers 422 also when its database query fails or times out;
// such a 422 is retried like a 5xx, and after the last attempt is the
// server's error (a *nodeaccess.HTTPError with status 422), not
// ErrInvalidInput.
func (c *Client) AccountStates(ctx context.Context, q AccountStatesQuery) (*AccountStatesPage, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap("accountStates", err)
	}
	const op = "accountStates"
	accounts, err := q.check()
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	pages, err := indexerPages(accounts, func(g []Address) (*AccountStatesPage, error) { return c.accountStates(ctx, &q, g) })
	if err != nil {
		return nil, c.t.Wrap(op, err)
	}
	if len(pages) == 1 {
		return pages[0], nil
	}
	states, book := 0, 0
	for _, p := range pages {
		states, book = states+len(p.States), book+len(p.AddressBook)
	}
	// One page of all the requests' answers, each part sized once.
	page := &AccountStatesPage{States: make([]AccountState, 0, states), AddressBook: make(map[Address]AddressBookEntry, book)}
	for _, p := range pages {
		page.States = append(page.States, p.States...)
		mergeBook(page.AddressBook, &page.UnknownAddresses, p.AddressBook, p.UnknownAddresses)
	}
	return page, nil
}

// accountStates sends one request, for accounts (none, or at most
// 1000), and checks that the answer keeps to them and to q.CodeHash.
func (c *Client) accountStates(ctx context.Context, q *AccountStatesQuery, accounts []Address) (*AccountStatesPage, error) {
	const op = "accountStates"
	resp, err := c.send(ctx, &transport.Request{Op: op, Method: http.MethodGet, Target: c.states, Query: q.values(accounts), RetryIf: retryStates})
	if err != nil {
		return nil, refuseStates(err)
	}
	page, err := decode(c, &resp, decodeAccountStates)
	if err != nil {
		return nil, refuseStates(err)
	}
	asked := make(map[Address]bool, len(accounts))
	for _, a := range accounts {
		asked[a] = true
	}
	for i := range page.States {
		s := &page.States[i]
		if len(accounts) > 0 && !asked[s.Account] {
			return nil, fmt.Errorf("%w: state %d is of account %s, which the request did not name (a server that reads only account_address takes one account a request)",
				nodeaccess.ErrInvalidResponse, i, s.Account)
		}
		if q.CodeHash != (Hash{}) && s.CodeHash != q.CodeHash {
			return nil, fmt.Errorf("%w: state %d (account %s) has code hash %s, not the code_hash asked for, %s (the server ignores code_hash)",
				nodeaccess.ErrInvalidResponse, i, s.Account, s.CodeHash, q.CodeHash)
		}
	}
	return page, nil
}

// refuseStates marks the indexer's 422 refusals of the parameters in err
// (refusesInput), in either envelope, as refusals of the input.
func refuseStates(err error) error {
	if status, msg, ok := serverFault(err); ok && status == http.StatusUnprocessableEntity && refusesInput(msg) {
		return refused(err)
	}
	return err
}

// retryStates retries what every TON call retries (5xx), and a 422 whose
// body is a TON error that is not one of the indexer's refusals of the
// parameters: the indexer answers 422 for a failed or timed-out database
// query too.
func retryStates(status int, body []byte) bool {
	if retry5xx(status, body) {
		return true
	}
	if status != http.StatusUnprocessableEntity {
		return false
	}
	_, msg, ok := parseErrorBody(body)
	return ok && !refusesInput(msg)
}

// refusesInput reports whether msg is one of the v3 indexer's messages for
// parameters it refuses: a missing address, or fiber's query parser
// failing to convert a value ("failed to decode: schema: error converting
// value for …").
func refusesInput(msg string) bool {
	msg = strings.TrimSpace(msg)
	return msg == "address of account is required" || strings.HasPrefix(msg, "failed to decode: ") || strings.HasPrefix(msg, "schema: ")
}

type wireAccountState struct {
	// Load-bearing: a member that cannot be read refuses the page.
	Account             wire.Addr `json:"account"`
	Address             wire.Addr `json:"address"`
	Hash                wire.Hash `json:"hash"`
	AccountStateHash    wire.Hash `json:"account_state_hash"`
	Balance             wire.Num  `json:"balance"`
	LastTransLT         wire.Num  `json:"last_trans_lt"`
	LastTransactionLT   wire.Num  `json:"last_transaction_lt"`
	LastTransHash       wire.Hash `json:"last_trans_hash"`
	LastTransactionHash wire.Hash `json:"last_transaction_hash"`
	// Secondary: one that cannot be read is named in Unread (a status is
	// kept as sent instead).
	AccountStatus *jsontext.Enum           `json:"account_status"`
	Status        *jsontext.Enum           `json:"status"`
	FrozenHash    jsontext.Soft[wire.Hash] `json:"frozen_hash"`
	CodeHash      jsontext.Soft[wire.Hash] `json:"code_hash"`
	DataHash      jsontext.Soft[wire.Hash] `json:"data_hash"`
	CodeBOC       jsontext.Soft[wire.BOC]  `json:"code_boc"`
	DataBOC       jsontext.Soft[wire.BOC]  `json:"data_boc"`
}

// decodeAccountStates decodes an accountStates body: a paging server's
// {"account_states":[…],"address_book":{…}} or the indexer's
// {"accounts":[…],"address_book":{…},"metadata":{…}}.
func decodeAccountStates(body []byte) (*AccountStatesPage, error) {
	var w struct {
		errorEnvelope
		AccountStates []json.RawMessage `json:"account_states"`
		Accounts      []json.RawMessage `json:"accounts"`
		AddressBook   json.RawMessage   `json:"address_book"`
		Metadata      json.RawMessage   `json:"metadata"`
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
			return nil, fmt.Errorf("%s: %v", itemName("account state", i, raw), err)
		}
	}
	var err error
	if page.AddressBook, page.UnknownAddresses, err = decodeAddressBook(w.AddressBook); err != nil {
		return nil, err
	}
	addMetadata(page.AddressBook, w.Metadata)
	return page, nil
}

func decodeAccountState(raw json.RawMessage, out *AccountState) error {
	var w wireAccountState
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	switch {
	case w.Account.Set:
		out.Account = Address(w.Account.A)
	case w.Address.Set:
		out.Account = Address(w.Address.A)
	default:
		return fmt.Errorf("account (address) is missing")
	}
	var err error
	if out.Balance, err = w.Balance.OptAmount("balance"); err != nil {
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
	if !lt.Set {
		lt = w.LastTransactionLT
	}
	if lt.Set {
		if out.LastTransactionLT, err = lt.Uint64("last_trans_lt"); err != nil {
			return err
		}
	}
	out.LastTransactionHash = either(w.LastTransHash, w.LastTransactionHash)
	u := (*jsontext.Unread)(&out.Unread)
	for _, h := range []struct {
		name string
		v    jsontext.Soft[wire.Hash]
		out  *Hash
	}{{"frozen_hash", w.FrozenHash, &out.FrozenHash}, {"code_hash", w.CodeHash, &out.CodeHash}, {"data_hash", w.DataHash, &out.DataHash}} {
		if u.Check(h.name, h.v.Err) {
			*h.out = Hash(h.v.V.H)
		}
	}
	if u.Check("code_boc", w.CodeBOC.Err) {
		out.CodeBOC = w.CodeBOC.V
	}
	if u.Check("data_boc", w.DataBOC.Err) {
		out.DataBOC = w.DataBOC.V
	}
	out.Raw = raw
	return nil
}

// either returns a paging server's member when it was sent, else the
// indexer's.
func either(iface, indexer wire.Hash) Hash {
	if iface.Set {
		return Hash(iface.H)
	}
	return Hash(indexer.H)
}
