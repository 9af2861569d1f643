package evm_test

// Tests against a real node: evmtest's local server (go-ethereum's
// chain (its blockchain and EVM in memory) serving JSON-RPC on 127.0.0.1 through the SDK's shared
// test server), with the Probe contract (evm/internal/testcontract) added
// to its genesis alloc and without evmtest's default scenario.
//
// The chain the tests read, built once for the test binary by simNode:
//
//	block 0 (genesis): Probe with value = simInitialValue; simFunded has 100 ether
//	block 1: empty
//	block 2: simFunded sends Probe.setValue(simUpdatedValue) (transaction simSetTx)
//	block 3: empty (head)
//
// so the value read tells which block's state a call ran against. No test
// changes that chain (TestMain checks that the head is still block 3 at the
// end); a test that mines starts a node of its own (simOwnNode).

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"fmt"
	"math/big"
	"os"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/internal/testcontract"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// *evm.Client is what abigen bindings need for read calls, including calls
// against the pending state and at a block hash.
var (
	_ bind.ContractCaller          = (*evm.Client)(nil).ContractCaller()
	_ bind.PendingContractCaller   = (*evm.Client)(nil).ContractCaller()
	_ bind.BlockHashContractCaller = (*evm.Client)(nil).ContractCaller()
)

const (
	// simAccessKey is the access key the SDK puts in the path; the server
	// answers JSON-RPC only at "/" + simAccessKey (and below it at /evm).
	simAccessKey = "sim-Key_0123"
	// simInitialValue is Probe.value in the genesis alloc (blocks 0 and 1).
	simInitialValue = 0x5eed_cafe
	// simUpdatedValue is Probe.value from block 2 on.
	simUpdatedValue = 0xb10c_0002
	// simRevertReason is the reason of Probe.failRequire.
	simRevertReason = "probe: always fails"
)

var (
	simContract = common.HexToAddress("0x00000000000000000000000000000000000b0b0b")
	// simStranger is an address the chain has never seen.
	simStranger = common.HexToAddress("0x5157a2e500000000000000000000000000000001")
	simProbeABI = mustProbeABI()
)

// simEnv is the running node and what the tests know about its chain.
type simEnv struct {
	srv    *evmtest.Server
	client *evm.Client
	url    string
	funded common.Address // an EOA with a balance
	head   uint64         // the number of the head block
	hashes []common.Hash  // hashes[n] is the hash of block n
	setTx  common.Hash    // the setValue transaction, in block 2
}

var (
	simOnce sync.Once
	simErr  error
	simNow  *simEnv
)

// TestMain stops the local node, if a test started it, after all tests,
// and fails the run if a test changed its chain.
func TestMain(m *testing.M) {
	code := m.Run()
	if simNow != nil {
		if n, err := simNow.srv.EthClient().BlockNumber(context.Background()); err != nil || n != simNow.head {
			fmt.Fprintf(os.Stderr, "FAIL: the shared node's head is block %d (%v), want %d: a test mined on it\n", n, err, simNow.head)
			code = 1
		}
		simNow.srv.Close()
	}
	os.Exit(code)
}

// simNode returns the shared node, starting it on first use.
func simNode(t *testing.T) *simEnv {
	t.Helper()
	simOnce.Do(func() { simNow, simErr = startSimNode() })
	if simErr != nil {
		t.Fatalf("starting the local node: %v", simErr)
	}
	return simNow
}

func startSimNode() (*simEnv, error) {
	// A fixed key, so that the funded address is the same on every run.
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("nodeaccess evm node test")))
	if err != nil {
		return nil, err
	}
	env := &simEnv{funded: crypto.PubkeyToAddress(key.PublicKey)}
	env.srv, err = evmtest.New(simOptions(env.funded)...)
	if err != nil {
		return nil, err
	}
	env.url = env.srv.URL
	if err := env.buildChain(key); err != nil {
		env.srv.Close()
		return nil, err
	}
	env.client, err = env.srv.Client(nodeaccess.WithMaxAttempts(1))
	if err != nil {
		env.srv.Close()
		return nil, err
	}
	return env, nil
}

