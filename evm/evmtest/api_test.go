package evmtest_test

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The served methods through go-ethereum's own client, which decodes every
// result with go-ethereum's types and checks what it reads (a block's
// transactions against its transactions root, a header's hash, a
// receipt's fields): the same answers a geth node gives.
func TestEthClientReadsTheChain(t *testing.T) {
	t.Parallel()
	s := shared(t)
	ec := s.EthClient()
	ctx := t.Context()
	sc := s.Scenario()

	// eth_getBlockByNumber with whole transactions: ethclient checks the
	// transactions against the header's root and derives each sender.
	b, err := ec.BlockByNumber(ctx, big.NewInt(5))
	require.NoError(t, err)
	require.Len(t, b.Transactions(), 1)
	assert.Equal(t, sc.TokenTransfer.Hash, b.Transactions()[0].Hash())
	assert.Equal(t, types.DeriveSha(b.Transactions(), trie.NewStackTrie(nil)), b.TxHash())
	byHash, err := ec.BlockByHash(ctx, b.Hash())
	require.NoError(t, err)
	assert.Equal(t, b.Hash(), byHash.Hash())
	sender, err := ec.TransactionSender(ctx, b.Transactions()[0], b.Hash(), 0)
	require.NoError(t, err)
	assert.Equal(t, evmtest.Holder(), sender)

	// eth_getTransactionByHash: mined, with its block.
	tx, pending, err := ec.TransactionByHash(ctx, sc.Create.Hash)
	require.NoError(t, err)
	assert.False(t, pending)
	assert.Equal(t, sc.Create.Hash, tx.Hash())
	_, _, err = ec.TransactionByHash(ctx, common.Hash{1})
	assert.ErrorIs(t, err, ethereum.NotFound)

	// eth_getTransactionReceipt: status, block, the contract's log.
	r, err := ec.TransactionReceipt(ctx, sc.TokenTransfer.Hash)
	require.NoError(t, err)
	assert.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	assert.Equal(t, b.Hash(), r.BlockHash)
	require.Len(t, r.Logs, 1)
	assert.Equal(t, evmtest.Token(), r.Logs[0].Address)
	assert.Equal(t, uint(0), r.Logs[0].Index)

	// eth_getStorageAt, eth_getTransactionCount, eth_chainId,
	// eth_gasPrice, eth_maxPriorityFeePerGas, eth_feeHistory.
	nonce, err := ec.NonceAt(ctx, evmtest.Holder(), nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(5), nonce)
	nonce, err = ec.NonceAt(ctx, evmtest.Holder(), big.NewInt(2))
	require.NoError(t, err)
	assert.Equal(t, uint64(2), nonce)
	id, err := ec.ChainID(ctx)
	require.NoError(t, err)
	assert.Equal(t, big.NewInt(evmtest.ChainID), id)
	tip, err := ec.SuggestGasTipCap(ctx)
	require.NoError(t, err)
	assert.Positive(t, tip.Sign())
	price, err := ec.SuggestGasPrice(ctx)
	require.NoError(t, err)
	head, err := ec.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, new(big.Int).Add(tip, head.BaseFee), price, "the tip plus the head's base fee")
	fh, err := ec.FeeHistory(ctx, 3, nil, []float64{50})
	require.NoError(t, err)
	assert.Equal(t, big.NewInt(3), fh.OldestBlock)
	assert.Len(t, fh.BaseFee, 4, "three blocks and the next")
	assert.Len(t, fh.Reward, 3)
}

