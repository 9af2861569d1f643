package main

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"net"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
)

// answerRuntime is the runtime code of a contract that returns the uint256
// 42 to any call: PUSH1 0x2a PUSH1 0 MSTORE PUSH1 0x20 PUSH1 0 RETURN.
var answerRuntime = common.FromHex("0x602a60005260206000f3")

// localNode is go-ethereum's simulated backend serving JSON-RPC over HTTP on
// 127.0.0.1, below the path of an access key, as a provider's node would.
type localNode struct {
	backend  *simulated.Backend
	baseURL  string
	key      string
	contract common.Address
	tx       common.Hash // a value transfer mined in block 1
}

func startLocalNode() (*localNode, error) {
	const key = "local-demo-key"
	funder, _ := crypto.HexToECDSA("8a1f9a8f95be41cd7ccb6168179afb4504aefe388d1e14474d32c45c72ce7b7a")
	from := crypto.PubkeyToAddress(funder.PublicKey)
	contract := common.HexToAddress("0x000000000000000000000000000000000000a42a")
	alloc := types.GenesisAlloc{
		from:     {Balance: new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether))},
		contract: {Code: answerRuntime},
	}
	var lastErr error
	for range 5 { // a free port can be taken between finding and using it
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		b, err := newBackend(alloc, port, key)
		if err != nil {
			lastErr = err
			continue
		}
		n := &localNode{backend: b, baseURL: fmt.Sprintf("http://127.0.0.1:%d", port), key: key, contract: contract}
		if n.tx, err = n.transfer(funder); err != nil {
			b.Close()
			return nil, err
		}
		return n, nil
	}
	return nil, lastErr
}

// newBackend starts the simulated backend with HTTP on port, serving below
// "/" + key. NewBackend panics when the port is taken; that becomes an error.
func newBackend(alloc types.GenesisAlloc, port int, key string) (b *simulated.Backend, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("simulated backend: %v", r)
		}
	}()
	return simulated.NewBackend(alloc, func(nc *node.Config, _ *ethconfig.Config) {
		nc.HTTPHost = "127.0.0.1"
		nc.HTTPPort = port
		nc.HTTPModules = []string{"eth", "net", "web3"}
		nc.HTTPPathPrefix = "/" + key
	}), nil
}

// transfer sends 1 ether from funder to the contract's neighbour and mines it.
func (n *localNode) transfer(funder *ecdsa.PrivateKey) (common.Hash, error) {
	ctx := context.Background()
	c := n.backend.Client()
	from := crypto.PubkeyToAddress(funder.PublicKey)
	nonce, err := c.NonceAt(ctx, from, nil)
	if err != nil {
		return common.Hash{}, err
	}
	chainID, err := c.ChainID(ctx)
	if err != nil {
		return common.Hash{}, err
	}
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		return common.Hash{}, err
	}
	to := common.HexToAddress("0x000000000000000000000000000000000000beef")
	tx, err := types.SignNewTx(funder, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(params.GWei),
		GasFeeCap: new(big.Int).Add(head.BaseFee, big.NewInt(2*params.GWei)),
		Gas:       21000, To: &to, Value: big.NewInt(params.Ether),
	})
	if err != nil {
		return common.Hash{}, err
	}
	if err := c.SendTransaction(ctx, tx); err != nil {
		return common.Hash{}, err
	}
	n.backend.Commit()
	return tx.Hash(), nil
}

func (n *localNode) close() { _ = n.backend.Close() }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