// buildChain commits blocks 1 to 3, with the setValue transaction in block 2.
func (env *simEnv) buildChain(key *ecdsa.PrivateKey) error {
	ctx := context.Background()
	ec := env.srv.EthClient()
	env.srv.Commit() // block 1
	chainID, err := ec.ChainID(ctx)
	if err != nil {
		return err
	}
	if chainID.Int64() != evmtest.ChainID {
		return fmt.Errorf("chain id %v, want %d", chainID, evmtest.ChainID)
	}
	opts, err := bind.NewKeyedTransactorWithChainID(key, big.NewInt(evmtest.ChainID))
	if err != nil {
		return err
	}
	opts.Context = ctx
	tr, err := testcontract.NewProbeTransactor(simContract, ec)
	if err != nil {
		return err
	}
	tx, err := tr.SetValue(opts, big.NewInt(simUpdatedValue))
	if err != nil {
		return err
	}
	env.setTx = tx.Hash()
	env.srv.Commit() // block 2
	receipt, err := ec.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		return fmt.Errorf("setValue receipt: %w", err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful || receipt.BlockNumber.Uint64() != 2 {
		return fmt.Errorf("setValue: status %d in block %v, want success in block 2", receipt.Status, receipt.BlockNumber)
	}
	env.srv.Commit() // block 3
	if env.head, err = ec.BlockNumber(ctx); err != nil {
		return err
	}
	if env.head != 3 {
		return fmt.Errorf("head is block %d, want 3", env.head)
	}
	for n := uint64(0); n <= env.head; n++ {
		h, err := ec.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			return fmt.Errorf("header %d: %w", n, err)
		}
		env.hashes = append(env.hashes, h.Hash())
	}
	return nil
}

// simOptions are the options of the shared node: the key, Probe with
// simInitialValue and 100 ether for funded in genesis, no scenario.
func simOptions(funded common.Address) []evmtest.Option {
	return []evmtest.Option{evmtest.WithKey(simAccessKey), evmtest.WithoutScenario(), evmtest.WithAlloc(types.GenesisAlloc{
		funded: {Balance: new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether))},
		simContract: {
			Code:    testcontract.RuntimeCode(),
			Storage: map[common.Hash]common.Hash{{}: common.BigToHash(big.NewInt(simInitialValue))},
			Balance: big.NewInt(0),
		},
	})}
}

// simOwnNode starts a node with the shared node's genesis (at block 0), for
// a test that mines; the test's end closes it.
func simOwnNode(t *testing.T) (*evmtest.Server, *evm.Client) {
	t.Helper()
	srv := evmtest.NewT(t, simOptions(simNode(t).funded)...)
	c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	return srv, c
}

func mustProbeABI() *abi.ABI {
	a, err := testcontract.ProbeMetaData.GetAbi()
	if err != nil {
		panic(err)
	}
	return a
}

// simPack is the call data of Probe.method(args...).
func simPack(t *testing.T, method string, args ...any) []byte {
	t.Helper()
	data, err := simProbeABI.Pack(method, args...)
	require.NoError(t, err)
	return data
}

// simWord is v as one 32-byte ABI word.
func simWord(v uint64) []byte { return common.BigToHash(new(big.Int).SetUint64(v)).Bytes() }

// simSelector returns the 4-byte selector of sig, such as "Error(string)".
func simSelector(sig string) []byte { return crypto.Keccak256([]byte(sig))[:4] }

func simConcat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// simErrorString is the revert data of require(false, reason).
func simErrorString(reason string) []byte {
	padded := make([]byte, (len(reason)+31)/32*32)
	copy(padded, reason)
	return simConcat(simSelector("Error(string)"), simWord(32), simWord(uint64(len(reason))), padded)
}

func TestNodeCallReturnsStoredValue(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	out, err := env.client.Call(t.Context(), evm.CallMsg{To: simContract, Data: simPack(t, "value")}, evm.Latest)
	require.NoError(t, err)
	want, _ := hex.DecodeString("00000000000000000000000000000000000000000000000000000000b10c0002")
	assert.Equal(t, want, out)

	// A call to an account without code returns nothing: empty, not nil.
	out, err = env.client.Call(t.Context(), evm.CallMsg{To: simStranger, Data: simPack(t, "value")}, evm.Latest)
	require.NoError(t, err)
	assert.NotNil(t, out)
	assert.Empty(t, out)
}

