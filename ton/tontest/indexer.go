package tontest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/ton"
)

// WithIndexer makes the v3 calls answer as the open-source v3 indexer
// (toncenter's ton-index-go) answers them, instead of as a server that
// pages (the default), so that code can be tested against both:
//
//   - accountStates takes address (repeated) and code_hash (repeated, ANDed
//     with address), ignores account_address, limit, offset and sort, and
//     answers {"accounts":[…],"address_book":{…},"metadata":{…}} under the
//     indexer's member names (address in upper case raw form,
//     account_state_hash, status, last_transaction_lt as a string,
//     last_transaction_hash, extra_currencies, contract_methods, interfaces;
//     frozen_hash, code_hash, data_hash and the bags of cells left out when
//     absent; metadata for the listed accounts whose address book entry
//     has TokenInfo, see SetAddressBookEntry). It lists the latest state (the highest last_trans_lt) of
//     each account it knows, in a new random order on every request, at
//     most 1000 of them; an account it does not know is left out.
//     include_boc defaults to true. Without address it answers 422 "address
//     of account is required"; an empty address value is no filter at all,
//     as on the indexer: address= lists every account (at most 1000).
//   - pendingTransactions takes account (repeated, required: 422 "at least
//     1 account address required") and trace_id (read, then ignored, as the
//     indexer does when account is present), ignores limit and offset, and
//     lists the emulated transactions of the accounts (Emulated true, or
//     "emulated": true in Raw) in a new random order on every request. When
//     none of the accounts has a transaction it answers 404 "emulated traces
//     not found"; when they have some but none is emulated (all already in
//     blocks) it answers 200 {"transactions":null,"address_book":{}}.
//
// A value the indexer's query parser cannot convert gets its 422 "failed to
// decode: schema: error converting value for index N of \"address\"" (or
// "account", "code_hash", "trace_id"; "include_boc" without an index).
// WithMaxLimit has no effect on these calls, since the indexer has no
// limit there.
func WithIndexer() Option {
	return Option{func(s *settings) error {
		s.indexer = true
		return nil
	}}
}

// indexerConversionError is the indexer's 422 for the value at index i of a
// repeated parameter its query parser (fiber over gorilla/schema) cannot
// convert.
func indexerConversionError(name string, i int) error {
	return unprocessable("failed to decode: schema: error converting value for index %d of %q", i, name)
}

// indexerList reads the repeated parameter name as the indexer's query
// parser does: a value conv refuses is a 422 naming its index, an empty
// value is kept out (the indexer's filter skips it), and given reports
// whether the parameter was sent at all.
func indexerList[T any](q url.Values, name string, conv func(string) (T, error)) (out []T, given bool, err error) {
	vals, given := q[name]
	for i, v := range vals {
		if v == "" {
			continue
		}
		x, err := conv(v)
		if err != nil {
			return nil, given, indexerConversionError(name, i)
		}
		out = append(out, x)
	}
	return out, given, nil
}

// parseIndexerHash reads a hash as the indexer's HashConverter does: 64 hex
// digits (with or without 0x), or 44 characters of base64 or base64url.
func parseIndexerHash(s string) (ton.Hash, error) {
	var b []byte
	var err error
	switch {
	case len(s) == 64 || len(s) == 66 && strings.HasPrefix(s, "0x"):
		b, err = hex.DecodeString(strings.TrimPrefix(s, "0x"))
	case len(s) == 44:
		if b, err = base64.StdEncoding.DecodeString(s); err != nil {
			b, err = base64.URLEncoding.DecodeString(s)
		}
	default:
		err = fmt.Errorf("length %d", len(s))
	}
	if err != nil || len(b) != len(ton.Hash{}) {
		return ton.Hash{}, fmt.Errorf("not a hash")
	}
	return ton.Hash(b), nil
}

// indexerAccountStates answers accountStates as the indexer does (see
// WithIndexer).
func (s *Server) indexerAccountStates(q url.Values) ([]byte, error) {
	accounts, given, err := indexerList(q, "address", ton.ParseAddress)
	if err != nil {
		return nil, err
	}
	codes, _, err := indexerList(q, "code_hash", parseIndexerHash)
	if err != nil {
		return nil, err
	}
	withBOC := true
	if v := q.Get("include_boc"); v != "" {
		if withBOC, err = strconv.ParseBool(v); err != nil {
			return nil, unprocessable("failed to decode: schema: error converting value for %q", "include_boc")
		}
	}
	if !given {
		return nil, unprocessable("address of account is required")
	}

	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	var picked []*stateRec
	add := func(states []stateRec) {
		if len(states) == 0 {
			return
		}
		latest := &states[0]
		for i := range states {
			if states[i].lt > latest.lt {
				latest = &states[i]
			}
		}
		if len(codes) == 0 || slices.Contains(codes, latest.codeHash) {
			picked = append(picked, latest)
		}
	}
	if len(accounts) == 0 { // address= only: no filter
		for _, states := range s.data.states {
			add(states)
		}
	} else {
		seen := make(map[ton.Address]bool, len(accounts))
		for _, a := range accounts {
			if !seen[a] {
				seen[a] = true
				add(s.data.states[a])
			}
		}
	}
	rand.Shuffle(len(picked), func(i, j int) { picked[i], picked[j] = picked[j], picked[i] })
	picked = picked[:min(len(picked), maxLimit)]

	b := []byte(`{"accounts":[`)
	mentioned := make([]ton.Address, 0, len(picked))
	for i, st := range picked {
		if i > 0 {
			b = append(b, ',')
		}
		if withBOC {
			b = append(b, st.idxBOC...)
		} else {
			b = append(b, st.idxPlain...)
		}
		mentioned = append(mentioned, st.account)
	}
	b = append(b, `],"address_book":`...)
	b = append(b, s.data.renderBook(mentioned)...)
	b = append(b, `,"metadata":`...)
	b = s.data.appendMetadata(b, mentioned)
	return append(b, '}'), nil
}

