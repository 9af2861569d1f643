package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// With no environment the example reads the local servers, every value
// anchored to the one checkpoint, and shows each lie refused.
func TestLocal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, env(nil)))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 9, out.String())
	require.Regexp(t, `^No NODEACCESS_BEACON_URL or NODEACCESS_EVM_URL set: reading a local EVM node at http://127\.0\.0\.1:\d+ and a local beacon node at http://127\.0\.0\.1:\d+ \(keys REDACTED\)\.$`, lines[0])
	require.Regexp(t, `^Light client: finalized slot 112, head slot 129, execution block 0x[0-9a-f]{4}…[0-9a-f]{4} verified\.$`, lines[1])
	require.Regexp(t, `^Balance of 0x9E47…27F9: [1-9][0-9]{21} wei \(proven\)\.$`, lines[2])
	require.Equal(t, []string{
		"Storage of 0x0000…E020 at balanceOf[0x9E47…27F9]: 1200000000 (proven).",
		"balanceOf(0x9E47…27F9) on 0x0000…E020: 1200000000 (a verified eth_call).",
	}, lines[3:5])
	require.Regexp(t, `^Validator 5: [1-9][0-9]+ Gwei, proven by \d+ hashes against the signed state root 0x[0-9a-f]{4}…[0-9a-f]{4}\.$`, lines[5])
	require.Equal(t, []string{
		"The EVM node adds one wei to the balance: refused (true).",
		"The EVM node leaves the slot out of the access list: fetched with its proof, balanceOf is still 1200000000.",
		`The beacon node's committee signs another message: refused (check "signature").`,
	}, lines[6:])
}

// A key without a URL, one URL of two, or a bad setting is refused before
// anything is sent.
func TestRefusesBadEnvironment(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_KEY": "k"})), "a key is set but no URL")
	require.ErrorContains(t, run(ctx, &out, env(map[string]string{"NODEACCESS_EVM_URL": "https://x.example"})), "set both")
	real := map[string]string{"NODEACCESS_EVM_URL": "https://x.example", "NODEACCESS_EVM_KEY": "k", "NODEACCESS_BEACON_URL": "https://b.example", "NODEACCESS_BEACON_KEY": "k"}
	require.ErrorContains(t, run(ctx, &out, env(real)), "NODEACCESS_CHECKPOINT")
	real["NODEACCESS_CHECKPOINT"] = "0x" + strings.Repeat("ab", 32)
	require.ErrorContains(t, run(ctx, &out, env(real)), "NODEACCESS_EVM_")
	real["NODEACCESS_EVM_TOKEN"], real["NODEACCESS_EVM_HOLDER"] = "0x"+strings.Repeat("11", 20), "0x"+strings.Repeat("22", 20)
	real["NODEACCESS_NETWORK"] = "ropsten"
	require.Error(t, run(ctx, &out, env(real)))
	real["NODEACCESS_NETWORK"], real["NODEACCESS_VALIDATOR"] = "", "-3"
	require.ErrorContains(t, run(ctx, &out, env(real)), "NODEACCESS_VALIDATOR")
	require.Empty(t, out.String(), "nothing printed, nothing sent")
}