func TestNodeCallReverts(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	deniedData := simConcat(simSelector("Denied(address,uint256)"), common.LeftPadBytes(env.funded[:], 32), simWord(0xc0de))
	tests := []struct {
		name      string
		data      []byte
		wantData  []byte
		wantMsg   string // the node's message
		wantError string // the SDK's Error()
		reason    string
		panicCode *big.Int
	}{
		{
			name:      "require",
			data:      simPack(t, "failRequire"),
			wantData:  simErrorString(simRevertReason),
			wantMsg:   "execution reverted: " + simRevertReason,
			wantError: `evm: eth_call: execution reverted: "probe: always fails"`,
			reason:    simRevertReason,
		},
		{
			name:      "panic",
			data:      simPack(t, "failPanic", big.NewInt(0)),
			wantData:  simConcat(simSelector("Panic(uint256)"), simWord(0x12)),
			wantMsg:   "execution reverted: division or modulo by zero",
			wantError: "evm: eth_call: execution reverted: panic 0x12 (division or modulo by zero)",
			panicCode: big.NewInt(0x12),
		},
		{
			name:     "custom error",
			data:     simPack(t, "failCustom", big.NewInt(0xc0de)),
			wantData: deniedData,
			// geth decodes only Error(string) and Panic(uint256).
			wantMsg:   "execution reverted",
			wantError: fmt.Sprintf("evm: eth_call: execution reverted: custom error 0x%x (68 bytes of data)", simSelector("Denied(address,uint256)")),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := env.client.Call(t.Context(), evm.CallMsg{From: env.funded, To: simContract, Data: tt.data}, evm.Latest)
			require.Error(t, err)
			assert.Nil(t, out)
			assert.Equal(t, tt.wantError, err.Error())
			assert.ErrorIs(t, err, evm.ErrReverted)

			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "evm", op.Chain)
			assert.Equal(t, "eth_call", op.Op)

			var rev *evm.RevertError
			require.ErrorAs(t, err, &rev)
			assert.Equal(t, tt.wantData, rev.Data)
			assert.Equal(t, tt.reason, rev.Reason)
			if tt.panicCode == nil {
				assert.Nil(t, rev.PanicCode)
			} else if assert.NotNil(t, rev.PanicCode) {
				assert.Equal(t, 0, tt.panicCode.Cmp(rev.PanicCode), "panic code 0x%x", rev.PanicCode)
			}

			var rpcErr *nodeaccess.RPCError
			require.ErrorAs(t, err, &rpcErr)
			assert.Same(t, rev.RPC, rpcErr)
			assert.Equal(t, 3, rpcErr.Code)
			assert.Equal(t, tt.wantMsg, rpcErr.Message)
			assert.Equal(t, "0x"+hex.EncodeToString(tt.wantData), rpcErr.Data)

			// go-ethereum's own helpers read the error through rpc.Error
			// and rpc.DataError.
			var de rpc.DataError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, "0x"+hex.EncodeToString(tt.wantData), de.ErrorData())
			var ce rpc.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, 3, ce.ErrorCode())
		})
	}

	// The custom error's arguments decode with the ABI.
	denied := simProbeABI.Errors["Denied"]
	args, err := denied.Unpack(deniedData)
	require.NoError(t, err)
	assert.Equal(t, []any{env.funded, big.NewInt(0xc0de)}, args)
}

func TestNodeBlockSelectors(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	tests := []struct {
		name  string
		block evm.Block
		want  uint64
	}{
		{"zero Block", nil, simUpdatedValue},
		{"latest", evm.Latest, simUpdatedValue},
		// The simulated beacon marks the head safe.
		{"safe", evm.Safe, simUpdatedValue},
		// The simulated beacon finalizes every 32nd block only; below block
		// 32 the finalized block is genesis, before setValue.
		{"finalized", evm.Finalized, simInitialValue},
		{"earliest", evm.Earliest, simInitialValue},
		// Nothing is pending, so the pending block has the head's state.
		{"pending", evm.Pending, simUpdatedValue},
		{"block 0", evm.BlockNumber(0), simInitialValue},
		{"block 1", evm.BlockNumber(1), simInitialValue},
		{"block 2", evm.BlockNumber(2), simUpdatedValue},
		{"head number", evm.BlockNumber(env.head), simUpdatedValue},
		{"hash of block 1, canonical", evm.BlockHash{Hash: env.hashes[1], RequireCanonical: true}, simInitialValue},
		{"hash of block 1", evm.BlockHash{Hash: env.hashes[1]}, simInitialValue},
		{"hash of block 2, canonical", evm.BlockHash{Hash: env.hashes[2], RequireCanonical: true}, simUpdatedValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := env.client.Call(t.Context(), evm.CallMsg{To: simContract, Data: simPack(t, "value")}, tt.block)
			require.NoError(t, err)
			assert.Equal(t, simWord(tt.want), out)
		})
	}
}

