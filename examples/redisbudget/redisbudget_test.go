package redisbudget

import (
	"context"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/redis/go-redis/v9"
)

var _ nodeaccess.Limiter = (*Budget)(nil)

// startRedis runs a real redis-server (Debian's redis-server package) on a
// free port for the test, without persistence.
func startRedis(t *testing.T) *redis.Client {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("SKIPPED: redis-server is not installed; these tests prove nothing without it " +
			"(CI installs it: apt-get install redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port)})
	t.Cleanup(func() { rdb.Close() })
	for i := 0; ; i++ {
		if rdb.Ping(context.Background()).Err() == nil {
			return rdb
		}
		if i == 100 {
			t.Fatal("redis-server did not answer")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTwoProcessesOnePlan: two budgets on one Redis key (two processes of a
// fleet), each with its own client and 8 goroutines, keep together to the
// plan a server enforces: no request is refused.
func TestTwoProcessesOnePlan(t *testing.T) {
	rdb := startRedis(t)
	srv := tontest.NewT(t)
	srv.EnforcePlan(nodeaccesstest.Plan{UnitsPerSecond: 100, Burst: 30})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for p := 0; p < 2; p++ {
		b, err := New(rdb, "plan:test", 90, 2)
		if err != nil {
			t.Fatal(err)
		}
		c, err := srv.Client(nodeaccess.WithBudget(b), nodeaccess.WithMaxAttempts(1))
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < 8; g++ {
			wg.Go(func() {
				for ctx.Err() == nil {
					_, _ = c.PendingTransactions(ctx, ton.PendingTransactionsQuery{Accounts: []string{tontest.DefaultAccount}})
				}
			})
		}
	}
	wg.Wait()
	st := srv.PlanStats()
	if st.Rejected != 0 {
		t.Errorf("the plan refused %d requests", st.Rejected)
	}
	// 2 at once and 90 per second for 1 s, shared by both: about 92.
	if st.Served < 70 || st.Served > 100 {
		t.Errorf("served %d requests in 1 s, want about 92 (the shared rate)", st.Served)
	}
}

// TestThrottledPausesEveryProcess: a 429 one process reports holds the
// other for the Retry-After; a context that ends while waiting ends Wait
// with its error.
func TestThrottledPausesEveryProcess(t *testing.T) {
	rdb := startRedis(t)
	a, err := New(rdb, "plan:pause", 1000, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(rdb, "plan:pause", 1000, 10)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now() // before the pause is set: it ends 1.5 s after this at the earliest
	a.Throttled(1500 * time.Millisecond)
	if err := b.Wait(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 1400*time.Millisecond {
		t.Errorf("the other process went after %s, before the Retry-After", d)
	}
	a.Throttled(time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := b.Wait(ctx, 1); err != context.DeadlineExceeded {
		t.Errorf("Wait = %v, want context.DeadlineExceeded", err)
	}
	if _, err := New(rdb, "", 1, 1); err == nil {
		t.Error("New accepted an empty name")
	}
}