// eth_getLogs, through go-ethereum's client and an abigen-style bound
// contract: the scenario's token transfer emits the only Transfer.
func TestGetLogs(t *testing.T) {
	t.Parallel()
	s := shared(t)
	ec := s.EthClient()
	ctx := t.Context()
	sc := s.Scenario()
	transfer := evmtest.TokenABI().Events["Transfer"].ID
	acc := evmtest.Accounts()

	logs, err := ec.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{evmtest.Token()}})
	require.NoError(t, err)
	require.Len(t, logs, 1)
	l := logs[0]
	assert.Equal(t, sc.TokenTransfer.Hash, l.TxHash)
	assert.Equal(t, uint64(5), l.BlockNumber)
	assert.Equal(t, []common.Hash{transfer, common.BytesToHash(evmtest.Holder().Bytes()), common.BytesToHash(acc[1].Address[:])}, l.Topics)
	assert.Equal(t, common.BigToHash(evmtest.TokenTransferAmount()).Bytes(), l.Data)

	// Topic filters: a position that must hold one of several values, a
	// wildcard, a value no log has.
	for _, tt := range []struct {
		name   string
		topics [][]common.Hash
		want   int
	}{
		{"either sender", [][]common.Hash{{transfer}, {common.BytesToHash(acc[2].Address[:]), common.BytesToHash(evmtest.Holder().Bytes())}}, 1},
		{"any sender, this receiver", [][]common.Hash{nil, nil, {common.BytesToHash(acc[1].Address[:])}}, 1},
		{"another receiver", [][]common.Hash{nil, nil, {common.BytesToHash(acc[2].Address[:])}}, 0},
		{"more topics than the log has", [][]common.Hash{nil, nil, nil, {transfer}}, 0},
	} {
		got, err := ec.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), Topics: tt.topics})
		require.NoError(t, err, tt.name)
		assert.Len(t, got, tt.want, tt.name)
	}
	// One block by hash; a range without it (the factory's blocks have
	// logs of the factory's).
	got, err := ec.FilterLogs(ctx, ethereum.FilterQuery{BlockHash: &l.BlockHash})
	require.NoError(t, err)
	assert.Len(t, got, 1)
	got, err = ec.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(1), ToBlock: big.NewInt(4), Addresses: []common.Address{evmtest.Token()}})
	require.NoError(t, err)
	assert.Empty(t, got)

	// A bound contract's FilterLogs, as abigen's FilterTransfer calls it.
	bound := bind.NewBoundContract(evmtest.Token(), evmtest.TokenABI(), ec, ec, ec)
	ch, sub, err := bound.FilterLogs(&bind.FilterOpts{Context: ctx}, "Transfer", []any{evmtest.Holder()})
	require.NoError(t, err)
	defer sub.Unsubscribe()
	// The subscription ends once every log is in the (buffered) channel.
	require.NoError(t, <-sub.Err())
	var n int
	for len(ch) > 0 {
		got := <-ch
		assert.Equal(t, l.TxHash, got.TxHash)
		n++
	}
	assert.Equal(t, 1, n)

	// On the wire: an empty list, not null; go-ethereum's errors.
	_, _, body := post(t, s, "/"+testKey, rpcBody("eth_getLogs", `[{"fromBlock":"0x0","toBlock":"0x0"}]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":[]}`, body)
	for params, msg := range map[string]string{
		`[{"fromBlock":"0x3","toBlock":"0x2"}]`:                          "invalid block range params",
		`[{"fromBlock":"pending"}]`:                                      "pending logs are not supported",
		`[{"blockHash":"` + l.BlockHash.Hex() + `","fromBlock":"0x1"}]`:  "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other",
		`[{"blockHash":"0x` + common.Bytes2Hex(make([]byte, 32)) + `"}]`: "unknown block",
		`[{"topics":[null,null,null,null,null]}]`:                        "exceed max topics",
	} {
		_, _, body := post(t, s, "/"+testKey, rpcBody("eth_getLogs", params))
		var resp struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal([]byte(body), &resp), body)
		assert.Contains(t, resp.Error.Message, msg, params)
	}
}

// eth_sendRawTransaction goes through go-ethereum's pool: its errors come
// back as a geth node's, and the node's own checks come first.
func TestSendRawTransactionErrors(t *testing.T) {
	t.Parallel()
	s := fresh(t)
	ec := s.EthClient()
	ctx := t.Context()
	acc := evmtest.Accounts()
	to := acc[2].Address
	signer := types.LatestSignerForChainID(big.NewInt(evmtest.ChainID))
	sign := func(key *evmtest.Account, tx types.TxData) *types.Transaction {
		t.Helper()
		signed, err := types.SignNewTx(key.Key, signer, tx)
		require.NoError(t, err)
		return signed
	}
	gwei := big.NewInt(10_000_000_000)

	// Nonce too low: Holder sent five transactions.
	err := ec.SendTransaction(ctx, sign(&acc[0], &types.LegacyTx{Nonce: 1, GasPrice: gwei, Gas: 21000, To: &to}))
	assert.EqualError(t, err, "nonce too low: next nonce 5, tx nonce 1")
	// Funds: an account with nothing.
	poor, err := crypto.GenerateKey()
	require.NoError(t, err)
	err = ec.SendTransaction(ctx, sign(&evmtest.Account{Key: poor}, &types.LegacyTx{Nonce: 0, GasPrice: gwei, Gas: 21000, To: &to, Value: big.NewInt(1)}))
	assert.ErrorContains(t, err, "insufficient funds for gas * price + value")
	// Intrinsic gas.
	err = ec.SendTransaction(ctx, sign(&acc[3], &types.LegacyTx{Nonce: 0, GasPrice: gwei, Gas: 20000, To: &to}))
	assert.ErrorContains(t, err, "intrinsic gas too low")
	// The node's fee cap: 1 ether.
	err = ec.SendTransaction(ctx, sign(&acc[3], &types.LegacyTx{Nonce: 0, GasPrice: big.NewInt(100_000_000_000_000), Gas: 21000, To: &to}))
	assert.EqualError(t, err, "tx fee (2.10 ether) exceeds the configured cap (1.00 ether)")
	// Replay protection.
	unprotected, err := types.SignTx(types.NewTx(&types.LegacyTx{Nonce: 0, GasPrice: gwei, Gas: 21000, To: &to}), types.HomesteadSigner{}, acc[3].Key)
	require.NoError(t, err)
	err = ec.SendTransaction(ctx, unprotected)
	assert.EqualError(t, err, "only replay-protected (EIP-155) transactions allowed over RPC")

	// A good one waits in the pool: eth_getTransactionByHash shows it
	// pending, "pending" nonces count it, the same one again is known.
	tx := sign(&acc[3], &types.LegacyTx{Nonce: 0, GasPrice: gwei, Gas: 21000, To: &to, Value: big.NewInt(7)})
	require.NoError(t, ec.SendTransaction(ctx, tx))
	assert.EqualError(t, ec.SendTransaction(ctx, tx), "already known")
	_, isPending, err := ec.TransactionByHash(ctx, tx.Hash())
	require.NoError(t, err)
	assert.True(t, isPending)
	n, err := ec.PendingNonceAt(ctx, acc[3].Address)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), n)
	_, err = ec.TransactionReceipt(ctx, tx.Hash())
	assert.ErrorIs(t, err, ethereum.NotFound)
	s.Commit()
	r, err := ec.TransactionReceipt(ctx, tx.Hash())
	require.NoError(t, err)
	assert.Equal(t, uint64(6), r.BlockNumber.Uint64())
}

