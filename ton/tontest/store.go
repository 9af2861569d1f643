package tontest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/nodeaccess/nodeaccess/ton"
)

// store is the server's data, kept rendered: each entry is stored as the
// JSON the server writes for it, so that a request only assembles bytes.
type store struct {
	mu      sync.RWMutex
	blocks  map[ton.BlockRef]*blockRec
	states  map[ton.Address][]stateRec
	pending map[ton.Address][]pendingRec
	book    map[ton.Address]ton.AddressBookEntry
}

type stateRec struct {
	account  ton.Address
	lt       uint64
	hash     ton.Hash
	codeHash ton.Hash
	status   ton.AccountStatus
	plain    []byte // a paging server's names, without code_boc, data_boc
	withBOC  []byte
	idxPlain []byte // the indexer's names (WithIndexer), without the bocs
	idxBOC   []byte
}

type pendingRec struct {
	entry    []byte
	emulated bool          // listed by the indexer (WithIndexer)
	mentions []ton.Address // account, in_msg source, out_msgs destinations
}

func newStore() *store {
	return &store{
		blocks:  make(map[ton.BlockRef]*blockRec),
		states:  make(map[ton.Address][]stateRec),
		pending: make(map[ton.Address][]pendingRec),
		book:    make(map[ton.Address]ton.AddressBookEntry),
	}
}

// stateSkip are the members of an account state that the typed fields own,
// under a paging server's and the indexer's names.
var stateSkip = []string{"account", "address", "hash", "account_state_hash", "balance", "account_status", "status",
	"last_trans_lt", "last_transaction_lt", "last_trans_hash", "last_transaction_hash", "frozen_hash", "code_hash",
	"data_hash", "code_boc", "data_boc"}

