package ton_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The accounts of the hand-built indexer bodies (testdata/SOURCES.md).
const (
	hbWallet       = "0:1C2201823E6DAE55FADD08CAD27845C77267C462D81B0620FE664DEE28BB8E34"
	hbWalletEscape = "0%3A1c2201823e6dae55fadd08cad27845c77267c462d81b0620fe664dee28bb8e34"
	hbOther        = "0:52D75E0584730001239D4CD8C73D651B206EAC67DB551535B6B6D505E6D41C77"
	hbOtherEscape  = "0%3A52d75e0584730001239d4cd8c73d651b206eac67db551535b6b6d505e6d41c77"
)

// An emulated transaction as the indexer lists it (hand-built from
// toncenter/ton-indexer eb9fbfa3 index/emulated/models.go ToTransaction
// 1294-1336, crud_pending.go 248-252): emulated, finality "pending" and
// trace_external_hash are typed; trace_id is absent (the trace's first
// transaction is in no block yet).
func TestPendingTransactionsEmulatedEntryHandBuilt(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathPending, "account="+hbWalletEscape, 200, string(testdata(t, "v3_pendingTransactions_one_emulated_HANDBUILT.json")))
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{hbWallet}})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 1)
	tx := page.Transactions[0]
	assert.Equal(t, mustAddress(hbWallet), tx.Account)
	assert.True(t, tx.Emulated)
	assert.Equal(t, ton.FinalityPending, tx.Finality)
	assert.Contains(t, knownFinalities, tx.Finality)
	assert.Equal(t, "d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3c=", tx.TraceExternalHash.String())
	assert.Empty(t, tx.TraceID)
	assert.Equal(t, uint64(61949900000001), tx.LT)
	assert.Equal(t, time.Unix(1758910300, 0).UTC(), tx.Now)
	assert.Equal(t, uint32(52372950), tx.MCBlockSeqno)
	// The trace's external hash is the hash of the root's external
	// in-message (TraceEmulator.h 22: "hash of cur tx in msg").
	require.NotNil(t, tx.InMsg)
	assert.Nil(t, tx.InMsg.Source)
	assert.Equal(t, tx.TraceExternalHash, tx.InMsg.Hash)
	assert.Len(t, tx.OutMsgs, 1)
	assert.Len(t, page.AddressBook, 2)
	assert.Nil(t, page.UnknownAddresses)
}

// Issue 21: a 200 with "transactions": null, the indexer's answer when the
// traces it holds are all in blocks already (hand-built from ton-indexer
// eb9fbfa3 crud_pending.go 200-264), is nothing pending: an empty page, as
// the 404 is. The old decoder failed it ("transactions" is not an array).
func TestPendingTransactionsNullIsEmpty(t *testing.T) {
	for _, f := range []struct {
		status int
		file   string
	}{{200, "v3_pendingTransactions_200_all_completed_HANDBUILT.json"}, {404, "v3_pendingTransactions_404_HANDBUILT.json"}} {
		c := gockClient(t)
		mockGET(t, pathPending, "account="+hbWalletEscape, f.status, string(testdata(t, f.file)))
		page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{hbWallet}})
		require.NoError(t, err, f.file)
		assert.NotNil(t, page.Transactions, f.file)
		assert.Empty(t, page.Transactions, f.file)
		assert.NotNil(t, page.AddressBook, f.file)
	}
	// A missing or mistyped transactions member is still an error.
	for _, body := range []string{`{"address_book":{}}`, `{"transactions":{}}`, `{"transactions":"none"}`} {
		c := gockClient(t)
		mockGET(t, pathPending, "", 200, body)
		_, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, body)
	}
}

