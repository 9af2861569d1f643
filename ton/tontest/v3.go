package tontest

import (
	"bytes"
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/nodeaccess/nodeaccess/ton"
)

// The v3 page limits: a paging server's default and the indexer's maximum.
const (
	defaultLimit = 10
	maxLimit     = 1000
)

func writeV3Failure(w http.ResponseWriter, err error) {
	status, msg := statusOf(err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(appendV3Error(nil, msg))
}

// parsePage reads limit (default 10, at most 1000; below 1 counts as 1, as
// on the indexer) and offset (default 0), and caps limit at WithMaxLimit's
// n without a word.
func (s *Server) parsePage(q url.Values) (limit, offset int, err error) {
	limit, offset, err = parsePage(q)
	if err == nil && s.maxLimit > 0 {
		limit = min(limit, s.maxLimit)
	}
	return limit, offset, err
}

// parsePage reads limit (default 10, at most 1000; below 1 counts as 1, as
// on the indexer) and offset (default 0).
func parsePage(q url.Values) (limit, offset int, err error) {
	limit = defaultLimit
	if s := q.Get("limit"); s != "" {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return 0, 0, conversionError("limit")
		}
		limit = int(max(1, v))
		if limit > maxLimit {
			return 0, 0, unprocessable("limit is not allowed: %d > %d", limit, maxLimit)
		}
	}
	if s := q.Get("offset"); s != "" {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return 0, 0, conversionError("offset")
		}
		if v < 0 {
			return 0, 0, unprocessable("offset is not allowed: %d < 0", v)
		}
		offset = int(v)
	}
	return limit, offset, nil
}

// parseAccounts reads the addresses of the named (repeatable) parameters,
// in the order sent, without repeats.
func parseAccounts(q url.Values, names ...string) ([]ton.Address, error) {
	var out []ton.Address
	for _, name := range names {
		for _, v := range q[name] {
			a, err := ton.ParseAddress(v)
			if err != nil {
				if len(v) > 100 {
					return nil, unprocessable("failed to parse %s: a %d-byte value is not an address", name, len(v))
				}
				return nil, unprocessable("failed to parse %s: %q is not an address", name, v)
			}
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out, nil
}

func window[T any](items []T, limit, offset int) []T {
	if offset >= len(items) {
		return nil
	}
	return items[offset:min(len(items), offset+limit)]
}

// serveAccountStates answers GET /{key}/api/v3/accountStates.
func (s *Server) serveAccountStates(w http.ResponseWriter, r *http.Request) {
	accountStates := s.accountStates
	if s.indexer {
		accountStates = s.indexerAccountStates
	}
	body, err := accountStates(r.URL.Query())
	if err != nil {
		writeV3Failure(w, err)
		return
	}
	writeJSON(w, body)
}

// accountStates lists the states of the accounts named by account_address
// (a paging server's name) and address (the indexer's, repeatable), or of
// every account when neither is sent, by last_trans_lt (then account and
// state hash, so that the order is total), newest first unless sort=asc;
// then applies offset and limit. include_boc (default false, as on a paging
// server) adds code_boc and data_boc.
func (s *Server) accountStates(q url.Values) ([]byte, error) {
	limit, offset, err := s.parsePage(q)
	if err != nil {
		return nil, err
	}
	accounts, err := parseAccounts(q, "account_address", "address")
	if err != nil {
		return nil, err
	}
	withBOC := false
	if v := q.Get("include_boc"); v != "" {
		if withBOC, err = strconv.ParseBool(v); err != nil {
			return nil, conversionError("include_boc")
		}
	}
	desc := true
	switch v := q.Get("sort"); v {
	case "", "desc":
	case "asc":
		desc = false
	default:
		return nil, unprocessable("sort must be asc or desc")
	}

	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	var all []stateRec
	if accounts == nil {
		for _, states := range s.data.states {
			all = append(all, states...)
		}
	} else {
		for _, a := range accounts {
			all = append(all, s.data.states[a]...)
		}
	}
	slices.SortFunc(all, func(a, b stateRec) int {
		c := cmp.Compare(a.lt, b.lt)
		if c == 0 {
			c = bytes.Compare(a.account.ID[:], b.account.ID[:])
		}
		if c == 0 {
			c = cmp.Compare(a.account.Workchain, b.account.Workchain)
		}
		if c == 0 {
			c = bytes.Compare(a.hash[:], b.hash[:])
		}
		if desc {
			return -c
		}
		return c
	})
	page := window(all, limit, offset)
	b := []byte(`{"account_states":[`)
	mentioned := make([]ton.Address, 0, len(page))
	for i, st := range page {
		if i > 0 {
			b = append(b, ',')
		}
		if withBOC {
			b = append(b, st.withBOC...)
		} else {
			b = append(b, st.plain...)
		}
		mentioned = append(mentioned, st.account)
	}
	b = append(b, `],"address_book":`...)
	b = append(b, s.data.renderBook(mentioned)...)
	return append(b, '}'), nil
}

// servePending answers GET /{key}/api/v3/pendingTransactions.
func (s *Server) servePending(w http.ResponseWriter, r *http.Request) {
	pendingTransactions := s.pendingTransactions
	if s.indexer {
		pendingTransactions = s.indexerPending
	}
	body, err := pendingTransactions(r.URL.Query())
	if err != nil {
		writeV3Failure(w, err)
		return
	}
	writeJSON(w, body)
}

// pendingTransactions lists the pending transactions of the accounts named
// by account (repeatable; required, as on the indexer), each account's in
// the order they were set, then applies offset and limit. When none of the
// accounts has anything pending it is the indexer's 404 "emulated traces
// not found"; an offset past the end of a non-empty list is an empty page.
func (s *Server) pendingTransactions(q url.Values) ([]byte, error) {
	limit, offset, err := s.parsePage(q)
	if err != nil {
		return nil, err
	}
	accounts, err := parseAccounts(q, "account")
	if err != nil {
		return nil, err
	}
	if len(accounts) == 0 {
		return nil, unprocessable("at least 1 account address required")
	}
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	var all []pendingRec
	for _, a := range accounts {
		all = append(all, s.data.pending[a]...)
	}
	if len(all) == 0 {
		return nil, &failure{status: http.StatusNotFound, msg: "emulated traces not found"}
	}
	page := window(all, limit, offset)
	b := []byte(`{"transactions":[`)
	var mentioned []ton.Address
	for i, tx := range page {
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