func (s *store) setStates(account ton.Address, states []ton.AccountState) error {
	recs := make([]stateRec, 0, len(states))
	for i := range states {
		st := &states[i]
		if st.Account != account {
			return fmt.Errorf("tontest: account states of %s: state %d is of account %s", account, i, st.Account)
		}
		if err := checkAmount("balance", st.Balance); err != nil {
			return fmt.Errorf("tontest: account states of %s: state %d: %w", account, i, err)
		}
		raw, err := rawObject(st.Raw)
		if err != nil {
			return fmt.Errorf("tontest: account states of %s: state %d: the Raw field: %w", account, i, err)
		}
		status := []byte("null")
		if st.Status != "" {
			status = jsonString(string(st.Status))
		}
		ms := []member{
			{"account", jsonString(rawUpper(account))},
			{"hash", jsonHash(st.Hash)},
			{"balance", jsonAmount(st.Balance)},
			{"account_status", status},
			{"last_trans_lt", jsonUint(st.LastTransactionLT)},
			{"last_trans_hash", jsonHash(st.LastTransactionHash)},
			{"frozen_hash", jsonHash(st.FrozenHash)},
			{"code_hash", jsonHash(st.CodeHash)},
			{"data_hash", jsonHash(st.DataHash)},
		}
		rec := stateRec{account: account, lt: st.LastTransactionLT, hash: st.Hash, codeHash: st.CodeHash, status: st.Status}
		rec.plain = renderObject(ms, raw, stateSkip...)
		rec.withBOC = renderObject(append(ms, member{"code_boc", jsonBOC(st.CodeBOC)}, member{"data_boc", jsonBOC(st.DataBOC)}), raw, stateSkip...)
		rec.idxPlain, rec.idxBOC = renderIndexerState(account, st, status, raw)
		recs = append(recs, rec)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(recs) == 0 {
		delete(s.states, account)
	} else {
		s.states[account] = recs
	}
	return nil
}

// pendingOrder is the order of the members of a v3 transaction (the
// indexer's Transaction model): the typed ones and those taken from Raw.
var pendingOrder = []string{"account", "hash", "lt", "now", "mc_block_seqno", "trace_id", "trace_external_hash", "prev_trans_hash", "prev_trans_lt",
	"orig_status", "end_status", "total_fees", "total_fees_extra_currencies", "description", "block_ref", "in_msg",
	"out_msgs", "account_state_before", "account_state_after", "emulated", "finality"}

func (s *store) setPending(account ton.Address, txs []ton.PendingTransaction) error {
	recs := make([]pendingRec, 0, len(txs))
	seen := make(map[ton.Hash]bool, len(txs))
	for i := range txs {
		rec, err := renderPending(account, &txs[i])
		if err == nil && seen[txs[i].Hash] {
			err = fmt.Errorf("hash %s is listed twice", txs[i].Hash)
		}
		if err != nil {
			return fmt.Errorf("tontest: pending transactions of %s: transaction %d: %w", account, i, err)
		}
		seen[txs[i].Hash] = true
		recs = append(recs, rec)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(recs) == 0 {
		delete(s.pending, account)
	} else {
		s.pending[account] = recs
	}
	return nil
}

func renderPending(account ton.Address, tx *ton.PendingTransaction) (pendingRec, error) {
	switch {
	case tx.Account != account:
		return pendingRec{}, fmt.Errorf("it is of account %s", tx.Account)
	case tx.LT == 0:
		return pendingRec{}, fmt.Errorf("lt is 0 (logical times start at 1)")
	}
	if err := checkAmount("total_fees", tx.TotalFees); err != nil {
		return pendingRec{}, err
	}
	raw, err := rawObject(tx.Raw)
	if err != nil {
		return pendingRec{}, fmt.Errorf("the Raw field: %w", err)
	}
	typed := map[string][]byte{
		"account":        jsonString(rawUpper(account)),
		"hash":           jsonString(tx.Hash.String()),
		"lt":             jsonUintString(tx.LT),
		"now":            []byte("null"),
		"mc_block_seqno": []byte("null"),
		"trace_id":       []byte("null"),
	}
	if !tx.Now.IsZero() {
		typed["now"] = appendInt(nil, tx.Now.Unix())
	}
	if tx.MCBlockSeqno != 0 {
		typed["mc_block_seqno"] = jsonUint(uint64(tx.MCBlockSeqno))
	}
	if tx.TraceID != "" {
		typed["trace_id"] = jsonString(tx.TraceID)
	}
	if tx.TotalFees != nil {
		typed["total_fees"] = jsonAmount(tx.TotalFees)
	}
	// Typed when set; otherwise the raw member, if any, is served.
	if tx.TraceExternalHash != (ton.Hash{}) {
		typed["trace_external_hash"] = jsonString(tx.TraceExternalHash.String())
	}
	if tx.Emulated {
		typed["emulated"] = []byte("true")
	}
	if tx.Finality != "" {
		typed["finality"] = jsonString(string(tx.Finality))
	}
	ms := make([]member, 0, len(pendingOrder))
	for _, name := range pendingOrder {
		if name == "total_fees" && tx.TotalFees == nil {
			continue // typed: left out, never taken from Raw
		}
		ms = append(ms, member{name, typed[name]})
	}
	rec := pendingRec{entry: renderObject(ms, raw, "account", "hash", "lt", "now", "mc_block_seqno", "trace_id", "total_fees"),
		emulated: tx.Emulated || bytes.Equal(bytes.TrimSpace(raw["emulated"]), []byte("true"))}
	rec.mentions = append(rec.mentions, account)
	rec.mentions = append(rec.mentions, messageAddresses(raw)...)
	return rec, nil
}

// messageAddresses returns the accounts a v3 transaction's messages name:
// the source of in_msg and the destinations of out_msgs (the indexer puts
// them in the address book too). Members that are absent, null or not
// addresses are passed over.
func messageAddresses(raw map[string]json.RawMessage) []ton.Address {
	var out []ton.Address
	var in struct {
		Source *string `json:"source"`
	}
	if json.Unmarshal(raw["in_msg"], &in) == nil && in.Source != nil {
		if a, err := ton.ParseAddress(*in.Source); err == nil {
			out = append(out, a)
		}
	}
	var outs []struct {
		Destination *string `json:"destination"`
	}
	if json.Unmarshal(raw["out_msgs"], &outs) == nil {
		for _, m := range outs {
			if m.Destination == nil {
				continue
			}
			if a, err := ton.ParseAddress(*m.Destination); err == nil {
				out = append(out, a)
			}
		}
	}
	return out
}

func (s *store) setBook(account ton.Address, e ton.AddressBookEntry) error {
	for i, ti := range e.TokenInfo {
		if _, err := rawObject(ti.Raw); err != nil {
			return fmt.Errorf("tontest: address book entry of %s: TokenInfo %d: the Raw field: %w", account, i, err)
		}
	}
	e.Interfaces = slices.Clone(e.Interfaces)
	e.TokenInfo = slices.Clone(e.TokenInfo)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book[account] = e
	return nil
}

// renderBook writes the address_book of accounts: keyed by the raw form in
// upper case, as the indexer writes it, in key order. The caller holds the
// read lock.
func (s *store) renderBook(accounts []ton.Address) []byte {
	entries := make(map[string][]byte, len(accounts))
	for _, a := range accounts {
		key := rawUpper(a)
		if entries[key] != nil {
			continue
		}
		e, ok := s.book[a]
		if !ok || e.UserFriendly == "" {
			e.UserFriendly = s.defaultFriendly(a)
		}
		domain := []byte("null")
		if e.Domain != "" {
			domain = jsonString(e.Domain)
		}
		ifaces := []byte("[]")
		if len(e.Interfaces) > 0 {
			ifaces, _ = json.Marshal(e.Interfaces) // strings always marshal
		}
		entries[key] = renderObject([]member{
			{"user_friendly", jsonString(e.UserFriendly)},
			{"domain", domain},
			{"interfaces", ifaces},
		}, nil)
	}
	b := []byte{'{'}
	for i, k := range slices.Sorted(maps.Keys(entries)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = append(b, entries[k]...)
	}
	return append(b, '}')
}

// tokenSkip are the members of a token_info entry the typed fields own.
var tokenSkip = []string{"type", "name", "symbol", "description", "image", "valid", "is_scam", "is_nsfw"}

// appendMetadata appends to out the indexer's metadata of accounts: for each one
// whose address book entry has TokenInfo (not nil), keyed by the raw form in
// upper case, {"is_indexed":…,"token_info":[…]}, each token's typed members
// (those left "" or nil taken from its Raw, if there) and then Raw's others,
// in key order. The caller holds the read lock.
func (s *store) appendMetadata(out []byte, accounts []ton.Address) []byte {
	var entries map[string][]byte // made for the first account with metadata
	for _, a := range accounts {
		e, ok := s.book[a]
		if !ok || e.TokenInfo == nil {
			continue
		}
		key := rawUpper(a)
		if entries == nil {
			entries = map[string][]byte{}
		} else if entries[key] != nil {
			continue
		}
		infos := []byte{'['}
		for i, ti := range e.TokenInfo {
			if i > 0 {
				infos = append(infos, ',')
			}
			raw, _ := rawObject(ti.Raw) // checked by setBook
			str := func(v string) []byte {
				if v == "" {
					return nil
				}
				return jsonString(v)
			}
			flag := func(v *bool) []byte {
				if v == nil {
					return nil
				}
				return strconv.AppendBool(nil, *v)
			}
			infos = append(infos, renderObject([]member{
				{"type", str(ti.Type)}, {"name", str(ti.Name)}, {"symbol", str(ti.Symbol)}, {"description", str(ti.Description)},
				{"image", str(ti.Image)}, {"valid", flag(ti.Valid)}, {"is_scam", flag(ti.IsScam)}, {"is_nsfw", flag(ti.IsNSFW)},
			}, raw, tokenSkip...)...)
		}
		entries[key] = renderObject([]member{
			{"is_indexed", strconv.AppendBool(nil, e.IsIndexed)},
			{"token_info", append(infos, ']')},
		}, nil)
	}
	if entries == nil {
		return append(out, "{}"...)
	}
	b := append(out, '{')
	for i, k := range slices.Sorted(maps.Keys(entries)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = append(b, entries[k]...)
	}
	return append(b, '}')
}

// defaultFriendly is the user-friendly form the server writes for an
// account without an address book entry: non-bounceable when its newest
// known state is uninit or nonexist (an account without code, where a
// bounced message would come back), bounceable otherwise.
func (s *store) defaultFriendly(a ton.Address) string {
	bounceable := true
	if states := s.states[a]; len(states) > 0 {
		newest := slices.MaxFunc(states, func(x, y stateRec) int { return cmp.Compare(x.lt, y.lt) })
		bounceable = newest.status != ton.StatusUninit && newest.status != ton.StatusNonexist
	}
	return a.Friendly(bounceable, false).String()
}