// Issue 21: a 422 from pendingTransactions is bad input, named as such: it
// matches nodeaccess.ErrInvalidInput, is not retried, and still reaches the
// server's status and message. The bodies are the indexer's (hand-built
// from ton-indexer eb9fbfa3 main.go 340-346 and fiber v2.52.12 ctx.go
// 1339-1340).
func TestPendingTransactions422IsInvalidInput(t *testing.T) {
	for _, tc := range []struct {
		file, msg string
		q         ton.PendingTransactionsQuery
	}{
		{"v3_pendingTransactions_422_no_account_HANDBUILT.json", "at least 1 account address required", ton.PendingTransactionsQuery{}},
		{"v3_pendingTransactions_422_bad_account_HANDBUILT.json", `failed to decode: schema: error converting value for index 1 of "account"`,
			ton.PendingTransactionsQuery{Accounts: []string{hbWallet, hbOther}}},
	} {
		srv, n := cannedServer(t, answer{422, string(testdata(t, tc.file))})
		c, err := ton.New(srv.URL, testKey, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
		require.NoError(t, err)
		_, err = c.PendingTransactions(context.Background(), tc.q)
		require.Error(t, err)
		assert.Equal(t, int32(1), n.Load(), "a refusal is not retried")
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
		assert.NotErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 422, he.StatusCode)
		assert.Equal(t, tc.msg, he.Message)
		var re *nodeaccess.RPCError
		assert.False(t, errors.As(err, &re), "a non-2xx answer is an HTTPError alone")
		assert.Equal(t, "ton: pendingTransactions: invalid input, refused by the server: HTTP 422 Unprocessable Entity: "+tc.msg, err.Error())
		var ie *nodeaccess.InputError
		assert.False(t, errors.As(err, &ie), "no *InputError: the SDK sent the request")
		testkit.AssertErrNoKey(t, testKey, err)
	}
}

// The finality of a v3 transaction: the indexer's strings (toncenter/
// ton-indexer eb9fbfa3 index/models/types.go 117-140, "unknown_3" for the
// 3 some 2026 builds sent), the integers 0/1/2 of its published schema
// (swag's doc.json: models.FinalityState, enum [0,1,2]), and null.
func TestFinalityForms(t *testing.T) {
	tx := func(finality string) string {
		f := ""
		if finality != "" {
			f = `,"finality":` + finality
		}
		return `{"transactions":[{"account":"` + hbWallet + `","hash":"` + hashA + `","lt":"1"` + f + `}],"address_book":{}}`
	}
	for _, tc := range []struct {
		wire  string
		want  ton.Finality
		known bool
	}{
		{`"pending"`, ton.FinalityPending, true}, {`"confirmed"`, ton.FinalityConfirmed, true}, {`"finalized"`, ton.FinalityFinalized, true},
		{`0`, ton.FinalityPending, true}, {`1`, ton.FinalityConfirmed, true}, {`2`, ton.FinalityFinalized, true},
		{`3`, "unknown_3", false}, {`"unknown_3"`, "unknown_3", false}, {`"0"`, "0", false},
		{`null`, "", false}, {``, "", false},
	} {
		c := gockClient(t)
		mockGET(t, pathPending, "", 200, tx(tc.wire))
		page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
		require.NoError(t, err, tc.wire)
		f := page.Transactions[0].Finality
		assert.Equal(t, tc.want, f, tc.wire)
		assert.Equal(t, string(tc.want), fmt.Sprint(f), tc.wire)
		assert.Equal(t, tc.known, slices.Contains(knownFinalities, f), tc.wire)
	}
	// Any other value decodes without error and is kept as sent (issue
	// 30: each made the whole page an error).
	for _, odd := range []string{`true`, `1.5`, `{}`, `[]`, `{"mc":1}`, `["x"]`, `1e3`, ` { "mc" : 1 } `} {
		c := gockClient(t)
		mockGET(t, pathPending, "", 200, tx(odd))
		page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
		require.NoError(t, err, odd)
		f := page.Transactions[0].Finality
		assert.Equal(t, ton.Finality(strings.ReplaceAll(strings.TrimSpace(odd), " ", "")), f, odd)
		assert.False(t, slices.Contains(knownFinalities, f), odd)
		assert.Nil(t, page.Transactions[0].Unread, odd)
	}
}

// A real v3 transaction of 2026-07 (testdata/SOURCES.md; provenance
// incomplete) carries "finality": "finalized" and "emulated": false.
func TestFinalityRealTransaction(t *testing.T) {
	elem := testdata(t, "v3_transactions_element_mainnet_2026-07_dataset_doc.json")
	c := gockClient(t)
	mockGET(t, pathPending, "", 200, `{"transactions":[`+string(elem)+`],"address_book":{}}`)
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 1)
	tx := page.Transactions[0]
	assert.Equal(t, ton.FinalityFinalized, tx.Finality)
	assert.False(t, tx.Emulated)
	assert.True(t, tx.TraceExternalHash == (ton.Hash{}))
	assert.Equal(t, "DQuM/UR2x/CoSTWhY/t75SFyQi7rtmfsGQ5HiTftpjM=", tx.TraceID)
}

