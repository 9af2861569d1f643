// Command evm sends one eth_call with the evm package alone.
package main

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
)

func main() {
	c, err := evm.New("https://node.example", "key")
	if err != nil {
		panic(err)
	}
	to := common.HexToAddress("0x000000000000000000000000000000000000E020")
	fmt.Println(c.Call(context.Background(), evm.CallMsg{To: to}, evm.Latest))
}