// Block selectors as a geth node resolves them: "safe" is the head,
// "finalized" the genesis until block 32, "pending" has no hash, a number
// past the head is null, and a state read there fails "header not found".
func TestBlockSelectors(t *testing.T) {
	t.Parallel()
	s := shared(t)
	ec := s.EthClient()
	ctx := t.Context()
	head, err := ec.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	safe, err := ec.HeaderByNumber(ctx, big.NewInt(int64(rpc.SafeBlockNumber)))
	require.NoError(t, err)
	assert.Equal(t, head.Hash(), safe.Hash())
	fin, err := ec.HeaderByNumber(ctx, big.NewInt(int64(rpc.FinalizedBlockNumber)))
	require.NoError(t, err)
	assert.Equal(t, uint64(0), fin.Number.Uint64())

	_, _, body := post(t, s, "/"+testKey, rpcBody("eth_getBlockByNumber", `["0x64",false]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":null}`, body)
	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_getBalance", `["0x00000000000000000000000000000000000beef1","0x64"]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"header not found"}}`, body)
	var pending map[string]any
	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_getBlockByNumber", `["pending",false]`))
	var resp struct{ Result map[string]any }
	require.NoError(t, json.Unmarshal([]byte(body), &resp))
	pending = resp.Result
	assert.Nil(t, pending["hash"])
	assert.Nil(t, pending["miner"])
	assert.Equal(t, "0x6", pending["number"])

	// eth_getStorageAt: Token's slots, key spellings geth accepts, and its
	// error for one it does not.
	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_getStorageAt", `["`+evmtest.Holder().Hex()+`","0x0","latest"]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"0x0000000000000000000000000000000000000000000000000000000000000000"}`, body)
	_, _, body = post(t, s, "/"+testKey, rpcBody("eth_getStorageAt", `["`+evmtest.Holder().Hex()+`","0xzz","latest"]`))
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid hex in storage key: \"0xzz\""}}`, body)

	var rpcErr rpc.Error
	_, err = ec.BalanceAt(ctx, evmtest.Holder(), big.NewInt(100))
	require.True(t, errors.As(err, &rpcErr), "%v", err)
	assert.Equal(t, -32000, rpcErr.ErrorCode())
}

// The methods doc.go lists as served exist; the eth methods it lists as not
// served answer -32601, as a method a node does not have.
func TestServedMethods(t *testing.T) {
	t.Parallel()
	s := shared(t)
	served := []string{
		"eth_call", "eth_estimateGas", "eth_getCode", "eth_getBalance", "eth_getStorageAt", "eth_getTransactionCount",
		"eth_chainId", "eth_blockNumber", "eth_syncing", "eth_accounts", "eth_gasPrice", "eth_maxPriorityFeePerGas",
		"eth_feeHistory", "eth_blobBaseFee", "eth_getBlockByNumber", "eth_getBlockByHash", "eth_getHeaderByNumber",
		"eth_getHeaderByHash", "eth_getBlockTransactionCountByNumber", "eth_getBlockTransactionCountByHash",
		"eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getLogs", "eth_sendRawTransaction",
		"net_version", "net_listening", "net_peerCount", "web3_clientVersion", "web3_sha3", "ots_getInternalOperations",
		"eth_simulateV1", "eth_getProof", "eth_createAccessList",
	}
	for _, m := range served {
		_, _, body := post(t, s, "/"+testKey, rpcBody(m, `[]`))
		assert.NotContains(t, body, `"code":-32601`, m)
	}
	for _, m := range []string{"eth_getBlockReceipts",
		"eth_sendTransaction", "eth_sign", "eth_signTransaction", "eth_newFilter", "eth_getFilterChanges",
		"eth_getUncleByBlockNumberAndIndex", "eth_getRawTransactionByHash"} {
		_, _, body := post(t, s, "/"+testKey, rpcBody(m, `[]`))
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method `+m+` does not exist/is not available"}}`, body, m)
	}
}