// indexerPending answers pendingTransactions as the indexer does (see
// WithIndexer).
func (s *Server) indexerPending(q url.Values) ([]byte, error) {
	accounts, given, err := indexerList(q, "account", ton.ParseAddress)
	if err != nil {
		return nil, err
	}
	if _, _, err := indexerList(q, "trace_id", parseIndexerHash); err != nil {
		return nil, err
	}
	if !given {
		return nil, unprocessable("at least 1 account address required")
	}
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	var all []pendingRec
	seen := make(map[ton.Address]bool, len(accounts))
	for _, a := range accounts {
		if !seen[a] {
			seen[a] = true
			all = append(all, s.data.pending[a]...)
		}
	}
	if len(all) == 0 {
		return nil, &failure{status: http.StatusNotFound, msg: "emulated traces not found"}
	}
	listed := slices.DeleteFunc(all, func(tx pendingRec) bool { return !tx.emulated })
	if len(listed) == 0 {
		return []byte(`{"transactions":null,"address_book":{}}`), nil
	}
	rand.Shuffle(len(listed), func(i, j int) { listed[i], listed[j] = listed[j], listed[i] })
	b := []byte(`{"transactions":[`)
	var mentioned []ton.Address
	for i, tx := range listed {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, tx.entry...)
		mentioned = append(mentioned, tx.mentions...)
	}
	b = append(b, `],"address_book":`...)
	b = append(b, s.data.renderBook(mentioned)...)
	return append(b, '}'), nil
}

// indexerStateSkip are the members of an account state the indexer's
// rendering owns: those of stateSkip and those it writes with a default.
var indexerStateSkip = append(slices.Clone(stateSkip), "extra_currencies", "contract_methods", "interfaces")

// renderIndexerState writes a state under the indexer's member names, in
// the order of its AccountStateFull model, without and with the bags of
// cells: frozen_hash, data_hash, code_hash and the bags are left out when
// absent; extra_currencies, contract_methods and interfaces come from raw,
// else {}, null and [].
func renderIndexerState(account ton.Address, st *ton.AccountState, status []byte, raw map[string]json.RawMessage) (plain, withBOC []byte) {
	or := func(name, def string) []byte {
		if v := bytes.TrimSpace(raw[name]); len(v) > 0 {
			return compact(v)
		}
		return []byte(def)
	}
	lt := []byte("null")
	if st.LastTransactionLT != 0 {
		lt = jsonUintString(st.LastTransactionLT)
	}
	opt := func(ms []member, name string, h ton.Hash) []member {
		if h == (ton.Hash{}) {
			return ms
		}
		return append(ms, member{name, jsonHash(h)})
	}
	ms := []member{
		{"address", jsonString(rawUpper(account))},
		{"account_state_hash", jsonHash(st.Hash)},
		{"balance", jsonAmount(st.Balance)},
		{"extra_currencies", or("extra_currencies", "{}")},
		{"status", status},
	}
	ms = opt(ms, "frozen_hash", st.FrozenHash)
	ms = append(ms, member{"last_transaction_hash", jsonHash(st.LastTransactionHash)}, member{"last_transaction_lt", lt})
	ms = opt(ms, "data_hash", st.DataHash)
	ms = opt(ms, "code_hash", st.CodeHash)
	tail := []member{{"contract_methods", or("contract_methods", "null")}, {"interfaces", or("interfaces", "[]")}}
	plain = renderObject(append(slices.Clip(ms), tail...), raw, indexerStateSkip...)
	bocs := slices.Clone(ms)
	if st.DataBOC != nil {
		bocs = append(bocs, member{"data_boc", jsonBOC(st.DataBOC)})
	}
	if st.CodeBOC != nil {
		bocs = append(bocs, member{"code_boc", jsonBOC(st.CodeBOC)})
	}
	withBOC = renderObject(append(bocs, tail...), raw, indexerStateSkip...)
	return plain, withBOC
}
