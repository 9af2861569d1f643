// Command verified reads one proven balance with the evm/verified package
// alone.
package main

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/verified"
)

// anchor stands for a light client: it backs one block hash.
type anchor struct{}

func (anchor) ExecutionBlocks(context.Context) (common.Hash, common.Hash, error) {
	h := common.HexToHash("0x01")
	return h, h, nil
}

func main() {
	c, err := evm.New("https://node.example", "key")
	if err != nil {
		panic(err)
	}
	v, err := verified.New(c, anchor{})
	if err != nil {
		panic(err)
	}
	fmt.Println(v.Balance(context.Background(), common.HexToAddress("0x000000000000000000000000000000000000E020"), evm.Latest))
}
