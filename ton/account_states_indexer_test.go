package ton_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The third account of the hand-built two-accounts body: asked for, and
// unknown to the indexer, so absent from the answer.
const (
	hbUnknown       = "0:AB000000000000000000000000000000000000000000000000000000000000CD"
	hbUnknownEscape = "0%3Aab000000000000000000000000000000000000000000000000000000000000cd"
)

// Issue 21: three accounts in one request, answered as the indexer answers
// (hand-built from toncenter/ton-indexer eb9fbfa3 index/models/
// blockchain.go 31-46 and crud_accounts.go 14-49): the states come under
// the indexer's names, in its order, an unknown account has no state, and
// a deleted one comes back "nonexist".
func TestAccountStatesSeveralAccountsHandBuilt(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathStates, "address="+hbOtherEscape+"&address="+hbUnknownEscape+"&address="+hbWalletEscape+"&include_boc=false", 200,
		string(testdata(t, "v3_accountStates_two_accounts_HANDBUILT.json")))
	page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{hbOther, hbUnknown, hbWallet}})
	require.NoError(t, err)
	require.Len(t, page.States, 2)
	byAccount := map[ton.Address]ton.AccountState{}
	for _, s := range page.States {
		byAccount[s.Account] = s
	}
	w := byAccount[mustAddress(hbWallet)]
	assert.Equal(t, ton.StatusActive, w.Status)
	assert.Equal(t, "547800016", w.Balance.String())
	assert.Equal(t, uint64(61949829000005), w.LastTransactionLT)
	assert.Equal(t, "/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=", w.CodeHash.String())
	assert.Nil(t, w.CodeBOC)
	o := byAccount[mustAddress(hbOther)]
	assert.Equal(t, ton.StatusNonexist, o.Status)
	assert.Equal(t, "0", o.Balance.String())
	assert.True(t, o.CodeHash == (ton.Hash{}))
	_, ok := byAccount[mustAddress(hbUnknown)]
	assert.False(t, ok)

	// The body's metadata is {}: no entry has TokenInfo.
	assert.Equal(t, map[ton.Address]ton.AddressBookEntry{
		mustAddress(hbWallet): {UserFriendly: "UQAcIgGCPm2uVfrdCMrSeEXHcmfEYtgbBiD-Zk3uKLuONNKi", Interfaces: []string{"wallet_v5r1"}},
		mustAddress(hbOther):  {UserFriendly: "UQBS114FhHMAASOdTNjHPWUbIG6sZ9tVFTW2ttUF5tQcd7T0"}, // interfaces null
	}, page.AddressBook)
	// The members the SDK does not type stay in Raw.
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(w.Raw, &raw))
	assert.Equal(t, `["wallet_v5r1"]`, string(raw["interfaces"]))
	assert.Equal(t, `[81467,85143,107653]`, string(raw["contract_methods"]))
}

// A state of an account the request did not name fails the call: a server
// that reads only the interface's account_address lists other accounts
// when asked for several through address.
func TestAccountStatesOtherAccountIsInvalid(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathStates, "address="+hbUnknownEscape+"&address="+hbWalletEscape+"&include_boc=false", 200,
		string(testdata(t, "v3_accountStates_two_accounts_HANDBUILT.json")))
	_, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{hbUnknown, hbWallet}})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.EqualError(t, err, "ton: accountStates: invalid response: state 1 is of account "+strings.ToLower(hbOther)+
		", which the request did not name (a server that reads only account_address takes one account a request)")
}

// code_hash: sent in standard base64; a state with another code hash in the
// answer means the server ignored it (the interface has no code_hash).
func TestAccountStatesCodeHash(t *testing.T) {
	wallet := mustHash(t, "/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=")
	one := `{"accounts":[` + strings.SplitN(strings.TrimPrefix(string(testdata(t, "v3_accountStates_two_accounts_HANDBUILT.json")), `{"accounts":[`), `},{"address"`, 2)[0] + `}],"address_book":{},"metadata":{}}`
	q := "address=" + hbOtherEscape + "&address=" + hbWalletEscape + "&code_hash=%2FrX%2FaCDi%2Fw2Ug%2Bfg1iyBfYRniftK5YDIeIZtlZ2r1cA%3D&include_boc=false"

	c := gockClient(t)
	mockGET(t, pathStates, q, 200, one)
	page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{hbOther, hbWallet}, CodeHash: wallet})
	require.NoError(t, err)
	require.Len(t, page.States, 1)
	assert.Equal(t, mustAddress(hbWallet), page.States[0].Account)

	c = gockClient(t)
	mockGET(t, pathStates, q, 200, string(testdata(t, "v3_accountStates_two_accounts_HANDBUILT.json")))
	_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{hbOther, hbWallet}, CodeHash: wallet})
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.ErrorContains(t, err, "has code hash AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=, not the code_hash asked for, /rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA= (the server ignores code_hash)")
}

