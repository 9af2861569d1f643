package evmtest_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// The default scenario, spelled out: hashes, addresses and values do not
// depend on the run (the keys, nonces, gas and fees are fixed; signatures
// are deterministic).
var (
	wantForwarder = common.HexToAddress("0x000000000000000000000000000000000000f044")
	wantFactory   = common.HexToAddress("0x000000000000000000000000000000000000fac7")
	wantRecipient = common.HexToAddress("0x00000000000000000000000000000000000beef1")
	wantBenef     = common.HexToAddress("0x00000000000000000000000000000000000beef2")
	wantCreated   = common.HexToAddress("0x6ea65f16dce8e13980e1ba3706a8d8b54731d3cc")
	wantCreated2  = common.HexToAddress("0xedeb125db342266374b8ad5a5387ee40bad2602f")
	wantHolder    = common.HexToAddress("0x9e477782bc5cfff0752bfac6c40dbebf146d27f9")

	oneAndAHalfEther = new(big.Int).SetUint64(0x14d1120d7b160000) // 1.5 ether
	quarterEther     = new(big.Int).SetUint64(0x3782dace9d90000)  // 0.25 ether
)

func TestScenarioInternalOperations(t *testing.T) {
	t.Parallel()
	s := shared(t)
	sc := s.Scenario()
	tests := []struct {
		name  string
		tx    evmtest.ScenarioTx
		hash  string
		block uint64
		want  []evm.InternalOperation
	}{
		{"transfer by CALL", sc.Transfer, "0xd80f43219e0aa5ac14e9c8b45f7ed9fd80a715122dec765b12d6485519ea3c81", 1,
			[]evm.InternalOperation{{Type: evm.Transfer, From: wantForwarder, To: wantRecipient, Value: oneAndAHalfEther}}},
		{"CREATE", sc.Create, "0x7858bbae099f2d22898ff379f1fdc929b22145bc39f134a172dde772852f0b99", 2,
			[]evm.InternalOperation{{Type: evm.Create, From: wantFactory, To: wantCreated, Value: quarterEther}}},
		{"CREATE2 with no value", sc.Create2, "0x62644b528331b242b767ccc644a9aae1cab194f5dc3d1443492f3432ddb7acd1", 3,
			[]evm.InternalOperation{{Type: evm.Create2, From: wantFactory, To: wantCreated2, Value: big.NewInt(0)}}},
		{"SELFDESTRUCT", sc.SelfDestruct, "0xab8326b9854c34120d6b1e0c8a471296579801a0802868fe35b4e2d09e04bd5f", 4,
			[]evm.InternalOperation{{Type: evm.SelfDestruct, From: wantCreated, To: wantBenef, Value: quarterEther}}},
		{"ERC-20 transfer", sc.TokenTransfer, "0x937550137fa5ba34a5794248add3e4ae17e4f30d8d3f3df7da51c7a943c28840", 5,
			[]evm.InternalOperation{}},
	}
	for _, path := range []string{"{key}", "{key}/evm"} {
		var opts []nodeaccess.Option
		if path == "{key}/evm" {
			opts = append(opts, evm.WithPathSuffix("evm"))
		}
		c := client(t, s, opts...)
		for _, tt := range tests {
			t.Run(path+" "+tt.name, func(t *testing.T) {
				assert.Equal(t, common.HexToHash(tt.hash), tt.tx.Hash)
				assert.Equal(t, tt.block, tt.tx.Block)
				assert.Equal(t, view(tt.want), view(tt.tx.Operations), "Scenario's expectation")
				ops, err := c.InternalOperations(t.Context(), tt.tx.Hash)
				require.NoError(t, err)
				assert.Equal(t, view(tt.want), view(ops))
			})
		}
	}
	assert.Equal(t, wantCreated, sc.Created)
	assert.Equal(t, wantCreated2, sc.Created2)
	assert.Equal(t, wantCreated, crypto.CreateAddress(wantFactory, 0))
	assert.Equal(t, wantHolder, evmtest.Holder())
	assert.Len(t, sc.Transactions(), 5)
}

