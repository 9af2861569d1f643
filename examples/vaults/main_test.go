package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

// runWith runs the program with env and returns its output lines.
func runWith(t *testing.T, env map[string]string) ([]string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	err := run(ctx, &out, func(k string) string { return env[k] })
	return strings.Split(out.String(), "\n"), err
}

// With no endpoint it starts the local server and shows the recorded
// vaults: the first line says so, every digit of the equities and their
// sum is there, and at 2025-03-01 one deposit is still locked.
func TestVaultsLocal(t *testing.T) {
	lines, err := runWith(t, map[string]string{"NODEACCESS_HYPER_AT": "2025-03-01T00:00:00Z"})
	require.NoError(t, err)
	require.NotEmpty(t, lines)
	assert.Regexp(t, `^No NODEACCESS_HYPER_URL set: using a local Hyperliquid server at http://127\.0\.0\.1:\d+ \(key REDACTED\), public API at http://127\.0\.0\.1:\d+\.$`, lines[0])
	assert.Equal(t, []string{
		"",
		"Vaults of 0x2b804617c6f63c040377e95bb276811747006f4b at 2025-03-01 00:00:00.000 UTC:",
		"  VAULT                                            EQUITY (USD)    SHARE  LOCK-UP",
		"  0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D  688536.0314879999   99.99%  unlocked since 2025-01-24 05:48:51.869 UTC",
		"  0x7F6CE756BDEe0db22A8FbDA15aA48023AAE5a8bE     100.003834        0.01%  locked until 2025-06-13 23:27:19.300 UTC",
		"  TOTAL (2 vaults)                            688636.0353219999",
		"",
		"The same vaults from HyperEVM's vault equity precompile (0x…0802):",
		"  0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D  688536.031488 USD, equals /info's 688536.0314879999 rounded to 6 decimals",
		"  0x7F6CE756BDEe0db22A8FbDA15aA48023AAE5a8bE  100.003834 USD, equals /info's 100.003834 rounded to 6 decimals",
		"",
		"Mid prices from the public API (426 keys), named from its metadata:",
		"  BTC   89926.5     perp BTC, asset 0, 5 size decimals",
		"  ETH    3102.75    perp ETH, asset 1, 4 size decimals",
		"  HYPE     28.7295  perp HYPE, asset 159, 2 size decimals",
		"  @107     28.718   spot HYPE/USDC (@107), asset 10107, 2 size decimals",
		`  #21       0.4875  outcome 2 "Who will win the HL 100 meter dash?", side 1 "Usain Bolt"`,
		"",
	}, lines[1:])
	assert.NotContains(t, strings.Join(lines, "\n"), localKey)
}

// With the real clock both recorded deposits are past their lock-up.
func TestVaultsLocalNow(t *testing.T) {
	lines, err := runWith(t, map[string]string{"NODEACCESS_HYPER_COINS": "PURR/USDC, @107,HYPE/USDC,NOPE"})
	require.NoError(t, err)
	require.Len(t, lines, 18)
	at, ok := strings.CutPrefix(lines[2], "Vaults of 0x2b804617c6f63c040377e95bb276811747006f4b at ")
	require.True(t, ok, lines[2])
	when, err := time.Parse(timeLayout+":", at)
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), when, time.Minute)
	assert.True(t, strings.HasSuffix(lines[4], "unlocked since 2025-01-24 05:48:51.869 UTC"), lines[4])
	assert.True(t, strings.HasSuffix(lines[5], "unlocked since 2025-06-13 23:27:19.300 UTC"), lines[5])
	assert.Equal(t, []string{
		"Mid prices from the public API (426 keys), named from its metadata:",
		"  PURR/USDC   0.0664375  spot PURR/USDC (PURR/USDC), asset 10000, 0 size decimals",
		"  @107       28.718      spot HYPE/USDC (@107), asset 10107, 2 size decimals",
		"  HYPE/USDC  28.718      spot HYPE/USDC (@107), asset 10107, 2 size decimals",
		"  NOPE       not listed",
		"",
	}, lines[12:])
}

