package evm_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// Call a method the package does not type, as with go-ethereum's
// rpc.Client, through the same transport (key, retries, hooks, budget).
func ExampleClient_CallContext() {
	srv, err := evmtest.New(evmtest.WithoutScenario()) // your provider in real use
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}

	var balance hexutil.Big
	err = c.CallContext(context.Background(), &balance, "eth_getBalance", evmtest.Holder(), evm.Latest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("wei:", balance.ToInt())
	// Output:
	// wei: 10000000000000000000000
}

// The chain's head and its id.
func ExampleClient_BlockNumber() {
	srv, err := evmtest.New(evmtest.WithoutScenario())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}

	head, err := c.BlockNumber(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	id, err := c.ChainID(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("block", head, "of chain", id)
	// Output:
	// block 0 of chain 1337
}

// Calls of any method in one JSON-RPC batch, each decoded into its own type.
func ExampleAdd() {
	srv, err := evmtest.New(evmtest.WithoutScenario())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}

	var b evm.Batch
	balances := make([]*evm.BatchResult[hexutil.Big], 2)
	for i, a := range evmtest.Accounts()[:2] {
		balances[i] = evm.Add[hexutil.Big](&b, "eth_getBalance", a.Address, evm.Latest)
	}
	code := evm.Add[hexutil.Bytes](&b, "eth_getCode", evmtest.Token(), evm.Latest)
	if err := c.SendBatch(context.Background(), &b); err != nil {
		log.Fatal(err) // bad input: nothing was sent
	}
	for i, r := range balances {
		v, err := r.Result()
		fmt.Println("account", i, v.ToInt(), err)
	}
	runtime, err := code.Result()
	fmt.Println("token code:", len(runtime) > 0, err)
	// Output:
	// account 0 10000000000000000000000 <nil>
	// account 1 10000000000000000000000 <nil>
	// token code: true <nil>
}
