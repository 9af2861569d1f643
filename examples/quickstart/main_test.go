package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/local.golden from the program's output")

// ports makes the output independent of the free ports the servers got.
var ports = regexp.MustCompile(`127\.0\.0\.1:\d+`)

func runQuickstart(t *testing.T, env map[string]string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	err := run(ctx, &out, func(k string) string { return env[k] })
	return out.String(), err
}

// The README's first command works with no configuration: it starts the local
// servers and prints every operation's typed result. The whole output is
// pinned (testdata/local.golden, ports masked; `go test -update` rewrites it
// after a deliberate change): the token balance with its six decimals, the
// four internal operation types of the EVM scenario with their addresses and
// values, the recorded vaults and mids, the recorded TON block in both API
// v2 forms, the account's states and pending transaction, and the beacon
// state's fork, slot, size and hash tree root.
func TestQuickstartLocal(t *testing.T) {
	got, err := runQuickstart(t, nil)
	require.NoError(t, err)
	got = ports.ReplaceAllString(got, "127.0.0.1:PORT")
	if *update {
		require.NoError(t, os.WriteFile("testdata/local.golden", []byte(got), 0o644))
	}
	want, err := os.ReadFile("testdata/local.golden")
	require.NoError(t, err)
	assert.Equal(t, string(want), got)

	// What the golden file must hold, said independently of it.
	lines := strings.Split(got, "\n")
	assert.Equal(t, "No NODEACCESS_*_URL set: every call goes to local servers started in-process on 127.0.0.1 (evmtest, hypertest, tontest, beacontest).", lines[0])
	for _, op := range []string{"eth_call ", "eth_getCode ", "ots_getInternalOperations ", "userVaultEquities ", "allMids: ",
		"getBlockTransactionsExt ", "getBlockTransactionsExt (JSON-RPC form)", "accountStates ", "pendingTransactions ", "beacon state head: "} {
		assert.Contains(t, got, "\n"+op, "every operation is called")
	}
	for _, typ := range []string{"\n  transfer ", "\n  create ", "\n  create2 ", "\n  selfdestruct "} {
		assert.Contains(t, got, typ, "all four internal operation types appear")
	}
	assert.Contains(t, got, "balanceOf(0x9E477782bc5CffF0752BFAc6C40dbebf146D27F9) = 1200.000000 LUSD\n")
	assert.Contains(t, got, "  0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D  688536.0314879999 USD  (lock-up ended 2025-01-24 05:48:51.869 UTC)\n")
	assert.Contains(t, got, "getBlockTransactionsExt (JSON-RPC form): 3 transactions, the same: true\n")
	assert.Contains(t, got, "  active  last lt 36582626000003  balance 2.715939331 TON\n")
	assert.NotContains(t, got, "skipped")

	// It ends by saying what to do next: every chain's URL variable to
	// reach a real service, the local servers for tests, the other
	// examples, the tests.
	next := got[strings.LastIndex(got, "\nNext:\n"):]
	assert.True(t, strings.HasSuffix(got, "  - Run the tests: "+testCommand+"\n"), "the last line")
	for _, want := range []string{"NODEACCESS_EVM_URL", "NODEACCESS_HYPER_URL", "NODEACCESS_TON_URL", "NODEACCESS_BEACON_URL",
		"evmtest.NewT(t)", "go run ./examples/erc20", testCommand} {
		assert.Contains(t, next, want)
	}
}

