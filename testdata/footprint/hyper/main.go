// Command hyper reads /info with the hyper package alone.
package main

import (
	"context"
	"fmt"

	"github.com/nodeaccess/nodeaccess/hyper"
)

func main() {
	c, err := hyper.New("https://node.example", "key")
	if err != nil {
		panic(err)
	}
	var out any
	fmt.Println(c.Info(context.Background(), &out, map[string]string{"type": "meta"}))
}
