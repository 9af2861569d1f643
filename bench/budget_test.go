package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// The budget measurement (issue 13): a local provider enforces a plan of
// planRate units per second, and 64 goroutines mix eth_call at latest
// (1 unit), eth_call 1000 blocks back (2 units, archive), eth_call 10
// blocks back (1 unit) and TON accountStates (1 unit) for planSeconds, three
// ways: with one shared budget, without a budget (retries only), and with
// two budgets on the one plan (as two processes each with its own budget;
// here two sets of clients in one process). It takes over a minute, so it
// runs only with NODEACCESS_BENCH_BUDGET=1 (see README.md):
//
//	NODEACCESS_BENCH_BUDGET=1 go test -run TestBudgetPlan -v -count=1 .
const (
	planRate  = 200.0
	planBurst = 40
	benchHead = 1_000_000
)

// planCost prices a request as the provider does: eth_call 2 units when its
// block number is 128 or more behind the head, 1 otherwise; anything else 1.
func planCost(r nodeaccesstest.Request) int {
	var req struct {
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	if r.Method != http.MethodPost || json.Unmarshal(r.Body, &req) != nil || req.Method != "eth_call" || len(req.Params) < 2 {
		return 1
	}
	var tag string
	if json.Unmarshal(req.Params[1], &tag) != nil || len(tag) < 3 || tag[:2] != "0x" {
		return 1
	}
	n, err := strconv.ParseUint(tag[2:], 16, 64)
	if err == nil && n+128 <= benchHead {
		return 2
	}
	return 1
}

// serveEVM answers eth_blockNumber with benchHead and eth_call with 32 zero
// bytes.
func serveEVM(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	result := `"0x` + string(bytes.Repeat([]byte("0"), 64)) + `"`
	if req.Method == "eth_blockNumber" {
		result = `"0x` + strconv.FormatUint(benchHead, 16) + `"`
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
}

type planResult struct {
	name                     string
	served, rejected         int
	units                    int64
	rejectedAfterFirstSecond int
	seconds                  float64
	callsOK, callsFailed     int64
}

func runPlan(t *testing.T, name string, d time.Duration, budgets int) planResult {
	srv := tontest.NewT(t)
	srv.HandleFunc("POST /{key}/evm", serveEVM)
	srv.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: planRate, Burst: planBurst, Cost: planCost})
	type pair struct {
		e *evm.Client
		t *ton.Client
	}
	var pairs []pair
	for i := 0; i < max(1, budgets); i++ {
		opts := []nodeaccess.Option{nodeaccess.WithMaxRetryAfter(time.Minute)}
		if budgets > 0 {
			b, err := nodeaccess.NewBudget(planRate, planBurst/2)
			if err != nil {
				t.Fatal(err)
			}
			opts = append(opts, nodeaccess.WithBudget(b))
		}
		e, err := evm.New(srv.URL, srv.Key(), append(opts, evm.WithPathSuffix("evm"))...)
		if err != nil {
			t.Fatal(err)
		}
		tc, err := srv.Client(opts...)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{e, tc})
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	to := evm.CallMsg{To: [20]byte{1}}
	var mu sync.Mutex
	var ok, failed int64
	var firstSecond nodeaccesstest.PlanStats
	time.AfterFunc(time.Second, func() { firstSecond = srv.PlanStats() })
	start := time.Now()
	var wg sync.WaitGroup
	for g := 0; g < 64; g++ {
		p := pairs[g%len(pairs)]
		wg.Go(func() {
			for i := g; ctx.Err() == nil; i++ {
				var err error
				switch i % 4 {
				case 0:
					_, err = p.e.Call(ctx, to, evm.Latest)
				case 1:
					_, err = p.e.Call(ctx, to, evm.BlockNumber(benchHead-1000))
				case 2:
					_, err = p.e.Call(ctx, to, evm.BlockNumber(benchHead-10))
				default:
					_, err = p.t.AccountStates(ctx, ton.AccountStatesQuery{Account: tontest.DefaultAccount})
				}
				if errors.Is(err, context.DeadlineExceeded) {
					return // the run ends: the budget has no units before it
				}
				mu.Lock()
				switch {
				case err == nil:
					ok++
				case ctx.Err() == nil:
					failed++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	st := srv.PlanStats()
	return planResult{name: name, served: st.Served, rejected: st.Rejected, units: st.Units,
		rejectedAfterFirstSecond: st.Rejected - firstSecond.Rejected, seconds: time.Since(start).Seconds(),
		callsOK: ok, callsFailed: failed}
}

func TestBudgetPlan(t *testing.T) {
	if os.Getenv("NODEACCESS_BENCH_BUDGET") == "" {
		t.Skip("set NODEACCESS_BENCH_BUDGET=1 to run the budget measurement (over a minute)")
	}
	d := 20 * time.Second
	if v := os.Getenv("NODEACCESS_BENCH_BUDGET_SECONDS"); v != "" {
		s, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		d = time.Duration(s) * time.Second
	}
	results := []planResult{
		runPlan(t, "one budget", d, 1),
		runPlan(t, "no budget (retries only)", d, 0),
		runPlan(t, "two budgets, one plan", d, 2),
	}
	t.Logf("plan: %g units/s, bucket %d; 64 goroutines, %s each", planRate, planBurst, d)
	t.Logf("%-26s %9s %8s %8s %12s %10s %8s", "", "units/s", "% of R", "429s", "429s>1st s", "429 share", "failed")
	for _, r := range results {
		attempts := r.served + r.rejected
		t.Logf("%-26s %9.1f %7.1f%% %8d %12d %9.2f%% %8d", r.name, float64(r.units)/r.seconds,
			100*float64(r.units)/r.seconds/planRate, r.rejected, r.rejectedAfterFirstSecond,
			100*float64(r.rejected)/float64(max(1, attempts)), r.callsFailed)
	}
}