// servers starts the four local servers with known keys, as a user would
// reach a provider: from the environment.
func servers(t *testing.T) (env map[string]string, keys []string, evmSrv *evmtest.Server) {
	t.Helper()
	keys = []string{"qs-EVM-key-0a1b2c", "qs-HYPER-key-3d4e5f", "qs-TON-key-6a7b8c", "qs-BEACON-key-9d0e1f"}
	e, err := evmtest.New(evmtest.WithKey(keys[0]))
	require.NoError(t, err)
	t.Cleanup(e.Close)
	h, err := hypertest.New(hypertest.WithKey(keys[1]))
	require.NoError(t, err)
	t.Cleanup(h.Close)
	tn, err := tontest.New(tontest.WithKey(keys[2]))
	require.NoError(t, err)
	t.Cleanup(tn.Close)
	b, err := beacontest.New(beacontest.WithKey(keys[3]))
	require.NoError(t, err)
	t.Cleanup(b.Close)
	tx := e.Scenario().Create.Hash
	return map[string]string{
		"NODEACCESS_EVM_URL":          e.Endpoint() + "/evm", // the key inside the URL, the exchange chain's EVM path
		"NODEACCESS_EVM_TO":           evmtest.Token().Hex(),
		"NODEACCESS_EVM_DATA":         "0x313ce567", // decimals()
		"NODEACCESS_EVM_TX":           tx.Hex(),
		"NODEACCESS_HYPER_URL":        h.URL,
		"NODEACCESS_HYPER_KEY":        keys[1],
		"NODEACCESS_HYPER_PUBLIC_URL": h.Public.URL,
		"NODEACCESS_HYPER_USER":       "0x2B804617C6F63C040377E95BB276811747006F4B",
		"NODEACCESS_TON_URL":          tn.URL,
		"NODEACCESS_TON_KEY":          keys[2],
		"NODEACCESS_TON_SEQNO":        "39984096",
		"NODEACCESS_TON_ACCOUNT":      tontest.DefaultAccount,
		"NODEACCESS_BEACON_URL":       b.URL + "/beacon/" + keys[3],
		"NODEACCESS_BEACON_STATE":     "finalized",
	}, keys, e
}

// Configured from the environment, every chain calls the given endpoint
// instead, and no key is printed.
func TestQuickstartFromEnv(t *testing.T) {
	env, keys, evmSrv := servers(t)
	got, err := runQuickstart(t, env)
	require.NoError(t, err)
	// Every EVM call went to the endpoint's path, {key}/evm.
	for _, r := range evmSrv.Received() {
		assert.Equal(t, "/{key}/evm", r.Path)
	}
	assert.Equal(t, 3, evmSrv.Requests(), "eth_call, eth_getCode, ots_getInternalOperations")
	assert.True(t, strings.HasPrefix(got, "Calling the services in NODEACCESS_*_URL for EVM, Hyperliquid, TON, beacon.\n"), got)
	for _, k := range keys {
		assert.NotContains(t, got, k)
	}
	assert.Regexp(t, `\n== EVM \(evm\.Client\{http://127\.0\.0\.1:\d+/REDACTED/evm\}\)\n`, got)
	assert.Contains(t, got, "eth_call 0x000000000000000000000000000000000000E020 at latest: 0x0000000000000000000000000000000000000000000000000000000000000006\n")
	assert.NotContains(t, got, "balanceOf", "the token line is for the local default only")
	assert.Contains(t, got, "ots_getInternalOperations "+env["NODEACCESS_EVM_TX"]+": 1 operation\n  create       0x000000000000000000000000000000000000FaC7 -> ")
	assert.Contains(t, got, "userVaultEquities 0x2b804617c6f63c040377e95bb276811747006f4b: 2 vaults\n")
	assert.Contains(t, got, "allMids: 426 mids (223 perps, 1 spot pair by name, 198 spot pairs by index, 4 outcome sides)\n")
	assert.Contains(t, got, "getBlockTransactionsExt (-1,8000000000000000,39984096): 3 transactions, incomplete=false\n")
	assert.Contains(t, got, "pendingTransactions "+tontest.DefaultAccount+": 1 pending\n")
	assert.Regexp(t, `\nbeacon state finalized: fulu, slot \d+, 16384 validators, \d+ bytes of ssz\n`, got)
	// Every URL is set: what next has nothing left to configure.
	assert.Contains(t, got, "\nNext:\n  - Test your own code against these local servers")
	assert.NotContains(t, got, "Call your provider")
}

