// Command hypercore reads a HyperCore precompile with the hyper/hypercore
// package.
package main

import (
	"context"
	"fmt"

	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
)

func main() {
	c, err := hypercore.New("https://node.example", "key")
	if err != nil {
		panic(err)
	}
	var b evm.Batch
	r := hypercore.Reads(&b).L1BlockNumber()
	fmt.Println(c.SendBatch(context.Background(), &b))
	fmt.Println(r.Result())
}
