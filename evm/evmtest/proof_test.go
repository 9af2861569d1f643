package evmtest_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/gethclient"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eth_getProof as go-ethereum answers it: the storage key spelt back as
// it came (32 bytes as sent, a shorter one as a quantity), geth's -32602
// for a bad key and for more than 1024 keys, and the answer go-ethereum's
// own gethclient reads, matching eth_getBalance and eth_getStorageAt.
func TestGetProof(t *testing.T) {
	t.Parallel()
	s := shared(t)
	token := evmtest.Token().Hex()
	_, _, body := post(t, s, "/"+testKey, rpcBody("eth_getProof", `["`+token+`",["0x0","0x0000000000000000000000000000000000000000000000000000000000000001"],"latest"]`))
	var resp struct {
		Result struct {
			StorageProof []struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			} `json:"storageProof"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &resp), body)
	require.Len(t, resp.Result.StorageProof, 2)
	assert.Equal(t, "0x0", resp.Result.StorageProof[0].Key)
	assert.Equal(t, "0x0000000000000000000000000000000000000000000000000000000000000001", resp.Result.StorageProof[1].Key)

	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_getProof", `["`+token+`",["0xzz"],"latest"]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid hex in storage key: \"0xzz\""}}`, body)
	keys := `"0x1"` + strings.Repeat(`,"0x1"`, 1024)
	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_getProof", `["`+token+`",[`+keys+`],"latest"]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"too many storage keys requested (max 1024, got 1025)"}}`, body)

	ctx := context.Background()
	five := big.NewInt(5) // the scenario's last block: other tests may mine on the shared server
	gc := gethclient.New(s.EthClient().Client())
	res, err := gc.GetProof(ctx, evmtest.Holder(), []string{"0x0"}, five)
	require.NoError(t, err)
	bal, err := s.EthClient().BalanceAt(ctx, evmtest.Holder(), five)
	require.NoError(t, err)
	assert.Equal(t, bal, res.Balance)
	assert.NotEmpty(t, res.AccountProof)
	tres, err := gc.GetProof(ctx, evmtest.Token(), []string{"0x0"}, five)
	require.NoError(t, err)
	word, err := s.EthClient().StorageAt(ctx, evmtest.Token(), common.Hash{}, five)
	require.NoError(t, err)
	assert.Equal(t, common.BytesToHash(word).Big(), tres.StorageProof[0].Value)
}

// eth_createAccessList answers what the call touches, as go-ethereum does:
// the token's balance slot of Holder, the token itself named for its
// slots though it is the callee; the sender left out.
func TestCreateAccessList(t *testing.T) {
	t.Parallel()
	srv := evmtest.NewT(t)
	var res struct {
		AccessList types.AccessList `json:"accessList"`
		GasUsed    hexutil.Uint64   `json:"gasUsed"`
		Error      string           `json:"error"`
	}
	holder := evmtest.Holder()
	data := append(crypto.Keccak256([]byte("balanceOf(address)"))[:4], common.LeftPadBytes(holder[:], 32)...)
	call := map[string]any{"from": holder, "to": evmtest.Token(), "data": hexutil.Bytes(data)}
	require.NoError(t, srv.EthClient().Client().CallContext(context.Background(), &res, "eth_createAccessList", call, "latest"))
	slot := crypto.Keccak256Hash(common.LeftPadBytes(holder[:], 32), common.LeftPadBytes([]byte{1}, 32))
	assert.Equal(t, types.AccessList{{Address: evmtest.Token(), StorageKeys: []common.Hash{slot}}}, res.AccessList)
	assert.Positive(t, uint64(res.GasUsed))
	assert.Empty(t, res.Error)
	// A call that reverts answers its list and the failure.
	call["from"] = common.HexToAddress("0x5157a2e5000000000000000000000000000000ff")
	call["data"] = hexutil.Bytes(append(crypto.Keccak256([]byte("transfer(address,uint256)"))[:4], append(common.LeftPadBytes(holder[:], 32), common.LeftPadBytes([]byte{5}, 32)...)...))
	require.NoError(t, srv.EthClient().Client().CallContext(context.Background(), &res, "eth_createAccessList", call, "latest"))
	assert.Equal(t, "execution reverted", res.Error)
	assert.NotEmpty(t, res.AccessList)
}
