// Package redisbudget is a nodeaccess.Limiter shared by many processes and
// machines through Redis: the budget of one request-unit plan for a fleet
// of indexers. It is an example in a module of its own, so that the SDK's
// module does not depend on Redis.
//
// Units are spent with go-redis's redis_rate, a GCRA (generic cell rate
// algorithm) run atomically in Redis: every process asks Redis for its
// units, so the fleet together keeps to the plan's rate. A 429 that one
// process sees sets a pause key in Redis for the Retry-After the provider
// asked for, and every process waits it out before spending again.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	plan, err := redisbudget.New(rdb, "plan:acme", 50, 10) // 50 units/s, bursts of 10
//	if err != nil { … }
//	c, err := evm.New(url, key, nodeaccess.WithBudget(plan))
package redisbudget

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Budget is a nodeaccess.Limiter whose state lives in Redis under the key
// name (and name+":pause").
type Budget struct {
	rdb   *redis.Client
	lim   *redis_rate.Limiter
	name  string
	limit redis_rate.Limit
}

// New returns the budget of unitsPerSecond units per second with bursts of
// burst units, kept in Redis under name. Every process that shares the plan
// makes its Budget with the same name, rate and burst.
func New(rdb *redis.Client, name string, unitsPerSecond, burst int) (*Budget, error) {
	if unitsPerSecond < 1 || burst < 1 || name == "" {
		return nil, fmt.Errorf("redisbudget: need a name, a rate and a burst of at least 1 (got %q, %d, %d)", name, unitsPerSecond, burst)
	}
	return &Budget{rdb: rdb, lim: redis_rate.NewLimiter(rdb), name: name,
		limit: redis_rate.Limit{Rate: unitsPerSecond, Burst: burst, Period: time.Second}}, nil
}

// Wait waits until Redis grants units (at most the burst), after any pause
// a 429 set; it returns ctx's error when ctx ends first.
func (b *Budget) Wait(ctx context.Context, units int) error {
	units = min(units, b.limit.Burst)
	if units <= 0 {
		return nil
	}
	for {
		pause, err := b.rdb.PTTL(ctx, b.name+":pause").Result()
		if err != nil {
			return b.fail(ctx, err)
		}
		if pause > 0 {
			if err := sleep(ctx, pause); err != nil {
				return err
			}
			continue
		}
		res, err := b.lim.AllowN(ctx, b.name, b.limit, units)
		if err != nil {
			return b.fail(ctx, err)
		}
		if res.Allowed >= units {
			return nil
		}
		if err := sleep(ctx, res.RetryAfter); err != nil {
			return err
		}
	}
}

// Throttled makes every process that shares the budget wait retryAfter (at
// least a second when the provider gave none) before it spends again.
func (b *Budget) Throttled(retryAfter time.Duration) {
	retryAfter = max(retryAfter, time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	// Only lengthen a pause another process set: a shorter one is no news.
	cur, err := b.rdb.PTTL(ctx, b.name+":pause").Result()
	if err == nil && cur >= retryAfter {
		return
	}
	_ = b.rdb.Set(ctx, b.name+":pause", 1, retryAfter).Err()
}

func (b *Budget) fail(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("redisbudget: %w", err)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
