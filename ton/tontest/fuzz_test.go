package tontest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
)

// fuzzServer is a Server whose handlers the fuzz targets call directly
// (no listener): the default data.
func fuzzServer(t testing.TB) *Server {
	st := newStore()
	if err := st.loadDefaults(); err != nil {
		t.Fatal(err)
	}
	return &Server{core: &core{data: st}}
}

// checkAnswer fails unless the answer is one the server means to give: a
// known status with a JSON body of the right API's form.
func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder, v2 bool) {
	t.Helper()
	body := rec.Body.Bytes()
	if !json.Valid(body) {
		t.Fatalf("status %d: body is not JSON: %q", rec.Code, body)
	}
	var e struct {
		OK    *bool  `json:"ok"`
		Error string `json:"error"`
		Code  int    `json:"code"`
	}
	_ = json.Unmarshal(body, &e)
	switch rec.Code {
	case http.StatusOK:
		if v2 && (e.OK == nil || !*e.OK) {
			t.Fatalf("200 without ok:true: %q", body)
		}
	case http.StatusUnprocessableEntity, http.StatusInternalServerError, http.StatusNotFound:
		if e.Error == "" || v2 && (e.OK == nil || *e.OK || e.Code != rec.Code) || !v2 && e.OK != nil {
			t.Fatalf("status %d: not the API's error form: %q", rec.Code, body)
		}
	default:
		t.Fatalf("unexpected status %d: %q", rec.Code, body)
	}
}

// FuzzBlockRPC: any JSON-RPC body gets a well-formed v2 answer.
func FuzzBlockRPC(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"getBlockTransactionsExt","params":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"count":2}}`,
		`{"id":"x","method":"getBlockTransactionsExt","params":{"workchain":"-1","shard":-9223372036854775808,"seqno":"39984096","after_lt":48756940000001,"after_hash":"MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM="}}`,
		`{"method":"getBlockTransactionsExt","params":{"workchain":1e3,"shard":null,"seqno":[]}}`,
		`{"method":"x"}`, `[]`, `null`, ``, `{"id":{"a":1},"method":"getBlockTransactionsExt","params":{}}`,
	} {
		f.Add(seed)
	}
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		s.serveBlockRPC(rec, httptest.NewRequest(http.MethodPost, "/api/v2/k/jsonRPC", strings.NewReader(body)))
		checkAnswer(t, rec, true)
		if rec.Code == http.StatusOK {
			var out struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(rec.Body.Bytes(), &out) != nil || len(out.Result) == 0 {
				t.Fatalf("200 without a result: %q", rec.Body.Bytes())
			}
		}
	})
}

// FuzzQueries: any query string on the three GET paths gets a well-formed
// answer in its API's form.
func FuzzQueries(f *testing.F) {
	for _, seed := range []string{
		"workchain=-1&shard=-9223372036854775808&seqno=39984096&count=1&after_lt=48756940000001&after_hash=MzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM%3D",
		"account_address=0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A&include_boc=true&limit=1&offset=1&sort=asc",
		"account=0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A&limit=1001",
		"address=EQAAGUqtjkIr7fQ_7nRtbZKdNp26slRopp1RNwbqaXi2Os5N&address=x", "count=-1", "%zz", "limit=2147483648&offset=-0",
		"address=&code_hash=vqMbw5w/UEelgUr4xN5vkmkbOqjfAcck49G02pV9Pho%3D&include_boc=1",
		"account=0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A&trace_id=abc",
		"seqno=2&limit=1&offset=1&sort=asc", "seqno=4294967295", "seqno=-1&sort=up",
	} {
		f.Add(seed)
	}
	s := fuzzServer(f)
	idx := fuzzServer(f)
	idx.indexer = true // every query also against the indexer's answers (WithIndexer)
	chain, err := New(WithChain(0), WithoutDefaults())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(chain.Close)
	if err := chain.Advance(3); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, query string) {
		for _, h := range []struct {
			path string
			fn   http.HandlerFunc
			v2   bool
		}{
			{"/api/v2/k/getBlockTransactionsExt", s.serveBlockREST, true},
			{"/k/api/v3/accountStates", s.serveAccountStates, false},
			{"/k/api/v3/pendingTransactions", s.servePending, false},
			{"/k/api/v3/accountStates", idx.serveAccountStates, false},
			{"/k/api/v3/pendingTransactions", idx.servePending, false},
			{"/k/api/v3/masterchainInfo", chain.serveChainV3(methodV3Info), false},
			{"/k/api/v3/masterchainBlockShards", chain.serveChainV3(methodV3Blocks), false},
			{"/k/api/v3/transactionsByMasterchainBlock", chain.serveChainV3(methodV3Txs), false},
			{"/k/api/v3/transactions", chain.serveChainV3(methodV3ByLT), false},
		} {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL.Path, req.URL.RawQuery = h.path, query
			rec := httptest.NewRecorder()
			h.fn(rec, req)
			checkAnswer(t, rec, h.v2)
		}
	})
}

// FuzzPageCursor: whatever the cursor and count, a page holds only
// transactions after the cursor, in the block's order, at most count, and
// says incomplete exactly when it is full.
func FuzzPageCursor(f *testing.F) {
	f.Add([]byte("3333333333333333333333333333333"+"3"), uint64(48756940000001), 1)
	f.Add([]byte{}, uint64(0), 40)
	f.Add([]byte("UUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUU"), uint64(1<<63), 2)
	s := fuzzServer(f)
	rec := s.data.block(ton.MasterchainBlock(39984096))
	f.Fuzz(func(t *testing.T, account []byte, lt uint64, count int) {
		if count < 1 || count > 1000 {
			return
		}
		q := blockQuery{count: count, afterLT: lt}
		copy(q.afterAccount[:], account)
		txs, incomplete := rec.page(q)
		if len(txs) > count || incomplete != (len(txs) == count) {
			t.Fatalf("%d transactions for count %d, incomplete %v", len(txs), count, incomplete)
		}
		for i, tx := range txs {
			c := strings.Compare(string(tx.account.ID[:]), string(q.afterAccount[:]))
			if c < 0 || c == 0 && tx.lt <= lt {
				t.Fatalf("transaction %d (lt %d) is not after the cursor", i, tx.lt)
			}
		}
		if !incomplete && len(txs) > 0 && txs[len(txs)-1].entry == nil {
			t.Fatal("empty entry")
		}
	})
}
