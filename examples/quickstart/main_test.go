package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's first command works with no configuration: it starts the local
// node and every call prints its typed result.
func TestQuickstartLocal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, func(string) string { return "" }))
	got := out.String()
	lines := strings.Split(got, "\n")
	assert.Regexp(t, `^No NODEACCESS_EVM_URL set: calling a local go-ethereum node at http://127\.0\.0\.1:\d+ \(key REDACTED\)\.$`, lines[0])
	assert.Contains(t, got, "eth_call 0x000000000000000000000000000000000000A42A at latest: 0x000000000000000000000000000000000000000000000000000000000000002a (uint256 42)\n")
	assert.Contains(t, got, "eth_getCode 0x000000000000000000000000000000000000A42A: 10 bytes\n")
	assert.Regexp(t, `ots_getInternalOperations 0x[0-9a-f]{64}: not served by this node \(the method ots_getInternalOperations does not exist/is not available\)`, got)
	assert.NotContains(t, got, "local-demo-key")
}

// Configured from the environment, it calls the given endpoint instead (here
// the same local node, reached as a user would reach a provider).
func TestQuickstartFromEnv(t *testing.T) {
	n, err := startLocalNode()
	require.NoError(t, err)
	defer n.close()
	env := map[string]string{
		"NODEACCESS_EVM_URL": n.baseURL + "/" + n.key,
		"NODEACCESS_EVM_TO":  n.contract.Hex(),
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	require.NoError(t, run(ctx, &out, func(k string) string { return env[k] }))
	got := out.String()
	assert.True(t, strings.HasPrefix(got, "Calling evm.Client{"+n.baseURL+"/REDACTED}.\n"), got)
	assert.Contains(t, got, "(uint256 42)")
	assert.Contains(t, got, "ots_getInternalOperations: skipped (set NODEACCESS_EVM_TX)")
	assert.NotContains(t, got, n.key)

	env["NODEACCESS_EVM_TO"] = "0x12"
	err = run(ctx, &out, func(k string) string { return env[k] })
	require.Error(t, err)
	assert.Contains(t, err.Error(), `NODEACCESS_EVM_TO "0x12" is not a 20-byte hex address`)
}
