package evm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess/evm"
)

// fakeBatchNode stands in for a provider's EVM node that answers JSON-RPC
// batches, last call first: balanceOf(holder) returns the holder's last
// byte in USDC, any other eth_call reverts with "paused", and eth_getCode
// returns two bytes of code.
func fakeBatchNode() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var reqs []struct {
			ID     json.RawMessage   `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		_ = json.NewDecoder(r.Body).Decode(&reqs)
		var answers []string
		for i := len(reqs) - 1; i >= 0; i-- {
			q, call := reqs[i], string(reqs[i].Params[0])
			var a string
			switch {
			case q.Method == "eth_getCode":
				a = `"result":"0x6001"`
			case strings.Contains(call, `"data":"0x70a08231`):
				last := call[strings.Index(call, `"data":"`)+8+72:][:2] // the holder's last byte
				a = `"result":"0x` + strings.Repeat("0", 58) + last + `0000"`
			default:
				a = `"error":{"code":3,"message":"execution reverted: paused","data":"0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000067061757365640000000000000000000000000000000000000000000000000000"}`
			}
			answers = append(answers, `{"jsonrpc":"2.0","id":`+string(q.ID)+`,`+a+`}`)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "["+strings.Join(answers, ",")+"]")
	}))
}

// Read many balances and a contract's code in one HTTP request; each call
// keeps its own result or error.
func ExampleClient_SendBatch() {
	node := fakeBatchNode() // your provider's base URL in real use
	defer node.Close()
	c, err := evm.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	usdc := common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")

	var b evm.Batch
	holders := []common.Address{common.HexToAddress("0x01"), common.HexToAddress("0x02"), common.HexToAddress("0x03")}
	balances := make([]*evm.BatchResult[[]byte], len(holders))
	for i, h := range holders {
		data := append(common.FromHex("0x70a08231"), common.LeftPadBytes(h[:], 32)...)
		balances[i] = b.Call(evm.CallMsg{To: usdc, Data: data}, evm.Latest)
	}
	transfer := b.Call(evm.CallMsg{To: usdc, Data: common.FromHex("0xa9059cbb")}, evm.Latest)
	code := evm.Add[hexutil.Bytes](&b, "eth_getCode", usdc, evm.Latest)
	if err := c.SendBatch(context.Background(), &b); err != nil {
		log.Fatal(err) // bad input in some call: nothing was sent
	}

	for i, r := range balances {
		out, err := r.Result()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("holder %d: %s raw units\n", i+1, new(big.Int).SetBytes(out))
	}
	var rev *evm.RevertError
	if _, err := transfer.Result(); errors.As(err, &rev) {
		fmt.Println("transfer reverted:", rev.Reason)
	}
	runtime, err := code.Result()
	fmt.Printf("code: %s %v\n", runtime, err) // hexutil.Bytes prints as 0x-hex
	// Output:
	// holder 1: 65536 raw units
	// holder 2: 131072 raw units
	// holder 3: 196608 raw units
	// transfer reverted: paused
	// code: 0x6001 <nil>
}
