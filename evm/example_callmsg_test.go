package evm_test

import (
	"context"
	"fmt"
	"log"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
)

// A CallMsg sends every field that is set: here a contract creation (no To;
// Data is init code that returns the word 42) with EIP-1559 fees, run on a
// local go-ethereum EVM. A message that mixes a legacy gas price with
// EIP-1559 fees is refused before anything is sent.
func ExampleCallMsg() {
	srv, err := evmtest.New(evmtest.WithoutScenario())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	out, err := c.Call(ctx, evm.CallMsg{
		From:                 evmtest.Holder(),
		Create:               true,
		Data:                 common.FromHex("0x602a60005260206000f3"),
		MaxFeePerGas:         big.NewInt(30_000_000_000),
		MaxPriorityFeePerGas: big.NewInt(1_000_000_000),
	}, evm.Latest)
	fmt.Println(new(big.Int).SetBytes(out), err)

	_, err = c.Call(ctx, evm.CallMsg{To: evmtest.Holder(), GasPrice: big.NewInt(1), MaxFeePerGas: big.NewInt(2)}, evm.Latest)
	fmt.Println(err)
	// Output:
	// 42 <nil>
	// evm: eth_call: invalid input: gasPrice: set together with maxFeePerGas or maxPriorityFeePerGas: give a legacy gas price or EIP-1559 fees, not both
}

// A call with overrides runs on changed state and a changed block: here
// code that returns NUMBER and TIMESTAMP is put at an empty address for the
// one call, and the block's number and time are replaced.
func ExampleCallMsg_overrides() {
	srv, err := evmtest.New(evmtest.WithoutScenario())
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	probe := common.HexToAddress("0x00000000000000000000000000000000000c0de0")
	when := uint64(1_900_000_000)
	out, err := c.Call(context.Background(), evm.CallMsg{
		To: probe,
		// NUMBER MSTORE(0); TIMESTAMP MSTORE(32); RETURN(0, 64)
		StateOverride: evm.StateOverride{probe: {Code: common.FromHex("0x436000524260205260406000f3")}},
		BlockOverride: &evm.BlockOverride{Number: big.NewInt(20_000_000), Time: &when},
	}, evm.Latest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(new(big.Int).SetBytes(out[:32]), new(big.Int).SetBytes(out[32:]))
	// Output:
	// 20000000 1900000000
}