// Issue 21: the indexer answers pending transactions in no stable order
// (it ranges over a Go map, ton-indexer eb9fbfa3 index/crud/pending.go
// 102-108). The page is sorted by account (workchain, then id), lt and
// hash, whatever order the server chose; every permutation of the same
// entries gives the same page.
func TestPendingTransactionsSorted(t *testing.T) {
	type e struct {
		acct string
		lt   int
		hash string
	}
	entries := []e{
		{hbOther, 5, hashA}, {hbWallet, 7, hashB}, {"-1:" + strings.Repeat("ff", 32), 9, hashC},
		{hbWallet, 3, hashD}, {hbWallet, 7, hashA}, {hbOther, 1, hashE},
	}
	want := []e{entries[2], entries[3], entries[4], entries[1], entries[5], entries[0]}
	render := func(es []e) string {
		var parts []string
		for _, x := range es {
			parts = append(parts, fmt.Sprintf(`{"account":%q,"hash":%q,"lt":"%d"}`, x.acct, x.hash, x.lt))
		}
		return `{"transactions":[` + strings.Join(parts, ",") + `],"address_book":{}}`
	}
	perm := []e{}
	for i := range entries { // a few rotations and the reverse
		perm = append(append(perm[:0], entries[i:]...), entries[:i]...)
		for _, order := range [][]e{perm, reverse(perm)} {
			c := gockClient(t)
			mockGET(t, pathPending, "", 200, render(order))
			page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{})
			require.NoError(t, err)
			var got []e
			for _, tx := range page.Transactions {
				got = append(got, e{strings.ToUpper(tx.Account.Raw()), int(tx.LT), tx.Hash.String()})
			}
			for i := range want {
				want[i].acct = strings.ToUpper(mustAddress(want[i].acct).Raw())
			}
			assert.Equal(t, want, got)
		}
	}
}

func reverse[T any](s []T) []T {
	out := make([]T, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

// Several accounts: account repeated, in the order given, each once (any
// spelling of one account counts once).
func TestPendingTransactionsSeveralAccountsWire(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathPending, "account="+hbOtherEscape+"&account="+hbWalletEscape+"&limit=5", 200, `{"transactions":[],"address_book":{}}`)
	_, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{
		Accounts: []string{hbOther, hbWallet, mustAddress(hbOther).Friendly(true, false).String(), strings.ToLower(hbWallet)}, Limit: 5})
	require.NoError(t, err)
}

// accountsServer answers both v3 calls for the accounts each request
// names: one state and one pending transaction per account (none for the
// accounts in skip), and records how many accounts each request named.
type accountsServer struct {
	skip     map[string]bool
	mu       sync.Mutex
	requests []int
}

func (s *accountsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	w.Header().Set("Content-Type", "application/json")
	var items, book []string
	name := "account"
	if strings.HasSuffix(r.URL.Path, "/accountStates") {
		name = "address"
	}
	s.mu.Lock()
	s.requests = append(s.requests, len(q[name]))
	s.mu.Unlock()
	for i, a := range q[name] {
		if s.skip[a] {
			continue
		}
		if name == "address" {
			items = append(items, fmt.Sprintf(`{"address":%q,"balance":"%d","status":"active"}`, strings.ToUpper(a), i))
		} else {
			items = append(items, fmt.Sprintf(`{"account":%q,"hash":%q,"lt":"%d"}`, strings.ToUpper(a), hashA, i+1))
		}
		book = append(book, fmt.Sprintf(`%q:{"user_friendly":"x%d","domain":null,"interfaces":[]}`, strings.ToUpper(a), i))
	}
	key := "transactions"
	if name == "address" {
		key = "accounts"
	}
	fmt.Fprintf(w, `{%q:[%s],"address_book":{%s},"metadata":{}}`, key, strings.Join(items, ","), strings.Join(book, ","))
}