// The JSON the server writes is Erigon's: numbers for types, lower-case
// addresses, hex quantities with "0x0" for zero.
func TestInternalOperationsWire(t *testing.T) {
	t.Parallel()
	s := shared(t)
	sc := s.Scenario()
	tests := []struct {
		tx   common.Hash
		want string
	}{
		{sc.Transfer.Hash, `[{"type":0,"from":"0x000000000000000000000000000000000000f044","to":"0x00000000000000000000000000000000000beef1","value":"0x14d1120d7b160000"}]`},
		{sc.Create.Hash, `[{"type":2,"from":"0x000000000000000000000000000000000000fac7","to":"0x6ea65f16dce8e13980e1ba3706a8d8b54731d3cc","value":"0x3782dace9d90000"}]`},
		{sc.Create2.Hash, `[{"type":3,"from":"0x000000000000000000000000000000000000fac7","to":"0xedeb125db342266374b8ad5a5387ee40bad2602f","value":"0x0"}]`},
		{sc.SelfDestruct.Hash, `[{"type":1,"from":"0x6ea65f16dce8e13980e1ba3706a8d8b54731d3cc","to":"0x00000000000000000000000000000000000beef2","value":"0x3782dace9d90000"}]`},
		{sc.TokenTransfer.Hash, `[]`},
	}
	for _, tt := range tests {
		for _, path := range []string{"/" + testKey, "/" + testKey + "/evm"} {
			status, ctype, body := post(t, s, path, rpcBody("ots_getInternalOperations", `["`+tt.tx.Hex()+`"]`))
			assert.Equal(t, 200, status)
			assert.Equal(t, "application/json", ctype)
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":`+tt.want+`}`, body, "%s at %s", tt.tx, path)
		}
	}
}

// A hash that is not a transaction fails as on Erigon: -32000
// "transaction 0x<hash> not found", with no data.
func TestInternalOperationsUnknownHash(t *testing.T) {
	t.Parallel()
	s := shared(t)
	c := client(t, s)
	head, err := s.EthClient().HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	for _, h := range []common.Hash{
		common.HexToHash("0x00000000000000000000000000000000000000000000000000000000deadbeef"),
		head.Hash(), // a block's hash is not a transaction's
		{},
	} {
		ops, err := c.InternalOperations(t.Context(), h)
		assert.Nil(t, ops)
		var op *nodeaccess.OpError
		require.ErrorAs(t, err, &op)
		assert.Equal(t, "evm", op.Chain)
		assert.Equal(t, "ots_getInternalOperations", op.Op)
		assert.Equal(t, &nodeaccess.RPCError{Code: -32000, Message: "transaction " + h.Hex() + " not found"}, op.Err)
		assert.Equal(t, "evm: ots_getInternalOperations: json-rpc error -32000: transaction "+h.Hex()+" not found", err.Error())
		assert.NotErrorIs(t, err, nodeaccess.ErrNotFound)
	}

	status, _, body := post(t, s, "/"+testKey, rpcBody("ots_getInternalOperations", `["0x00000000000000000000000000000000000000000000000000000000deadbeef"]`))
	assert.Equal(t, 200, status)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"transaction 0x00000000000000000000000000000000000000000000000000000000deadbeef not found"}}`, body)
}

// Erigon leaves out the top-level call: a plain transfer between accounts,
// and a call that moves value only at the top, list nothing.
func TestInternalOperationsTopLevelLeftOut(t *testing.T) {
	t.Parallel()
	s := fresh(t, evmtest.WithoutScenario())
	acc := evmtest.Accounts()
	c := client(t, s)

	to := acc[3].Address
	r, err := s.Transact(t.Context(), acc[2], &to, big.NewInt(12345), nil)
	require.NoError(t, err)
	ops, err := c.InternalOperations(t.Context(), r.TxHash)
	require.NoError(t, err)
	assert.Equal(t, []evm.InternalOperation{}, ops)

	// Value through Forwarder: the inner CALL is listed, the top-level
	// call that brought the value is not.
	fwd := evmtest.Forwarder()
	data, err := evmtest.ForwarderABI().Pack("forward", acc[3].Address)
	require.NoError(t, err)
	r, err = s.Transact(t.Context(), acc[2], &fwd, big.NewInt(7), data)
	require.NoError(t, err)
	ops, err = c.InternalOperations(t.Context(), r.TxHash)
	require.NoError(t, err)
	assert.Equal(t, view([]evm.InternalOperation{{Type: evm.Transfer, From: fwd, To: acc[3].Address, Value: big.NewInt(7)}}), view(ops))
}