// Issue 21: the indexer answers 422 both when it refuses the parameters and
// when its database query fails (toncenter/ton-indexer eb9fbfa3 main.go
// 651-666: every error of the query is a 422 with its text). A refusal
// matches nodeaccess.ErrInvalidInput and is not retried; a failed query
// (pgx's "timeout: context deadline exceeded") is retried like a 5xx and is
// not ErrInvalidInput.
func TestAccountStates422(t *testing.T) {
	for _, tc := range []struct {
		file, msg string
		q         ton.AccountStatesQuery
	}{
		{"v3_accountStates_422_no_address_HANDBUILT.json", "address of account is required", ton.AccountStatesQuery{CodeHash: ton.Hash{1}}},
		{"v3_accountStates_422_bad_address_HANDBUILT.json", `failed to decode: schema: error converting value for index 0 of "address"`, ton.AccountStatesQuery{Accounts: []string{hbWallet}}},
	} {
		srv, n := cannedServer(t, answer{422, string(testdata(t, tc.file))})
		c, err := ton.New(srv.URL, testKey, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
		require.NoError(t, err)
		_, err = c.AccountStates(context.Background(), tc.q)
		assert.Equal(t, int32(1), n.Load(), tc.file)
		assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, tc.file)
		_, msg := serverMessage(t, err)
		assert.Equal(t, tc.msg, msg)
		assert.Equal(t, "ton: accountStates: invalid input, refused by the server: HTTP 422 Unprocessable Entity: "+tc.msg, err.Error())
		testkit.AssertErrNoKey(t, testKey, err)
	}

	timeout := string(testdata(t, "v3_accountStates_422_db_timeout_HANDBUILT.json"))
	srv, n := cannedServer(t, answer{422, timeout})
	c, err := ton.New(srv.URL, testKey, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{hbWallet}})
	assert.Equal(t, int32(3), n.Load(), "retried")
	assert.NotErrorIs(t, err, nodeaccess.ErrInvalidInput)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, err, &he)
	assert.Equal(t, 422, he.StatusCode)
	assert.Equal(t, "ton: accountStates: HTTP 422 Unprocessable Entity: timeout: context deadline exceeded", err.Error())

	srv, n = cannedServer(t, answer{422, timeout}, answer{200, `{"accounts":[],"address_book":{},"metadata":{}}`})
	c, err = ton.New(srv.URL, testKey, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{hbWallet}})
	require.NoError(t, err)
	assert.Empty(t, page.States)
	assert.Equal(t, int32(2), n.Load())

	// A 422 without a TON error body is neither retried nor a refusal.
	srv, n = cannedServer(t, answer{422, `<html>unprocessable</html>`})
	c, err = ton.New(srv.URL, testKey, nodeaccess.WithBackoff(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	_, err = c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{hbWallet}})
	assert.Equal(t, int32(1), n.Load())
	assert.NotErrorIs(t, err, nodeaccess.ErrInvalidInput)
	require.ErrorAs(t, err, &he)
}