// From the environment it calls the given endpoint (here a local server
// started by the test, reached as a user reaches a provider): the whole
// endpoint with the key in it, or a base URL and a key. The key is never
// printed.
func TestVaultsFromEnv(t *testing.T) {
	const key = "env-secret-KEY-42"
	srv, err := hypertest.New(hypertest.WithKey(key))
	require.NoError(t, err)
	defer srv.Close()
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	require.NoError(t, srv.SetVaultEquities(user, []hyper.VaultEquity{
		{VaultAddress: common.HexToAddress("0xdfc24b077bc1425ad1dea75bcb6f8158e10df303"), Equity: decimal.RequireFromString("1000.10"),
			LockedUntil: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)},
		{VaultAddress: common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d"), Equity: decimal.RequireFromString("0.000000001")},
		{VaultAddress: common.HexToAddress("0x7f6ce756bdee0db22a8fbda15aa48023aae5a8be"), Equity: decimal.RequireFromString("3000")},
	}))
	require.NoError(t, srv.SetMids("", map[string]string{"BTC": "100000", "ETH": "2500.5"}))

	want := []string{
		"Calling hyper.Client{node " + srv.URL + "/REDACTED/info, public " + srv.Public.URL + "/info}.",
		"",
		"Vaults of 0x00000000000000000000000000000000000000AA at 2026-01-01 00:00:00.000 UTC:",
		"  VAULT                                         EQUITY (USD)    SHARE  LOCK-UP",
		"  0xdfc24b077bc1425AD1DEA75bCB6f8158E10Df303  1000.10          25.00%  locked until 2030-01-01 00:00:00.000 UTC",
		"  0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D     0.000000001    0.00%  no lock-up",
		"  0x7F6CE756BDEe0db22A8FbDA15aA48023AAE5a8bE  3000             75.00%  no lock-up",
		"  TOTAL (3 vaults)                            4000.100000001",
		"",
		"The same vaults from HyperEVM's vault equity precompile (0x…0802):",
		"  0xdfc24b077bc1425AD1DEA75bCB6f8158E10Df303  1000.100000 USD, equals /info's 1000.10 rounded to 6 decimals",
		"  0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D  0.000000 USD, equals /info's 0.000000001 rounded to 6 decimals",
		"  0x7F6CE756BDEe0db22A8FbDA15aA48023AAE5a8bE  3000.000000 USD, equals /info's 3000 rounded to 6 decimals",
		"",
		"Mid prices from the public API (2 keys), named from its metadata:",
		"  BTC  100000    perp BTC, asset 0, 5 size decimals",
		"  ETH    2500.5  perp ETH, asset 1, 4 size decimals",
		"",
	}
	for name, env := range map[string]map[string]string{
		"endpoint": {"NODEACCESS_HYPER_URL": srv.URL + "/" + key},
		"base+key": {"NODEACCESS_HYPER_URL": srv.URL, "NODEACCESS_HYPER_KEY": key},
	} {
		t.Run(name, func(t *testing.T) {
			env["NODEACCESS_HYPER_PUBLIC_URL"] = srv.Public.URL
			env["NODEACCESS_HYPER_USER"] = "0x00000000000000000000000000000000000000aa"
			env["NODEACCESS_HYPER_AT"] = "2026-01-01T01:00:00+01:00"
			env["NODEACCESS_HYPER_COINS"] = "BTC,ETH"
			lines, err := runWith(t, env)
			require.NoError(t, err)
			assert.Equal(t, want, lines)
			assert.NotContains(t, strings.Join(lines, "\n"), key)
		})
	}
	// Each run: userVaultEquities and one JSON-RPC batch of the three
	// precompile reads on the node; allMids and the metadata (spotMeta,
	// perpDexs, outcomeMeta, meta of "" and of xyz) on the public API.
	assert.Equal(t, 2*2, srv.Requests())
	assert.Equal(t, 2*6, srv.Public.Requests())
}

// A user without deposits.
func TestVaultsNone(t *testing.T) {
	lines, err := runWith(t, map[string]string{
		"NODEACCESS_HYPER_USER": "0x0000000000000000000000000000000000000001",
		"NODEACCESS_HYPER_AT":   "2025-03-01T00:00:00Z",
	})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"Vaults of 0x0000000000000000000000000000000000000001 at 2025-03-01 00:00:00.000 UTC:",
		"  no vault deposits",
	}, lines[2:4])
}

// Bad settings are named; failures of the endpoint come back as the SDK's
// errors, without the key.
func TestVaultsErrors(t *testing.T) {
	srv, err := hypertest.New(hypertest.WithKey("right-key"))
	require.NoError(t, err)
	defer srv.Close()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"NODEACCESS_HYPER_USER": "0x12"}, `NODEACCESS_HYPER_USER: invalid input: address: "0x12": want 0x and 40 hex digits (42 characters), got 4 characters`},
		{map[string]string{"NODEACCESS_HYPER_AT": "yesterday"}, `NODEACCESS_HYPER_AT "yesterday" is not an RFC 3339 time`},
		{map[string]string{"NODEACCESS_HYPER_KEY": "k"}, "NODEACCESS_HYPER_KEY is set but NODEACCESS_HYPER_URL is not"},
		{map[string]string{"NODEACCESS_HYPER_URL": "ftp://host/k"}, "hyper: "},
		{map[string]string{"NODEACCESS_HYPER_URL": srv.URL, "NODEACCESS_HYPER_KEY": "wrong-secret-key", "NODEACCESS_HYPER_PUBLIC_URL": srv.Public.URL},
			"hyper: userVaultEquities: "},
	} {
		lines, err := runWith(t, tc.env)
		require.Error(t, err)
		assert.ErrorContains(t, err, tc.want)
		assert.NotContains(t, err.Error(), "wrong-secret-key")
		assert.NotContains(t, strings.Join(lines, "\n"), "wrong-secret-key")
	}
}