// Issue 21: more than maxLimit accounts go in several requests of at most
// maxLimit accounts each; the page holds the answers of all of them.
func TestManyAccountsAreChunked(t *testing.T) {
	const n = 2*1000 + 500
	accounts := make([]string, n)
	for i := range accounts {
		accounts[i] = fmt.Sprintf("0:%064x", i+1)
	}
	// A repeat in another spelling is sent once.
	withRepeat := append(append([]string{}, accounts...), strings.ToUpper(accounts[7]))

	s := &accountsServer{skip: map[string]bool{accounts[3]: true}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)

	page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: withRepeat})
	require.NoError(t, err)
	assert.Equal(t, []int{1000, 1000, 500}, s.requests)
	assert.Len(t, page.States, n-1) // the server knows all but one
	assert.Len(t, page.AddressBook, n-1)
	seen := map[ton.Address]bool{}
	for _, st := range page.States {
		assert.False(t, seen[st.Account])
		seen[st.Account] = true
	}
	assert.False(t, seen[mustAddress(accounts[3])])

	s.requests = nil
	pend, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: withRepeat})
	require.NoError(t, err)
	assert.Equal(t, []int{1000, 1000, 500}, s.requests)
	require.Len(t, pend.Transactions, n-1)
	for i := 1; i < len(pend.Transactions); i++ { // one sorted page
		assert.Negative(t, bytesCompare(pend.Transactions[i-1].Account, pend.Transactions[i].Account))
	}

	// A failing request ends the call with its error and no page.
	s.requests = nil
	bad, n2 := cannedServer(t, answer{200, `{"accounts":[],"address_book":{}}`}, answer{500, `{"error":"db down"}`})
	c2, err := ton.New(bad.URL, testKey, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	p, err := c2.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: accounts})
	assert.Nil(t, p)
	assert.ErrorIs(t, err, nodeaccess.ErrUnavailable)
	assert.Equal(t, int32(2), n2.Load(), "the third request is not sent")
}

func bytesCompare(a, b ton.Address) int {
	if a.Workchain != b.Workchain {
		return int(a.Workchain) - int(b.Workchain)
	}
	return strings.Compare(string(a.ID[:]), string(b.ID[:]))
}

// Each request of a chunked call waits on the client's budget like any
// other, and costs one unit: 2,500 accounts, three units.
func TestManyAccountsUnits(t *testing.T) {
	s := &accountsServer{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	plan, err := nodeaccess.NewBudget(1000, 10)
	require.NoError(t, err)
	c, err := ton.New(srv.URL, testKey, nodeaccess.WithBudget(plan))
	require.NoError(t, err)
	accounts := make([]string, 2500)
	for i := range accounts {
		accounts[i] = fmt.Sprintf("0:%064x", i+1)
	}
	_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: accounts})
	require.NoError(t, err)
	assert.Equal(t, int64(3), plan.Stats().Units)
	for i := range 5 {
		_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: accounts[i : i+1]})
		require.NoError(t, err)
	}
	assert.Equal(t, int64(8), plan.Stats().Units)
}

// The query string of a request carries each account once, as address.
func TestManyAccountsQueryString(t *testing.T) {
	var got []url.Values
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.URL.Query())
		mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"accounts": []any{}})
	}))
	defer srv.Close()
	c, err := ton.New(srv.URL, testKey)
	require.NoError(t, err)
	accounts := make([]string, 1001)
	for i := range accounts {
		accounts[i] = fmt.Sprintf("0:%064X", i+1)
	}
	_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: accounts, IncludeBOC: true})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Len(t, got[0]["address"], 1000)
	assert.Empty(t, got[0]["account_address"], "several accounts: no account_address")
	assert.Equal(t, fmt.Sprintf("0:%064x", 1), got[0]["address"][0])
	// The last request names one account: both names, as for one account.
	assert.Equal(t, []string{fmt.Sprintf("0:%064x", 1001)}, got[1]["address"])
	assert.Equal(t, []string{fmt.Sprintf("0:%064x", 1001)}, got[1]["account_address"])
	assert.Equal(t, "true", got[1].Get("include_boc"))
}

// knownFinalities are the finalities of the package's constants.
var knownFinalities = []ton.Finality{ton.FinalityPending, ton.FinalityConfirmed, ton.FinalityFinalized}
