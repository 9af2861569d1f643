// Command quickstart calls the SDK's operations and prints their typed
// results.
//
//	go run ./examples/quickstart
//
// With no configuration it starts a local node in-process (go-ethereum's
// simulated backend serving JSON-RPC on 127.0.0.1, with a small contract in
// its genesis) and says so in its first line. To call a real node-access
// service instead, set:
//
//	NODEACCESS_EVM_URL   the EVM node's base URL (https://host), or the whole
//	                     endpoint with the key as its last path segment
//	NODEACCESS_EVM_KEY   the access key (leave unset when the URL carries it)
//	NODEACCESS_EVM_TO    the contract to eth_call (default: the local one)
//	NODEACCESS_EVM_DATA  the call data, hex (default: 0x, no call data)
//	NODEACCESS_EVM_TX    a transaction hash for ots_getInternalOperations
//
// The other chains (Hyperliquid, TON, the beacon state) join this program as
// their packages land.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"time"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	ep, stop, err := evmEndpoint(getenv)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintln(out, ep.describe)
	return runEVM(ctx, out, ep)
}
