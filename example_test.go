package nodeaccess_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// Tell the failures apart with errors.Is and errors.As.
func ExampleHTTPError() {
	// A node that is out of request units.
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		http.Error(w, "request units exhausted", http.StatusTooManyRequests)
	}))
	defer node.Close()

	c, err := evm.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Call(context.Background(), evm.CallMsg{To: common.HexToAddress("0x01")}, evm.Latest)

	fmt.Println(errors.Is(err, nodeaccess.ErrRateLimited))
	var he *nodeaccess.HTTPError
	if errors.As(err, &he) {
		// 120 s is over the 30 s the client waits by default, so it gave up
		// at once and says how long the server asked for.
		fmt.Println(he.StatusCode, he.RetryAfter)
	}
	var oe *nodeaccess.OpError
	if errors.As(err, &oe) {
		fmt.Println(oe.Chain, oe.Op)
	}
	// Output:
	// true
	// 429 2m0s
	// evm eth_call
}

// Watch every HTTP attempt, for metrics or tracing. The hook gets the
// caller's context, so it can tie an attempt to the caller's trace (here a
// request id). The URL in the payload has the key masked.
func ExampleWithHook() {
	calls := 0
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":"0x"}`)
	}))
	defer node.Close()

	type requestID struct{}
	hook := func(ctx context.Context, a nodeaccess.Attempt) {
		fmt.Printf("%v: %s %s attempt %d: status %d, retry %v\n", ctx.Value(requestID{}), a.Chain, a.Op, a.Number, a.StatusCode, a.WillRetry)
	}
	c, err := evm.New(node.URL, "YOUR-ACCESS-KEY",
		nodeaccess.WithHook(hook),
		nodeaccess.WithBackoff(time.Millisecond, 10*time.Millisecond))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.WithValue(context.Background(), requestID{}, "req-7")
	out, err := c.Call(ctx, evm.CallMsg{To: common.HexToAddress("0x01")}, evm.Latest)
	fmt.Println(len(out), err)
	// Output:
	// req-7: evm eth_call attempt 1: status 503, retry true
	// req-7: evm eth_call attempt 2: status 200, retry false
	// 0 <nil>
}

// Bad input is rejected before anything is sent, with an error that names
// the argument.
func ExampleInputError() {
	c, err := evm.New("https://eth.node.example", "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Call(context.Background(), evm.CallMsg{To: common.HexToAddress("0x01"), Value: big.NewInt(-1)}, evm.Latest)
	fmt.Println(err)
	fmt.Println(errors.Is(err, nodeaccess.ErrInvalidInput))
	// Output:
	// evm: eth_call: invalid input: value: negative amount -1
	// true
}

// One budget spends one plan for clients of two chains: every attempt waits
// for its request units first, and a 429 slows the budget down for all.
func ExampleNewBudget() {
	plan, err := nodeaccess.NewBudget(50, 10) // 50 units per second, bursts of 10
	if err != nil {
		log.Fatal(err)
	}
	tonSrv, err := tontest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer tonSrv.Close()
	hyperSrv, err := hypertest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer hyperSrv.Close()
	tc, err := tonSrv.Client(nodeaccess.WithBudget(plan))
	if err != nil {
		log.Fatal(err)
	}
	hc, err := hyperSrv.Client(nodeaccess.WithBudget(plan))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, err := tc.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount().String()}}); err != nil {
			log.Fatal(err)
		}
		if _, err := hc.UserVaultEquities(ctx, hypertest.DefaultUser()); err != nil {
			log.Fatal(err)
		}
	}
	st := plan.Stats()
	fmt.Printf("%d units in %d waits, %d answers 429\n", st.Units, st.Waits, st.Throttled)
	// Output: 6 units in 6 waits, 0 answers 429
}
