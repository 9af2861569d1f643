// Command nodeaccess shares a request-unit budget with the root package
// alone.
package main

import (
	"context"
	"fmt"

	"github.com/nodeaccess/nodeaccess"
)

func main() {
	b, err := nodeaccess.NewBudget(10, 10)
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Wait(context.Background(), 1), b.Stats())
}
