package ton_test

import (
	"context"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 21: the indexer writes an address it cannot convert (the literals
// addr_none, addr_extern and addr_var the worker stores for such message
// addresses) as an address book key with "user_friendly":"addr_none"
// (hand-built from toncenter/ton-indexer eb9fbfa3 index/crud/crud.go
// 322-336 and ton-index-worker convert-utils.cpp 13-52). The page decodes;
// the entry is kept under its key in UnknownAddresses. Before, the whole
// page failed ("address_book key … is not an address").
func TestAddressBookUnknownKeyHandBuilt(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathPending, "account="+hbWalletEscape, 200, string(testdata(t, "v3_pendingTransactions_book_addr_extern_HANDBUILT.json")))
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{hbWallet}})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 1)
	assert.Len(t, page.AddressBook, 2)
	assert.Equal(t, map[string]ton.AddressBookEntry{"addr_extern": {UserFriendly: "addr_none", Interfaces: []string{}}}, page.UnknownAddresses)
	_, err = ton.ParseFriendlyAddress(page.UnknownAddresses["addr_extern"].UserFriendly)
	assert.Error(t, err)
	e := page.AddressBook[mustAddress(hbOther)]
	assert.NotNil(t, e.Interfaces, "[] is empty, not nil")
	assert.Empty(t, e.Interfaces)
}
