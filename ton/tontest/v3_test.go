package tontest_test

import (
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default states, as served: the interface's member names, derived
// from the recorded transaction's account_state_before/after.
const (
	stateAfter = `{"account":"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A","hash":"4OBdR8k83rjRSwwreZI6a8TmlsuKN5MrCbM/6B+8bFw=",` +
		`"balance":"2715939331","account_status":"active","last_trans_lt":36582626000003,"last_trans_hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=",` +
		`"frozen_hash":null,"code_hash":"vqMbw5w/UEelgUr4xN5vkmkbOqjfAcck49G02pV9Pho=","data_hash":"86U+qAM9Gn2Vq9aPLlAW+s6FEpXYZG6v9LwsXNapESw=","extra_currencies":{}}`
	stateBefore = `{"account":"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A","hash":"posCwcSHfOabFTEJpZf3DjjrwdCa0yhl9DX9LTojxY4=",` +
		`"balance":"2717267789","account_status":"active","last_trans_lt":36552848000003,"last_trans_hash":"BoNe1HOkg+5k8XGGuY5iRcuz8Nwkc5rxT7NuM/vDP/E=",` +
		`"frozen_hash":null,"code_hash":"vqMbw5w/UEelgUr4xN5vkmkbOqjfAcck49G02pV9Pho=","data_hash":"86U+qAM9Gn2Vq9aPLlAW+s6FEpXYZG6v9LwsXNapESw=","extra_currencies":{}}`
	defaultBook = `{"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A":{"user_friendly":"EQAAGUqtjkIr7fQ_7nRtbZKdNp26slRopp1RNwbqaXi2Os5N","domain":null,"interfaces":[]}}`
)

func TestV3DefaultAccountStates(t *testing.T) {
	s := start(t)
	q := "?account_address=" + defaultAcct + "&address=" + defaultAcct + "&include_boc=false"
	r := get(t, s, pathStates+q)
	assert.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	assert.Equal(t, `{"account_states":[`+stateAfter+`,`+stateBefore+`],"address_book":`+defaultBook+`}`, r.body)

	// include_boc adds code_boc and data_boc (null: the recording has none).
	r = get(t, s, pathStates+"?address="+defaultAcct+"&include_boc=true&limit=1")
	assert.Equal(t, `{"account_states":[`+strings.Replace(stateAfter, `,"extra_currencies"`, `,"code_boc":null,"data_boc":null,"extra_currencies"`, 1)+`],"address_book":`+defaultBook+`}`, r.body)

	// An account without states: an empty list and an empty book.
	r = get(t, s, pathStates+"?account_address="+relayer)
	assert.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, `{"account_states":[],"address_book":{}}`, r.body)
}

