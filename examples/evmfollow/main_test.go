package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// With no environment the example follows the local node's transfers,
// stops after three, resumes from its cursor with the fourth, and prints
// the removals of the reorganisation, then the new branch's transfers.
func TestLocal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, env(nil)))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Regexp(t, `^No NODEACCESS_EVM_URL set: following LUSD's transfers on a local EVM node at http://127\.0\.0\.1:\d+ \(key REDACTED\)\.$`, lines[0])
	require.Equal(t, []string{
		"  block 1: transfer of 1500000 units from 0x9E47…27F9 to 0xaC78…63c2",
		"  block 2: transfer of 3000000 units from 0x9E47…27F9 to 0x1E4c…F598",
		"  block 3: transfer of 4500000 units from 0x9E47…27F9 to 0x17eb…727A",
		"Stopped; resuming from cursor block 3, log 1.",
		"  block 4: transfer of 6000000 units from 0x9E47…27F9 to 0xaC78…63c2",
		"  block 5: transfer of 7500000 units from 0x9E47…27F9 to 0x1E4c…F598",
		"  block 6: transfer of 9000000 units from 0x9E47…27F9 to 0x17eb…727A",
		"The local node replaces its two newest blocks.",
		"  block 6: REMOVED transfer of 9000000 units from 0x9E47…27F9 to 0x17eb…727A",
		"  block 5: REMOVED transfer of 7500000 units from 0x9E47…27F9 to 0x1E4c…F598",
		"  block 5: transfer of 7500000 units from 0x9E47…27F9 to 0x1E4c…F598",
		"  block 5: transfer of 9000000 units from 0x9E47…27F9 to 0x17eb…727A",
	}, lines[1:])
}

// The cursor file is written after each event and read at start.
func TestCursorFile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cursor := filepath.Join(t.TempDir(), "cursor")
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_CURSOR": cursor})))
	stored, err := os.ReadFile(cursor)
	require.NoError(t, err)
	require.Regexp(t, `^5/0x[0-9a-f]{64}/2$`, string(stored)) // after the new block 5's second transfer
}

// A key without a URL, or a bad setting, is refused before anything runs.
func TestRefusesBadEnvironment(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_KEY": "k"})), "NODEACCESS_EVM_URL is not")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_URL": "https://x.example", "NODEACCESS_EVM_KEY": "k"})), "NODEACCESS_EVM_TOKEN")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_POLL": "soon"})), "not a positive duration")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_FROM": "soon"})), "neither a block number")
	bad := filepath.Join(t.TempDir(), "cursor")
	require.NoError(t, os.WriteFile(bad, []byte("x/y"), 0o600))
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_CURSOR": bad})), "the cursor in")
}
