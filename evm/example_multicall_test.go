package evm_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// Read the token balances of many holders in one request, with Multicall3.
// A call that reverts (here: the token has no function 0x12345678) is a
// result with Success false and its revert decoded, and does not fail the
// others.
func ExampleClient_Multicall() {
	srv, err := evmtest.New(evmtest.WithoutScenario()) // a local chain; your provider in real use
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client() // evm.New(baseURL, key) in real use
	if err != nil {
		log.Fatal(err)
	}

	var calls []evm.Call3
	var holders []common.Address
	for _, a := range evmtest.Accounts()[:3] {
		// balanceOf(address): selector 0x70a08231 and the address padded to 32 bytes.
		data := append(common.FromHex("0x70a08231"), common.LeftPadBytes(a.Address[:], 32)...)
		calls = append(calls, evm.Call3{Target: evmtest.Token(), Data: data, AllowFailure: true})
		holders = append(holders, a.Address)
	}
	calls = append(calls, evm.Call3{Target: evmtest.Token(), Data: common.FromHex("0x12345678"), AllowFailure: true})

	res, err := c.Multicall(context.Background(), calls, evm.Latest, evm.MulticallOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for i, r := range res {
		switch {
		case !r.Success:
			fmt.Printf("call %d failed: %v\n", i, r.Revert)
		default:
			fmt.Printf("%s: %s\n", holders[i].Hex()[:10], common.BytesToHash(r.ReturnData).Big())
		}
	}
	// Output:
	// 0x9E477782: 1234567891
	// 0xaC780De4: 500000000
	// 0x1E4c273A: 1
	// call 3 failed: execution reverted
}