// limit, offset and sort over the states of several accounts, set by the
// user: sorted by last_trans_lt, newest first by default.
func TestV3AccountStatesPaging(t *testing.T) {
	a := mustAddress("0:" + strings.Repeat("0a", 32))
	b := mustAddress("-1:" + strings.Repeat("0b", 32))
	st := func(acct ton.Address, lt uint64, status ton.AccountStatus) ton.AccountState {
		return ton.AccountState{Account: acct, LastTransactionLT: lt, Status: status, Balance: big.NewInt(int64(lt)),
			Hash: ton.Hash{byte(lt)}, CodeBOC: []byte{1, 2}, Raw: json.RawMessage(`{"extra_currencies":{"7":"1"},"status":"ignored"}`)}
	}
	s := start(t, tontest.WithoutDefaults())
	require.NoError(t, s.SetAccountStates(a, st(a, 5, ton.StatusActive), st(a, 1, ton.StatusUninit), st(a, 3, ton.StatusActive)))
	require.NoError(t, s.SetAccountStates(b, st(b, 4, ton.StatusUninit), st(b, 2, ton.StatusActive)))
	lts := func(q string) []uint64 {
		r := get(t, s, pathStates+q)
		require.Equal(t, http.StatusOK, r.status, q)
		var body struct {
			States []struct {
				LT uint64 `json:"last_trans_lt"`
			} `json:"account_states"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.body), &body), r.body)
		out := []uint64{}
		for _, x := range body.States {
			out = append(out, x.LT)
		}
		return out
	}
	assert.Equal(t, []uint64{5, 4, 3, 2, 1}, lts(""))
	assert.Equal(t, []uint64{5, 4, 3, 2, 1}, lts("?sort=desc"))
	assert.Equal(t, []uint64{1, 2, 3, 4, 5}, lts("?sort=asc"))
	assert.Equal(t, []uint64{2, 3}, lts("?sort=asc&limit=2&offset=1"))
	assert.Equal(t, []uint64{5, 3, 1}, lts("?address="+a.String()))
	assert.Equal(t, []uint64{4, 2}, lts("?account_address="+b.Friendly(true, false).String()))
	assert.Equal(t, []uint64{5, 4, 3, 2, 1}, lts("?account_address="+b.String()+"&address="+strings.ToUpper(a.String())))
	assert.Equal(t, []uint64{5}, lts("?limit=0")) // the indexer reads limit below 1 as 1
	assert.Equal(t, []uint64{}, lts("?offset=5"))
	assert.Equal(t, []uint64{3, 2, 1}, lts("?limit=1000&offset=2"))

	// One state whole: typed members from the typed fields (the raw "status"
	// is not served), other raw members after them; the book writes b
	// non-bounceable (its newest state is uninit) and a bounceable.
	r := get(t, s, pathStates+"?limit=2&include_boc=1")
	assert.Equal(t, `{"account_states":[`+
		`{"account":"0:`+strings.Repeat("0A", 32)+`","hash":"BQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","balance":"5","account_status":"active","last_trans_lt":5,"last_trans_hash":null,"frozen_hash":null,"code_hash":null,"data_hash":null,"code_boc":"AQI=","data_boc":null,"extra_currencies":{"7":"1"}},`+
		`{"account":"-1:`+strings.Repeat("0B", 32)+`","hash":"BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","balance":"4","account_status":"uninit","last_trans_lt":4,"last_trans_hash":null,"frozen_hash":null,"code_hash":null,"data_hash":null,"code_boc":"AQI=","data_boc":null,"extra_currencies":{"7":"1"}}],`+
		`"address_book":{"-1:`+strings.Repeat("0B", 32)+`":{"user_friendly":"`+b.Friendly(false, false).String()+`","domain":null,"interfaces":[]},`+
		`"0:`+strings.Repeat("0A", 32)+`":{"user_friendly":"`+a.Friendly(true, false).String()+`","domain":null,"interfaces":[]}}}`, r.body)

	// An address book entry set by the user wins.
	require.NoError(t, s.SetAddressBookEntry(a, ton.AddressBookEntry{UserFriendly: "custom", Domain: "alice.ton", Interfaces: []string{"wallet_v4r2"}}))
	r = get(t, s, pathStates+"?limit=1")
	assert.Contains(t, r.body, `"address_book":{"0:`+strings.Repeat("0A", 32)+`":{"user_friendly":"custom","domain":"alice.ton","interfaces":["wallet_v4r2"]}}}`)
}

func TestV3BadParameters(t *testing.T) {
	s := start(t)
	for _, c := range []struct{ path, msg string }{
		{pathStates + "?limit=1001", "limit is not allowed: 1001 > 1000"},
		{pathStates + "?limit=x", `failed to decode: schema: error converting value for \"limit\"`},
		{pathStates + "?offset=-1", "offset is not allowed: -1 < 0"},
		{pathStates + "?offset=1.5", `failed to decode: schema: error converting value for \"offset\"`},
		{pathStates + "?include_boc=yes", `failed to decode: schema: error converting value for \"include_boc\"`},
		{pathStates + "?sort=newest", "sort must be asc or desc"},
		{pathStates + "?address=0:12", `failed to parse address: \"0:12\" is not an address`},
		{pathStates + "?account_address=" + strings.Repeat("x", 101), "failed to parse account_address: a 101-byte value is not an address"},
		{pathPending, "at least 1 account address required"},
		{pathPending + "?limit=5", "at least 1 account address required"},
		{pathPending + "?account=" + defaultAcct + "&limit=2000", "limit is not allowed: 2000 > 1000"},
		{pathPending + "?account=nope", `failed to parse account: \"nope\" is not an address`},
	} {
		r := get(t, s, c.path)
		assert.Equal(t, http.StatusUnprocessableEntity, r.status, c.path)
		assert.Equal(t, `{"error":"`+c.msg+`"}`, r.body, c.path)
	}
}

