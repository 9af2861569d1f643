package evmtest_test

import (
	"context"
	"fmt"
	"log"
	"math/big"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// Read the genesis token through eth_call, as code under test would.
func Example() {
	srv, err := evmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	data, _ := evmtest.TokenABI().Pack("balanceOf", evmtest.Holder())
	out, err := c.Call(context.Background(), evm.CallMsg{To: evmtest.Token(), Data: data}, evm.BlockNumber(0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("balance at block 0:", new(big.Int).SetBytes(out), "(10^-6", evmtest.TokenSymbol+")")
	// Output:
	// balance at block 0: 1234567891 (10^-6 LUSD)
}

// The default scenario has one transaction per operation type.
func ExampleServer_Scenario() {
	srv, err := evmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client(evm.WithPathSuffix("evm")) // {URL}/{Key}/evm
	if err != nil {
		log.Fatal(err)
	}
	for _, tx := range srv.Scenario().Transactions() {
		ops, err := c.InternalOperations(context.Background(), tx.Hash)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("block %d: %d operation(s)\n", tx.Block, len(ops))
		for _, op := range ops {
			fmt.Printf("  %s %s -> %s %s wei\n", op.Type, op.From.Hex(), op.To.Hex(), op.Value)
		}
	}
	// Output:
	// block 1: 1 operation(s)
	//   transfer 0x000000000000000000000000000000000000F044 -> 0x00000000000000000000000000000000000bEEf1 1500000000000000000 wei
	// block 2: 1 operation(s)
	//   create 0x000000000000000000000000000000000000FaC7 -> 0x6ea65f16DcE8e13980e1BA3706A8d8b54731D3cc 250000000000000000 wei
	// block 3: 1 operation(s)
	//   create2 0x000000000000000000000000000000000000FaC7 -> 0xEDEb125Db342266374b8ad5a5387Ee40BAD2602f 0 wei
	// block 4: 1 operation(s)
	//   selfdestruct 0x6ea65f16DcE8e13980e1BA3706A8d8b54731D3cc -> 0x00000000000000000000000000000000000bEEf2 250000000000000000 wei
	// block 5: 0 operation(s)
}

// Send a transaction and mine it, then read its internal operations.
func ExampleServer_Transact() {
	srv, err := evmtest.New(evmtest.WithoutScenario())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	from := evmtest.Accounts()[1]
	to := evmtest.Forwarder()
	data, _ := evmtest.ForwarderABI().Pack("forward", evmtest.Recipient())
	receipt, err := srv.Transact(ctx, from, &to, big.NewInt(1000), data)
	if err != nil {
		log.Fatal(err)
	}
	c, _ := srv.Client()
	ops, err := c.InternalOperations(ctx, receipt.TxHash)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("block", receipt.BlockNumber, ops[0].Type, ops[0].To == evmtest.Recipient(), ops[0].Value)
	// Output:
	// block 1 transfer true 1000
}

// Faults on demand: two 429 answers, then the call succeeds on its third
// attempt.
func ExampleServer_FailNext() {
	srv, err := evmtest.New(evmtest.WithoutScenario())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	attempts := 0
	c, _ := srv.Client(nodeaccess.WithHook(func(context.Context, nodeaccess.Attempt) { attempts++ }))
	srv.FailNext(2, nodeaccesstest.RateLimited(time.Second))
	code, err := c.Code(context.Background(), evmtest.Token(), evm.Latest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(code) > 0, "after", attempts, "attempts")
	// Output:
	// true after 3 attempts
}

// Move the chain's clock forward: an empty block an hour after the head.
func ExampleServer_AdjustTime() {
	srv, err := evmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	before, _ := srv.EthClient().HeaderByNumber(ctx, nil)
	if err := srv.AdjustTime(time.Hour); err != nil {
		log.Fatal(err)
	}
	after, _ := srv.EthClient().HeaderByNumber(ctx, nil)
	fmt.Println("block", after.Number, "is", after.Time-before.Time, "seconds after block", before.Number)
	// Output:
	// block 6 is 3600 seconds after block 5
}

// Take the chain back to a snapshot after a test changed it.
func ExampleServer_Revert() {
	srv, err := evmtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	snap := srv.Snapshot()
	from, to := evmtest.Accounts()[3], evmtest.Recipient()
	if _, err := srv.Transact(ctx, from, &to, big.NewInt(1000), nil); err != nil {
		log.Fatal(err)
	}
	balance := func() *big.Int {
		b, err := srv.EthClient().BalanceAt(ctx, evmtest.Recipient(), nil)
		if err != nil {
			log.Fatal(err)
		}
		return b
	}
	fmt.Println("after the transfer:", balance())
	if err := srv.Revert(snap); err != nil {
		log.Fatal(err)
	}
	fmt.Println("after Revert:", balance(), "at block", snap.Block())
	// Output:
	// after the transfer: 1500000000000001000
	// after Revert: 1500000000000000000 at block 5
}
