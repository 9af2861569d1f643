// Command ton reads a block's transactions with the ton package alone.
package main

import (
	"context"
	"fmt"

	"github.com/nodeaccess/nodeaccess/ton"
)

func main() {
	c, err := ton.New("https://ton.example", "key")
	if err != nil {
		panic(err)
	}
	fmt.Println(c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: ton.MasterchainBlock(1)}))
}