func TestNodeBlockErrors(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	msg := evm.CallMsg{To: simContract, Data: simPack(t, "value")}
	unknownHash := common.HexToHash("0x00000000000000000000000000000000000000000000000000000000deadbeef")
	tests := []struct {
		name    string
		block   evm.Block
		wantMsg string
	}{
		{"future number", evm.BlockNumber(env.head + 1000), "header not found"},
		{"unknown hash", evm.BlockHash{Hash: unknownHash, RequireCanonical: true}, "header for hash not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := env.client.Call(t.Context(), msg, tt.block)
			require.Error(t, err)
			assert.Nil(t, out)
			assert.Equal(t, "evm: eth_call: json-rpc error -32000: "+tt.wantMsg, err.Error())

			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, "evm", op.Chain)
			assert.Equal(t, "eth_call", op.Op)
			rpcErr, ok := op.Err.(*nodeaccess.RPCError)
			require.True(t, ok, "OpError.Err is %T, want *nodeaccess.RPCError", op.Err)
			assert.Equal(t, &nodeaccess.RPCError{Code: -32000, Message: tt.wantMsg}, rpcErr)

			assert.NotErrorIs(t, err, evm.ErrReverted)
			assert.NotErrorIs(t, err, nodeaccess.ErrNotFound)
			assert.NotErrorIs(t, err, nodeaccess.ErrInvalidResponse)
		})
	}
}

func TestNodeCode(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	ctx := t.Context()
	want := testcontract.RuntimeCode()
	require.NotEmpty(t, want)

	for _, b := range []evm.Block{evm.Latest, evm.Earliest, evm.Pending, evm.BlockNumber(1), evm.BlockHash{Hash: env.hashes[2], RequireCanonical: true}} {
		code, err := env.client.Code(ctx, simContract, b)
		require.NoError(t, err, "block %v", b)
		assert.Equal(t, want, code, "block %v", b)
	}

	code, err := env.client.ContractCaller().CodeAt(ctx, simContract, nil)
	require.NoError(t, err)
	assert.Equal(t, want, code)
	code, err = env.client.ContractCaller().CodeAt(ctx, simContract, big.NewInt(2))
	require.NoError(t, err)
	assert.Equal(t, want, code)
	code, err = env.client.ContractCaller().PendingCodeAt(ctx, simContract)
	require.NoError(t, err)
	assert.Equal(t, want, code)
	code, err = env.client.ContractCaller().CodeAtHash(ctx, simContract, env.hashes[0])
	require.NoError(t, err)
	assert.Equal(t, want, code)

	// Accounts without code: a funded EOA and one the chain never saw.
	for _, a := range []common.Address{env.funded, simStranger} {
		code, err := env.client.Code(ctx, a, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, []byte{}, code, "account %s", a)
		code, err = env.client.ContractCaller().CodeAt(ctx, a, nil)
		require.NoError(t, err)
		assert.Equal(t, []byte{}, code, "account %s", a)
	}

	// The future block fails as eth_call does, named eth_getCode.
	_, err = env.client.Code(ctx, simContract, evm.BlockNumber(env.head+1000))
	var op *nodeaccess.OpError
	require.ErrorAs(t, err, &op)
	assert.Equal(t, "eth_getCode", op.Op)
	assert.Equal(t, &nodeaccess.RPCError{Code: -32000, Message: "header not found"}, op.Err)
}

