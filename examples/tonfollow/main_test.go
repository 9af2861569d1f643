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

// body drops the first line (it names the local server's port).
func body(out string) []string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[1:]
}

// With no environment the example follows a local chain for five rounds
// and prints its jetton transfers; stopped after three rounds and run
// again with the same cursor file, it prints the same lines, none twice
// and none lost.
func TestLocalAndResume(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var whole bytes.Buffer
	require.NoError(t, run(ctx, &whole, env(nil)))
	require.Regexp(t, `^No NODEACCESS_TON_URL set: following a local TON chain at http://127\.0\.0\.1:\d+ \(key REDACTED\)\.\n`, whole.String())
	all := body(whole.String())
	require.Contains(t, whole.String(), `(0,4000000000000000,2) internal_transfer: 3541774862152233910272 units from 0:a64c703050dbd6bb8e2da9e74b38879d7804b70ed4aff0d7481f4580e4f8a2f0 to jetton wallet EQA10w5C_Dft3RRYScy6fe3O_5DgfBs4A8qifn6QwyvAWqIt comment "deposit 2"`)
	require.Equal(t, "round 5 done: 1 transactions", all[len(all)-1])

	cursor := filepath.Join(t.TempDir(), "cursor")
	var first, second bytes.Buffer
	require.NoError(t, run(ctx, &first, env(map[string]string{"NODEACCESS_TON_CURSOR": cursor, "NODEACCESS_TON_ROUNDS": "3"})))
	stored, err := os.ReadFile(cursor)
	require.NoError(t, err)
	require.Equal(t, "4", string(stored))
	require.NoError(t, run(ctx, &second, env(map[string]string{"NODEACCESS_TON_CURSOR": cursor, "NODEACCESS_TON_ROUNDS": "2"})))
	rest := body(second.String())
	require.Equal(t, "Resuming from cursor 4.", rest[0])
	require.Equal(t, all, append(body(first.String()), rest[1:]...))

	// Through the indexer the same transactions come, and a cursor stored
	// by a run over API v2 resumes there.
	var indexed bytes.Buffer
	require.NoError(t, run(ctx, &indexed, env(map[string]string{"NODEACCESS_TON_INDEXER": "1"})))
	require.Equal(t, all, body(indexed.String()))
	require.NoError(t, os.WriteFile(cursor, []byte("4"), 0o600))
	var third bytes.Buffer
	require.NoError(t, run(ctx, &third, env(map[string]string{"NODEACCESS_TON_CURSOR": cursor, "NODEACCESS_TON_ROUNDS": "2", "NODEACCESS_TON_INDEXER": "1"})))
	require.Equal(t, rest, body(third.String()))
}

// A key without a URL, or a bad setting, is refused before anything runs.
func TestRefusesBadEnvironment(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_TON_KEY": "k"})), "NODEACCESS_TON_URL is not")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_TON_URL": "https://x.example"})), "NODEACCESS_TON_KEY is required")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_TON_ROUNDS": "0"})), "not a positive integer")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_TON_FROM": "soon"})), "neither a masterchain seqno")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_TON_INDEXER": "yes"})), "neither 1 nor 0")
	bad := filepath.Join(t.TempDir(), "cursor")
	require.NoError(t, os.WriteFile(bad, []byte("x/y"), 0o600))
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_TON_CURSOR": bad})), "the cursor in")
}

// Mid-round cursors resume too: a cursor that names a transaction goes on
// after it.
func TestResumeMidRound(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cursor := filepath.Join(t.TempDir(), "cursor")
	require.NoError(t, os.WriteFile(cursor, []byte("1/1"), 0o600))
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, env(map[string]string{"NODEACCESS_TON_CURSOR": cursor, "NODEACCESS_TON_ROUNDS": "1"})))
	lines := body(out.String())
	require.Equal(t, []string{"Resuming from cursor 1/1.",
		`  (0,4000000000000000,2) internal_transfer: 3541774862152233910272 units from 0:a64c703050dbd6bb8e2da9e74b38879d7804b70ed4aff0d7481f4580e4f8a2f0 to jetton wallet EQA10w5C_Dft3RRYScy6fe3O_5DgfBs4A8qifn6QwyvAWqIt comment "deposit 2"`,
		`  (0,4000000000000000,2) transfer_notification: 3541774862152233910272 units from 0:a64c703050dbd6bb8e2da9e74b38879d7804b70ed4aff0d7481f4580e4f8a2f0 to owner UQCIDTr0oVihActxus0LPhnMdBxEYO3xs540JVuR579LuUsI comment "deposit 2"`,
		"round 1 done: 3 transactions"}, lines, "block 0 of round 1 (one transaction) is skipped, block 1 (with the transfer) is not")
}