func TestV3Pending(t *testing.T) {
	s := start(t)
	var rec struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	require.NoError(t, json.Unmarshal(recorded(t, "v3_transactions_axelar_amplifier.json"), &rec))
	book := `{"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A":{"user_friendly":"EQAAGUqtjkIr7fQ_7nRtbZKdNp26slRopp1RNwbqaXi2Os5N","domain":null,"interfaces":[]},` +
		`"0:898AD13C059F2A3A69576A010C41AF239B487BC555EABEB9A5894DEB11299330":{"user_friendly":"EQCJitE8BZ8qOmlXagEMQa8jm0h7xVXqvrmliU3rESmTMM9e","domain":null,"interfaces":[]}}`

	// The recorded v3 transaction, byte for byte (compacted), served as a
	// pending one: emulated, finality "pending" (the recording, from
	// /api/v3/transactions, says "emulated":false); the book names the
	// account and the accounts of its messages.
	r := get(t, s, pathPending+"?account="+defaultAcct)
	assert.Equal(t, http.StatusOK, r.status)
	entry := strings.Replace(compactJSON(t, rec.Transactions[0]), `"emulated":false}`, `"emulated":true,"finality":"pending"}`, 1)
	assert.Equal(t, `{"transactions":[`+entry+`],"address_book":`+book+`}`, r.body)

	// Nothing pending: the indexer's 404.
	for _, q := range []string{"?account=" + relayer, "?account=" + elector + "&account=" + config} {
		r = get(t, s, pathPending+q)
		assert.Equal(t, http.StatusNotFound, r.status, q)
		assert.Equal(t, `{"error":"emulated traces not found"}`, r.body, q)
	}
	// Past the end of a non-empty list: an empty page.
	r = get(t, s, pathPending+"?account="+defaultAcct+"&offset=1")
	assert.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, `{"transactions":[],"address_book":{}}`, r.body)
}

// Pending transactions set by the user: served in the order set, across
// the accounts asked for in their order, with limit and offset.
func TestV3PendingPaging(t *testing.T) {
	a := mustAddress("0:" + strings.Repeat("aa", 32))
	b := mustAddress("0:" + strings.Repeat("bb", 32))
	tx := func(acct ton.Address, n byte) ton.PendingTransaction {
		return ton.PendingTransaction{Account: acct, Hash: ton.Hash{n}, LT: uint64(n)}
	}
	s := start(t)
	require.NoError(t, s.SetPendingTransactions(a, tx(a, 3), tx(a, 1), tx(a, 2)))
	require.NoError(t, s.SetPendingTransactions(b, tx(b, 9)))
	lts := func(q string) []string {
		r := get(t, s, pathPending+q)
		require.Equal(t, http.StatusOK, r.status, q)
		var body struct {
			Transactions []struct {
				LT string `json:"lt"`
			} `json:"transactions"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.body), &body))
		out := []string{}
		for _, x := range body.Transactions {
			out = append(out, x.LT)
		}
		return out
	}
	assert.Equal(t, []string{"3", "1", "2"}, lts("?account="+a.String()))
	assert.Equal(t, []string{"9", "3", "1", "2"}, lts("?account="+b.String()+"&account="+a.String()))
	assert.Equal(t, []string{"1"}, lts("?account="+a.String()+"&limit=1&offset=1"))

	// The whole entry of a transaction with nothing but the typed fields.
	r := get(t, s, pathPending+"?account="+b.String())
	assert.Equal(t, `{"transactions":[{"account":"0:`+strings.Repeat("BB", 32)+`","hash":"CQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","lt":"9","now":null,"mc_block_seqno":null,"trace_id":null}],`+
		`"address_book":{"0:`+strings.Repeat("BB", 32)+`":{"user_friendly":"`+b.Friendly(true, false).String()+`","domain":null,"interfaces":[]}}}`, r.body)

	// No transactions: nothing pending again.
	require.NoError(t, s.SetPendingTransactions(b))
	assert.Equal(t, http.StatusNotFound, get(t, s, pathPending+"?account="+b.String()).status)
}
