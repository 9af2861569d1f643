package evm_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// Simulate a token transfer before sending it: the transfer runs in one
// simulated block, a balance read in the next sees it, and a transfer of
// more than the sender holds reverts with its reason, without failing the
// rest. Nothing changes on the chain.
func ExampleClient_SimulateV1() {
	srv, err := evmtest.New(evmtest.WithoutScenario()) // a local chain; your provider in real use
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client() // evm.New(baseURL, key) in real use
	if err != nil {
		log.Fatal(err)
	}

	from := evmtest.Accounts()[0].Address
	to := common.HexToAddress("0x000000000000000000000000000000000000beef")
	word := func(v *big.Int) []byte { return common.LeftPadBytes(v.Bytes(), 32) }
	// transfer(address,uint256) and balanceOf(address), ABI-encoded.
	transfer := func(amount int64) []byte {
		return append(append(common.FromHex("0xa9059cbb"), word(new(big.Int).SetBytes(to[:]))...), word(big.NewInt(amount))...)
	}
	balanceOf := append(common.FromHex("0x70a08231"), word(new(big.Int).SetBytes(to[:]))...)

	blocks, err := c.SimulateV1(context.Background(), evm.Simulation{Blocks: []evm.SimBlock{
		{Calls: []evm.CallMsg{
			{From: from, To: evmtest.Token(), Data: transfer(1_000)},
			{From: from, To: evmtest.Token(), Data: transfer(1 << 60)},
		}},
		{Calls: []evm.CallMsg{{To: evmtest.Token(), Data: balanceOf}}},
	}}, evm.Latest)
	if err != nil {
		log.Fatal(err)
	}
	ok := blocks[0].Calls[0]
	fmt.Println("transfer:", ok.Success, "logs:", len(ok.Logs), "gas used > 21000:", ok.GasUsed > 21_000)
	var rev *evm.RevertError
	if errors.As(blocks[0].Calls[1].Err, &rev) {
		fmt.Println("too much:", rev.Reason)
	}
	fmt.Println("balance in the next block:", new(big.Int).SetBytes(blocks[1].Calls[0].ReturnData))
	// Output:
	// transfer: true logs: 1 gas used > 21000: true
	// too much: LUSD: insufficient balance
	// balance in the next block: 1000
}
