package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With no environment the example shares one budget between a local TON
// and a local Hyperliquid server, each enforcing the plan: every call is
// charged, none is refused, and the rate is the plan's.
func TestLocal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	env := map[string]string{"NODEACCESS_UNITS_PER_SECOND": "100"}
	start := time.Now()
	require.NoError(t, run(ctx, &out, func(k string) string { return env[k] }))
	elapsed := time.Since(start)
	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 4, out.String())
	assert.Equal(t, "No NODEACCESS_TON_URL or NODEACCESS_HYPER_URL set: using local servers that enforce a plan of 100 units per second.", lines[0])
	assert.Equal(t, "120 calls on two chains, 120 request units, 0 answers 429.", lines[1])
	assert.Regexp(t, `^The plan allows 100 units per second; spent \d+ per second over \d+\.\d s\.$`, lines[2])
	// 120 units, 10 at once and then 100 per second: 1.1 s at the least.
	assert.GreaterOrEqual(t, elapsed, 1100*time.Millisecond)
	spent, err := strconv.Atoi(strings.Fields(lines[2])[8])
	require.NoError(t, err)
	assert.LessOrEqual(t, spent, 110)
}

func TestEnvironmentRefused(t *testing.T) {
	for env, want := range map[[2]string]string{
		{"NODEACCESS_UNITS_PER_SECOND", "0"}:          `NODEACCESS_UNITS_PER_SECOND: "0" is not a positive number`,
		{"NODEACCESS_UNITS_PER_SECOND", "x"}:          `NODEACCESS_UNITS_PER_SECOND: "x" is not a positive number`,
		{"NODEACCESS_TON_URL", "https://ton.example"}: "set both NODEACCESS_TON_URL and NODEACCESS_HYPER_URL, or neither",
	} {
		err := run(context.Background(), &bytes.Buffer{}, func(k string) string {
			if k == env[0] {
				return env[1]
			}
			return ""
		})
		require.EqualError(t, err, want)
	}
}
