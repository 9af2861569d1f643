package evm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// fakeNode stands in for a provider's EVM node in these examples: it answers
// balanceOf with 1234.5 USDC (6 decimals), reverts any other call with a
// reason, and lists two internal operations for any transaction.
func fakeNode() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage   `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case req.Method == "eth_call" && strings.Contains(string(req.Params[0]), `"data":"0x70a08231`):
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"0x000000000000000000000000000000000000000000000000000000004994f9a0"}`, req.ID)
		case req.Method == "eth_call":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":3,"message":"execution reverted: paused","data":"0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000067061757365640000000000000000000000000000000000000000000000000000"}}`, req.ID)
		case req.Method == "ots_getInternalOperations":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":[{"type":0,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","value":"0xde0b6b3a7640000"},{"type":3,"from":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","to":"0x5fbdb2315678afecb367f032d93f642f64180aa3","value":"0x0"}]}`, req.ID)
		}
	}))
}

// Read an ERC-20 balance with eth_call.
func ExampleClient_Call() {
	node := fakeNode() // your provider's base URL in real use
	defer node.Close()

	c, err := evm.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	usdc := common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
	holder := common.HexToAddress("0x00000000219ab540356cBB839Cbe05303d7705Fa")
	// balanceOf(address): selector 0x70a08231 and the address padded to 32 bytes.
	data := append(common.FromHex("0x70a08231"), common.LeftPadBytes(holder[:], 32)...)

	out, err := c.Call(context.Background(), evm.CallMsg{To: usdc, Data: data}, evm.Finalized)
	if err != nil {
		log.Fatal(err)
	}
	balance := new(big.Int).SetBytes(out)
	fmt.Println("raw:", balance)
	fmt.Println("USDC:", new(big.Rat).SetFrac(balance, big.NewInt(1e6)).FloatString(6))
	// Output:
	// raw: 1234500000
	// USDC: 1234.500000
}

// A reverted call is a *evm.RevertError with the decoded reason.
func ExampleRevertError() {
	node := fakeNode()
	defer node.Close()
	c, err := evm.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}

	_, err = c.Call(context.Background(), evm.CallMsg{
		To:   common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
		Data: common.FromHex("0xa9059cbb"),
	}, evm.Latest)

	var rev *evm.RevertError
	if errors.As(err, &rev) {
		fmt.Println("reverted:", rev.Reason)
	}
	fmt.Println(errors.Is(err, evm.ErrReverted))
	fmt.Println(err)
	// Output:
	// reverted: paused
	// true
	// evm: eth_call: execution reverted: "paused"
}

// List the value transfers and contract creations inside a transaction.
func ExampleClient_InternalOperations() {
	node := fakeNode()
	defer node.Close()
	c, err := evm.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}

	tx := common.HexToHash("0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060")
	ops, err := c.InternalOperations(context.Background(), tx)
	if err != nil {
		log.Fatal(err)
	}
	for _, op := range ops {
		fmt.Printf("%-8s %s -> %s %s wei\n", op.Type, op.From.Hex()[:10], op.To.Hex()[:10], op.Value)
	}
	// Output:
	// transfer 0x00000000 -> 0xA0b86991 1000000000000000000 wei
	// create2  0xA0b86991 -> 0x5FbDB231 0 wei
}

// Options shape retries, timeouts and the HTTP stack; the client's String
// never shows the key.
func ExampleNew() {
	c, err := evm.New("https://eth.node.example", "YOUR-ACCESS-KEY",
		nodeaccess.WithMaxAttempts(5),
		nodeaccess.WithTimeout(10_000_000_000), // 10 s per attempt
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)

	_, err = evm.New("ftp://eth.node.example", "YOUR-ACCESS-KEY")
	fmt.Println(err)
	// Output:
	// evm.Client{https://eth.node.example/REDACTED}
	// evm: invalid input: baseURL: base URL "ftp://eth.node.example": scheme must be http or https
}

// A whole endpoint URL as providers show it, in one of the two shapes
// NewFromURL takes. Any other path is refused without a guess at the key,
// and the refusal quotes no part of the URL.
func ExampleNewFromURL() {
	c, err := evm.NewFromURL("https://eth.node.example/YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)
	c, err = evm.NewFromURL("https://hyperliquid.node.example/YOUR-ACCESS-KEY/evm")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)

	_, err = evm.NewFromURL("https://eth.node.example/v2/YOUR-ACCESS-KEY")
	fmt.Println(errors.Is(err, nodeaccess.ErrInvalidInput))
	fmt.Println(err)
	// Output:
	// evm.Client{https://eth.node.example/REDACTED}
	// evm.Client{https://hyperliquid.node.example/REDACTED/evm}
	// true
	// evm: invalid input: endpoint: the endpoint URL's path is not a form evm.NewFromURL takes (https://host/<KEY>, https://host/<KEY>/evm, with no other path segment); for a base URL with a path of its own, use evm.New(baseURL, key)
}

// Parse a block selector as a user types it.
func ExampleParseBlock() {
	for _, s := range []string{"finalized", "19000000", "0x121eac0", "-1"} {
		b, err := evm.ParseBlock(s)
		fmt.Println(b, err)
	}
	// Output:
	// finalized <nil>
	// 19000000 <nil>
	// 19000000 <nil>
	// <nil> invalid input: block: negative block number "-1"
}
