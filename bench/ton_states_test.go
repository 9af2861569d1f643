package bench

import (
	"context"
	"encoding/binary"
	"math/big"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// Reading 10,000 TON account states (issue 21) from a local server that
// answers as today's v3 indexer does (tontest.WithIndexer: address
// repeated, at most 1,000 states a request, no paging), three ways:
//
//   - one-by-one: 10,000 AccountStates calls, one account each;
//   - many-per-request: one AccountStates call with the 10,000 accounts,
//     which the SDK sends as 10 requests of 1,000;
//   - walker: AllAccountStates with the 10,000 accounts (groups of 999,
//     each answered once and asked once more to learn that the server
//     does not page).
//
// Each way's client has a budget of its own (a rate no run reaches, so it
// never waits), whose Stats().Units counts the request units spent.
const tonStates = 10_000

// tonStatesServer starts the indexer-mode server with tonStates accounts,
// account i holding i nanotons, and returns it with the accounts.
func tonStatesServer(tb testing.TB) (*tontest.Server, []string) {
	tb.Helper()
	srv, err := tontest.New(tontest.WithIndexer(), tontest.WithoutDefaults())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	accounts := make([]string, tonStates)
	for i := range accounts {
		var a ton.Address // 0:000…0<i+1>
		binary.BigEndian.PutUint64(a.ID[24:], uint64(i+1))
		accounts[i] = a.Friendly(true, false).String()
		err := srv.SetAccountStates(a, ton.AccountState{Account: a, Status: ton.StatusActive,
			Balance: big.NewInt(int64(i)), LastTransactionLT: uint64(i + 1), Hash: ton.Hash{byte(i), byte(i >> 8)}})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return srv, accounts
}

// tonWay reads the states of accounts and returns them.
type tonWay struct {
	name string
	read func(ctx context.Context, c *ton.Client, accounts []string) ([]ton.AccountState, error)
}

var tonWays = []tonWay{
	{"one-by-one", func(ctx context.Context, c *ton.Client, accounts []string) ([]ton.AccountState, error) {
		out := make([]ton.AccountState, 0, len(accounts))
		for _, a := range accounts {
			p, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: []string{a}})
			if err != nil {
				return nil, err
			}
			out = append(out, p.States...)
		}
		return out, nil
	}},
	{"many-per-request", func(ctx context.Context, c *ton.Client, accounts []string) ([]ton.AccountState, error) {
		p, err := c.AccountStates(ctx, ton.AccountStatesQuery{Accounts: accounts})
		if err != nil {
			return nil, err
		}
		return p.States, nil
	}},
	{"walker", func(ctx context.Context, c *ton.Client, accounts []string) ([]ton.AccountState, error) {
		out := make([]ton.AccountState, 0, len(accounts))
		for s, err := range c.AllAccountStates(ctx, ton.AccountStatesQuery{Accounts: accounts}) {
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}},
}

// tonWayClient returns a client of srv on a budget of its own.
func tonWayClient(tb testing.TB, srv *tontest.Server) (*ton.Client, *nodeaccess.Budget) {
	tb.Helper()
	plan, err := nodeaccess.NewBudget(1e9, 1e6)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := srv.Client(nodeaccess.WithBudget(plan))
	if err != nil {
		tb.Fatal(err)
	}
	return c, plan
}

// checkStates fails unless states are the states of all accounts, each
// once, with its balance.
func checkStates(tb testing.TB, accounts []string, states []ton.AccountState) {
	tb.Helper()
	if len(states) != len(accounts) {
		tb.Fatalf("%d states, want %d", len(states), len(accounts))
	}
	want := make(map[ton.Address]int64, len(accounts))
	for i, a := range accounts {
		acct, err := ton.ParseAddress(a)
		if err != nil {
			tb.Fatal(err)
		}
		want[acct] = int64(i)
	}
	for _, s := range states {
		b, ok := want[s.Account]
		if !ok || s.Balance == nil || s.Balance.Int64() != b {
			tb.Fatalf("state of %s: balance %v (known %v, want %d)", s.Account, s.Balance, ok, b)
		}
		delete(want, s.Account)
	}
}

// TestTONAccountStatesWays checks the setup and the request units each way
// spends: 10,000 one by one, 10 many per request, 22 for the walker (11
// groups of at most 999 accounts, two requests each).
func TestTONAccountStatesWays(t *testing.T) {
	srv, accounts := tonStatesServer(t)
	want := map[string]int64{"one-by-one": tonStates, "many-per-request": 10, "walker": 22}
	for _, w := range tonWays {
		c, plan := tonWayClient(t, srv)
		n := srv.RequestCount()
		start := time.Now()
		states, err := w.read(context.Background(), c, accounts)
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		took := time.Since(start)
		checkStates(t, accounts, states)
		units := plan.Stats().Units
		if units != want[w.name] || int64(srv.RequestCount()-n) != units {
			t.Errorf("%s: %d units, %d requests; want %d", w.name, units, srv.RequestCount()-n, want[w.name])
		}
		t.Logf("%-16s %6d units %6d requests %v", w.name, units, srv.RequestCount()-n, took.Round(time.Millisecond))
	}
}

// BenchmarkTONAccountStates10000 reads the 10,000 states each way;
// units/op and requests/op are the request units and HTTP requests per
// 10,000 states.
func BenchmarkTONAccountStates10000(b *testing.B) {
	srv, accounts := tonStatesServer(b)
	for _, w := range tonWays {
		b.Run(w.name, func(b *testing.B) {
			c, plan := tonWayClient(b, srv)
			n := srv.RequestCount()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				states, err := w.read(context.Background(), c, accounts)
				if err != nil {
					b.Fatal(err)
				}
				if len(states) != tonStates {
					b.Fatalf("%d states", len(states))
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(plan.Stats().Units)/float64(b.N), "units/op")
			b.ReportMetric(float64(srv.RequestCount()-n)/float64(b.N), "requests/op")
			b.ReportMetric(float64(tonStates*b.N)/b.Elapsed().Seconds(), "states/s")
		})
	}
}