// Only the chains whose URL is set leave the machine; the first line says
// which, and a real endpoint without inputs skips the calls that need them.
func TestQuickstartPartialEnv(t *testing.T) {
	env, _, _ := servers(t)
	got, err := runQuickstart(t, map[string]string{
		"NODEACCESS_TON_URL": env["NODEACCESS_TON_URL"],
		"NODEACCESS_TON_KEY": env["NODEACCESS_TON_KEY"],
	})
	require.NoError(t, err)
	lines := strings.Split(got, "\n")
	assert.Equal(t, "Calling the services in NODEACCESS_*_URL for TON; local servers started in-process on 127.0.0.1 for EVM, Hyperliquid, beacon.", lines[0])
	assert.Contains(t, got, "\ngetBlockTransactionsExt: skipped (set NODEACCESS_TON_SEQNO)\naccountStates, pendingTransactions: skipped (set NODEACCESS_TON_ACCOUNT)\n")
	assert.Contains(t, got, "\n== EVM (local evmtest http://127.0.0.1:")
	// What next names the URLs still unset, not TON's.
	assert.Contains(t, got, "\nNext:\n  - Call your provider instead of a local server: set NODEACCESS_EVM_URL, NODEACCESS_HYPER_URL, NODEACCESS_BEACON_URL\n")

	got, err = runQuickstart(t, map[string]string{"NODEACCESS_EVM_URL": env["NODEACCESS_EVM_URL"]})
	require.NoError(t, err)
	assert.Contains(t, got, "\neth_call, eth_getCode: skipped (set NODEACCESS_EVM_TO)\nots_getInternalOperations: skipped (set NODEACCESS_EVM_TX)\n")
}

// Bad settings stop the program with an error that names the variable and
// the bad value, before anything is sent.
func TestQuickstartBadEnv(t *testing.T) {
	env, keys, _ := servers(t)
	for _, c := range []struct{ name, value, want string }{
		{"NODEACCESS_EVM_TO", "0x12", `EVM: NODEACCESS_EVM_TO "0x12" is not a 20-byte hex address`},
		{"NODEACCESS_EVM_DATA", "0x123", `EVM: NODEACCESS_EVM_DATA "0x123" is not 0x-prefixed hex with an even number of digits`},
		{"NODEACCESS_EVM_TX", "0xabc", `EVM: NODEACCESS_EVM_TX: `},
		{"NODEACCESS_HYPER_USER", "0x2b80", `Hyperliquid: NODEACCESS_HYPER_USER: `},
		{"NODEACCESS_TON_SEQNO", "-1", `TON: NODEACCESS_TON_SEQNO "-1" is not a masterchain block number`},
		{"NODEACCESS_TON_KEY", "", `TON: NODEACCESS_TON_KEY is not set`},
		{"NODEACCESS_BEACON_STATE", "latest", `beacon: NODEACCESS_BEACON_STATE: `},
	} {
		bad := map[string]string{}
		for k, v := range env {
			bad[k] = v
		}
		bad[c.name] = c.value
		_, err := runQuickstart(t, bad)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
		if c.value != "" {
			assert.Contains(t, err.Error(), c.value, "the bad value is named")
		}
		for _, k := range keys {
			assert.NotContains(t, err.Error(), k)
		}
	}
}

// A key set without its URL stops the program before anything starts: the
// user meant a real service.
func TestQuickstartKeyWithoutURL(t *testing.T) {
	for _, chain := range []string{"EVM", "HYPER", "TON", "BEACON"} {
		out, err := runQuickstart(t, map[string]string{"NODEACCESS_" + chain + "_KEY": "secret-key-1"})
		require.Error(t, err, chain)
		assert.Equal(t, "NODEACCESS_"+chain+"_KEY is set but NODEACCESS_"+chain+"_URL is not: set both, or neither to use a local server", err.Error())
		assert.Empty(t, out)
	}
}