func TestNodeAbigenBinding(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	caller, err := testcontract.NewProbeCaller(simContract, env.client.ContractCaller())
	require.NoError(t, err)
	ctx := t.Context()

	tests := []struct {
		name string
		opts *bind.CallOpts
		want uint64
	}{
		{"latest", &bind.CallOpts{Context: ctx}, simUpdatedValue},
		{"number", &bind.CallOpts{Context: ctx, BlockNumber: big.NewInt(1)}, simInitialValue},
		{"finalized tag", &bind.CallOpts{Context: ctx, BlockNumber: big.NewInt(int64(rpc.FinalizedBlockNumber))}, simInitialValue},
		{"pending", &bind.CallOpts{Context: ctx, Pending: true}, simUpdatedValue},
		{"hash", &bind.CallOpts{Context: ctx, BlockHash: env.hashes[1]}, simInitialValue},
	}
	for _, tt := range tests {
		v, err := caller.Value(tt.opts)
		require.NoError(t, err, tt.name)
		assert.Equal(t, new(big.Int).SetUint64(tt.want), v, tt.name)
	}

	err = caller.FailRequire(&bind.CallOpts{Context: ctx})
	require.Error(t, err)
	assert.ErrorIs(t, err, evm.ErrReverted)
	var rev *evm.RevertError
	require.ErrorAs(t, err, &rev)
	assert.Equal(t, simRevertReason, rev.Reason)

	_, err = caller.FailPanic(&bind.CallOpts{Context: ctx}, big.NewInt(0))
	assert.ErrorIs(t, err, evm.ErrReverted)
	require.ErrorAs(t, err, &rev)
	assert.Equal(t, big.NewInt(0x12), rev.PanicCode)

	// The binding's From reaches msg.sender in the custom error.
	err = caller.FailCustom(&bind.CallOpts{Context: ctx, From: env.funded}, big.NewInt(7))
	assert.ErrorIs(t, err, evm.ErrReverted)
	require.ErrorAs(t, err, &rev)
	denied := simProbeABI.Errors["Denied"]
	require.GreaterOrEqual(t, len(rev.Data), 4)
	assert.Equal(t, denied.ID[:4], rev.Data[:4])
	args, err := denied.Unpack(rev.Data)
	require.NoError(t, err)
	assert.Equal(t, []any{env.funded, big.NewInt(7)}, args)

	// A working call on an address without code: the binding asks CodeAt,
	// gets no code and says so.
	stranger, err := testcontract.NewProbeCaller(simStranger, env.client.ContractCaller())
	require.NoError(t, err)
	_, err = stranger.Value(&bind.CallOpts{Context: ctx})
	assert.ErrorIs(t, err, bind.ErrNoCode)
}

// The local node answers ots_getInternalOperations as Erigon does (evmtest
// has the tests of every operation type): a transaction whose only value
// moves, if any, at the top level lists nothing, and a hash that is not a
// transaction fails with -32000. A node without the method (-32601) is
// covered by the wire tests.
func TestNodeInternalOperations(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	ops, err := env.client.InternalOperations(t.Context(), env.setTx)
	require.NoError(t, err)
	assert.NotNil(t, ops)
	assert.Empty(t, ops)

	// A payable call with value, on a node of the test's own: the value
	// moves in the top-level call only, which Erigon leaves out.
	srv, c := simOwnNode(t)
	to := simContract
	r, err := srv.Transact(t.Context(), evmtest.Accounts()[0], &to, big.NewInt(5), simPack(t, "echo"))
	require.NoError(t, err)
	ops, err = c.InternalOperations(t.Context(), r.TxHash)
	require.NoError(t, err)
	assert.Equal(t, []evm.InternalOperation{}, ops)

	ops, err = env.client.InternalOperations(t.Context(), env.hashes[2]) // a block's hash
	assert.Nil(t, ops)
	var op *nodeaccess.OpError
	require.ErrorAs(t, err, &op)
	assert.Equal(t, "evm", op.Chain)
	assert.Equal(t, "ots_getInternalOperations", op.Op)
	assert.Equal(t, &nodeaccess.RPCError{Code: -32000, Message: "transaction " + env.hashes[2].Hex() + " not found"}, op.Err)
}