// Issue 21: the metadata member, typed (hand-built from toncenter/
// ton-indexer eb9fbfa3 index/crud/crud.go QueryMetadataImpl 75-187 and
// crud_jettons.go 272-330): a jetton wallet with its master added, flags
// present on the master and absent on the wallet, and an NFT item whose
// metadata is not indexed yet.
func TestAccountStatesMetadataHandBuilt(t *testing.T) {
	const (
		jw     = "0:7A1C22AE6F8B5D3E4F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6"
		nft    = "0:4E3D2C1B0A99887766554433221100FFEEDDCCBBAA99887766554433221100FF"
		master = "0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE"
	)
	c := gockClient(t)
	escape := func(a string) string { return "0%3A" + strings.ToLower(strings.TrimPrefix(a, "0:")) }
	mockGET(t, pathStates, "address="+escape(jw)+"&address="+escape(nft)+"&include_boc=false", 200,
		string(testdata(t, "v3_accountStates_jetton_metadata_HANDBUILT.json")))
	page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{jw, nft}})
	require.NoError(t, err)
	require.Len(t, page.States, 2)
	book := page.AddressBook
	require.Len(t, book, 3, "the two accounts of the address book, and the master the metadata adds")
	assert.Empty(t, book[mustAddress(master)].UserFriendly, "the master is in the metadata alone")

	w := book[mustAddress(jw)]
	assert.NotEmpty(t, w.UserFriendly, "address book and metadata in one entry")
	assert.True(t, w.IsIndexed)
	require.Len(t, w.TokenInfo, 1)
	ti := w.TokenInfo[0]
	assert.Equal(t, "jetton_wallets", ti.Type)
	require.NotNil(t, ti.Valid)
	assert.True(t, *ti.Valid)
	assert.Nil(t, ti.IsScam, "the wallet's entry has no flags: unknown, not false")
	assert.Nil(t, ti.IsNSFW)
	var extra struct {
		Extra struct{ Owner, Jetton, Balance string } `json:"extra"`
	}
	require.NoError(t, json.Unmarshal(ti.Raw, &extra))
	assert.Equal(t, master, extra.Extra.Jetton)
	assert.Equal(t, hbWallet, extra.Extra.Owner)
	assert.Equal(t, "1500000", extra.Extra.Balance)

	m := book[mustAddress(master)]
	assert.True(t, m.IsIndexed)
	require.Len(t, m.TokenInfo, 1)
	f := false
	tru := true
	mi := m.TokenInfo[0]
	mi.Raw = nil
	assert.Equal(t, ton.TokenInfo{Type: "jetton_masters", Name: "Tether USD", Symbol: "USD₮", Description: "Tether Token for Tether USD",
		Image: "https://tether.to/images/logoCircle.png", Valid: &tru, IsScam: &f, IsNSFW: &f}, mi)

	n := book[mustAddress(nft)]
	assert.False(t, n.IsIndexed)
	require.Len(t, n.TokenInfo, 1)
	assert.Equal(t, "nft_items", n.TokenInfo[0].Type)
	assert.Nil(t, n.TokenInfo[0].Valid)
	assert.JSONEq(t, `{"type":"nft_items","nft_index":"7"}`, string(n.TokenInfo[0].Raw))
}

// One odd metadata entry never fails a page: each member is read on its
// own, and what cannot be read is left at its zero value.
func TestAccountStatesMetadataOdd(t *testing.T) {
	for _, tc := range []struct {
		name, metadata string
		want           map[ton.Address]ton.AddressBookEntry
	}{
		{"absent", ``, map[ton.Address]ton.AddressBookEntry{}},
		{"null", `,"metadata":null`, map[ton.Address]ton.AddressBookEntry{}},
		{"an array", `,"metadata":[]`, map[ton.Address]ton.AddressBookEntry{}},
		{"a key that is not an address", `,"metadata":{"addr_none":{"is_indexed":true}}`, map[ton.Address]ton.AddressBookEntry{}},
		{"an entry that is not an object", `,"metadata":{"` + hbWallet + `":7}`, map[ton.Address]ton.AddressBookEntry{}},
		{"mistyped members", `,"metadata":{"` + hbWallet + `":{"is_indexed":"yes","token_info":{"type":"x"}}}`,
			map[ton.Address]ton.AddressBookEntry{mustAddress(hbWallet): {TokenInfo: []ton.TokenInfo{}}}},
		{"mistyped token info members", `,"metadata":{"` + hbWallet + `":{"is_indexed":true,"token_info":[5,{"type":7,"name":"N","is_scam":"no","is_nsfw":null,"valid":false}]}}`,
			map[ton.Address]ton.AddressBookEntry{mustAddress(hbWallet): {IsIndexed: true, TokenInfo: []ton.TokenInfo{
				{Name: "N", Valid: new(bool), Raw: json.RawMessage(`{"type":7,"name":"N","is_scam":"no","is_nsfw":null,"valid":false}`)}}}}},
	} {
		c := gockClient(t)
		mockGET(t, pathStates, "include_boc=false", 200, `{"accounts":[],"address_book":{}`+tc.metadata+`}`)
		page, err := c.AccountStates(context.Background(), ton.AccountStatesQuery{})
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, page.AddressBook, tc.name)
	}
}
