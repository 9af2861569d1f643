// Command beacon reads a beacon state with the beacon package alone.
package main

import (
	"context"
	"fmt"

	"github.com/nodeaccess/nodeaccess/beacon"
)

func main() {
	c, err := beacon.New("https://beacon.example", "key")
	if err != nil {
		panic(err)
	}
	st, _, err := c.State(context.Background(), beacon.Finalized, beacon.StateOptions{})
	fmt.Println(st, err)
}
