// Command budget shares one request-unit budget between two chain clients,
// as an indexer that reads TON and Hyperliquid on one node-access plan
// does: 8 goroutines make 60 calls on each chain, every call waits for its
// units (1 for each of these operations) before it is sent, and the plan is
// never exceeded.
//
//	go run ./examples/budget
//
// With no configuration it starts a local TON server and a local
// Hyperliquid server in-process (ton/tontest, hyper/hypertest), each
// enforcing the plan (nodeaccesstest.Plan), and says so in its first line.
// To run it against a real node-access plan, set:
//
//	NODEACCESS_TON_URL, NODEACCESS_TON_KEY      the TON endpoint and its key
//	NODEACCESS_HYPER_URL, NODEACCESS_HYPER_KEY  the Hyperliquid node and its key
//	NODEACCESS_UNITS_PER_SECOND                 the plan's rate (default 50)
//
// (both endpoints, or neither). It asks TON for the account states of
// tontest.DefaultAccount, a testnet account, and Hyperliquid for the vault
// equities of hypertest.DefaultUser().
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// callsPerChain is how many calls the program makes on each chain.
const callsPerChain = 60

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	rate := 50.0
	if v := getenv("NODEACCESS_UNITS_PER_SECOND"); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r > 0) {
			return fmt.Errorf("NODEACCESS_UNITS_PER_SECOND: %q is not a positive number", v)
		}
		rate = r
	}
	// One budget for the plan: the plan's rate, and a burst of a tenth of a
	// second's worth, well below the provider's bucket.
	budget, err := nodeaccess.NewBudget(rate, max(1, int(rate/10)))
	if err != nil {
		return err
	}
	var refused atomic.Int64
	// The settings both clients share: one slice, spread into each New.
	common := []nodeaccess.Option{
		nodeaccess.WithBudget(budget),
		nodeaccess.WithHook(func(_ context.Context, a nodeaccess.Attempt) {
			if a.StatusCode == 429 {
				refused.Add(1)
			}
		}),
	}
	tc, hc, stop, err := clients(getenv, out, rate, common)
	if err != nil {
		return err
	}
	defer stop()

	start := time.Now()
	calls := make(chan func() error, 2*callsPerChain)
	for i := 0; i < callsPerChain; i++ {
		calls <- func() error {
			_, err := tc.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount}})
			return err
		}
		calls <- func() error {
			_, err := hc.UserVaultEquities(ctx, hypertest.DefaultUser())
			return err
		}
	}
	close(calls)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			for call := range calls {
				if err := call(); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	elapsed := time.Since(start)
	s := budget.Stats()
	fmt.Fprintf(out, "%d calls on two chains, %d request units, %d answers 429.\n", 2*callsPerChain, s.Units, refused.Load())
	fmt.Fprintf(out, "The plan allows %g units per second; spent %.0f per second over %.1f s.\n",
		rate, float64(s.Units)/elapsed.Seconds(), elapsed.Seconds())
	return nil
}

// clients returns the two clients: real endpoints from the environment, or
// local servers that enforce the plan.
func clients(getenv func(string) string, out io.Writer, rate float64, common []nodeaccess.Option) (*ton.Client, *hyper.Client, func(), error) {
	tonURL, hyperURL := getenv("NODEACCESS_TON_URL"), getenv("NODEACCESS_HYPER_URL")
	if tonURL != "" || hyperURL != "" {
		if tonURL == "" || hyperURL == "" {
			return nil, nil, nil, errors.New("set both NODEACCESS_TON_URL and NODEACCESS_HYPER_URL, or neither")
		}
		tc, err := ton.New(tonURL, getenv("NODEACCESS_TON_KEY"), common...)
		if err != nil {
			return nil, nil, nil, err
		}
		hc, err := hyper.New(hyperURL, getenv("NODEACCESS_HYPER_KEY"), common...)
		if err != nil {
			return nil, nil, nil, err
		}
		return tc, hc, func() {}, nil
	}
	ts, err := tontest.New()
	if err != nil {
		return nil, nil, nil, err
	}
	hs, err := hypertest.New()
	if err != nil {
		ts.Close()
		return nil, nil, nil, err
	}
	stop := func() { ts.Close(); hs.Close() }
	// The local servers each enforce the whole plan: the shared budget
	// keeps the two chains' sum within it, so neither refuses a call.
	plan := nodeaccesstest.Plan{UnitsPerSecond: rate}
	ts.EnforcePlan(plan)
	hs.EnforcePlan(plan)
	fmt.Fprintf(out, "No NODEACCESS_TON_URL or NODEACCESS_HYPER_URL set: using local servers that enforce a plan of %g units per second.\n", rate)
	tc, err := ts.Client(common...)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	hc, err := hs.Client(common...)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return tc, hc, stop, nil
}