func TestNodeCallMsgFields(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	ctx := t.Context()

	t.Run("from and value reach a payable function", func(t *testing.T) {
		t.Parallel()
		out, err := env.client.Call(ctx, evm.CallMsg{
			From: env.funded, To: simContract, Gas: 100_000, Value: big.NewInt(1234), Data: simPack(t, "echo"),
		}, evm.Latest)
		require.NoError(t, err)
		assert.Equal(t, simConcat(common.LeftPadBytes(env.funded[:], 32), simWord(1234)), out)
	})

	t.Run("the same through CallContract", func(t *testing.T) {
		t.Parallel()
		to := simContract
		out, err := env.client.ContractCaller().CallContract(ctx, ethereum.CallMsg{
			From: env.funded, To: &to, Gas: 100_000, Value: big.NewInt(99), Data: simPack(t, "echo"),
		}, nil)
		require.NoError(t, err)
		assert.Equal(t, simConcat(common.LeftPadBytes(env.funded[:], 32), simWord(99)), out)
	})

	t.Run("value to a non-payable function reverts without data", func(t *testing.T) {
		t.Parallel()
		out, err := env.client.Call(ctx, evm.CallMsg{
			From: env.funded, To: simContract, Value: big.NewInt(1), Data: simPack(t, "value"),
		}, evm.Latest)
		assert.Nil(t, out)
		assert.ErrorIs(t, err, evm.ErrReverted)
		assert.Equal(t, "evm: eth_call: execution reverted", err.Error())
		var rev *evm.RevertError
		require.ErrorAs(t, err, &rev)
		assert.Equal(t, []byte{}, rev.Data)
		assert.Empty(t, rev.Reason)
		assert.Nil(t, rev.PanicCode)
		assert.Equal(t, &nodeaccess.RPCError{Code: 3, Message: "execution reverted", Data: "0x"}, rev.RPC)
	})

	// The errors below are not reverts: the node refuses the message.
	tests := []struct {
		name    string
		msg     evm.CallMsg
		wantMsg string
	}{
		{
			name: "value beyond the sender's balance",
			msg:  evm.CallMsg{From: simStranger, To: simContract, Value: big.NewInt(1), Data: simPack(t, "echo")},
			// 50000000 is the node's gas cap (RPCGasCap), used when Gas is unset.
			wantMsg: "err: insufficient funds for gas * price + value: address " + simStranger.Hex() + " have 0 want 1 (supplied gas 50000000)",
		},
		{
			// 4 bytes of call data cost at least 21160 gas since Prague (EIP-7623).
			name:    "gas below the call data's floor cost",
			msg:     evm.CallMsg{To: simContract, Gas: 21_100, Data: simPack(t, "value")},
			wantMsg: "err: insufficient gas for floor data gas cost: have 21100, want 21160 (supplied gas 21100)",
		},
		{
			// 21200 gas covers the floor, but the SLOAD in value() needs more.
			name:    "gas below what the code needs",
			msg:     evm.CallMsg{To: simContract, Gas: 21_200, Data: simPack(t, "value")},
			wantMsg: "out of gas",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := env.client.Call(ctx, tt.msg, evm.Latest)
			assert.Nil(t, out)
			assert.NotErrorIs(t, err, evm.ErrReverted)
			var op *nodeaccess.OpError
			require.ErrorAs(t, err, &op)
			assert.Equal(t, &nodeaccess.RPCError{Code: -32000, Message: tt.wantMsg}, op.Err)
		})
	}
}

// The node serves JSON-RPC only at "/" + simAccessKey: a client with another
// key, including one that extends the real key or is a prefix of it, gets
// 403, which shows the key travels in the path and is compared exactly.
func TestNodeWrongKey(t *testing.T) {
	t.Parallel()
	env := simNode(t)
	for _, k := range []string{"wrong-key", simAccessKey + "0", simAccessKey[:len(simAccessKey)-1]} {
		c, err := evm.New(env.url, k, nodeaccess.WithMaxAttempts(1))
		require.NoError(t, err)
		_, err = c.Code(t.Context(), simContract, evm.Latest)
		assert.ErrorIs(t, err, nodeaccess.ErrUnauthorized, k)
		var he *nodeaccess.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, 403, he.StatusCode)
		assert.Equal(t, "POST", he.Method)
		testkit.AssertErrNoKey(t, k, err)
	}
}
