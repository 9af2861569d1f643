package main

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runWith(t *testing.T, env map[string]string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	err := run(ctx, &out, func(k string) string { return env[k] })
	return out.String(), err
}

// With no configuration the example reads the local node's token: exact
// amounts, before and after the token transfer of block 5.
func TestERC20Local(t *testing.T) {
	for _, tt := range []struct {
		block, atBlock, balance, second string
	}{
		{"", "latest", "1200.000000", "534.567891"},
		{"0", "0", "1234.567891", "500.000000"},
		{"0x4", "4", "1234.567891", "500.000000"},
		{"5", "5", "1200.000000", "534.567891"},
		{"earliest", "earliest", "1234.567891", "500.000000"},
		{"pending", "pending", "1200.000000", "534.567891"},
		{"safe", "safe", "1200.000000", "534.567891"},
	} {
		got, err := runWith(t, map[string]string{"NODEACCESS_EVM_BLOCK": tt.block})
		require.NoError(t, err, tt.block)
		lines := strings.Split(got, "\n")
		require.Len(t, lines, 14, got)
		assert.Regexp(t, `^No NODEACCESS_EVM_URL set: using a local EVM node at http://127\.0\.0\.1:\d+ \(key REDACTED\)\.$`, lines[0])
		assert.Equal(t, []string{
			"Token:        0x000000000000000000000000000000000000E020 at block " + tt.atBlock,
			"Name:         Local USD",
			"Symbol:       LUSD",
			"Decimals:     6",
			"Total supply: 1734.567892 LUSD",
			"Balance of 0x9E477782bc5CffF0752BFAc6C40dbebf146D27F9: " + tt.balance + " LUSD",
			// The funded accounts' balances in one Multicall3 request, at
			// the same block: their sum is the supply.
			"Balances of 4 holders in one request (Multicall3):",
			"  0x9E477782bc5CffF0752BFAc6C40dbebf146D27F9: " + tt.balance + " LUSD",
			"  0xaC780De46649fd7777068aCB91394c68D6ad63c2: " + tt.second + " LUSD",
			"  0x1E4c273A13845e5ac639612738a5F078377DF598: 0.000001 LUSD",
			"  0x17eb0B3E0da935B591749Bb45522d50b1695727A: 0.000000 LUSD",
			"  sum: 1734.567892 LUSD",
			"",
		}, lines[1:])
	}
}

// Configured from the environment it reads the named token and holder on
// the named endpoint: here a local server the test starts with a token of
// its own, reached as a user reaches a provider.
func TestERC20FromEnv(t *testing.T) {
	token := common.HexToAddress("0x00000000000000000000000000000000000a110c")
	alice := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	srv := evmtest.NewT(t, evmtest.WithKey("erc20-example-key"), evmtest.WithAlloc(types.GenesisAlloc{
		token: evmtest.TokenAccount(map[common.Address]*big.Int{alice: big.NewInt(42_000_001), evmtest.Holder(): big.NewInt(5)}),
	}))
	head, err := srv.EthClient().HeaderByNumber(t.Context(), big.NewInt(2))
	require.NoError(t, err)

	want := func(block string) string {
		return "Token:        0x00000000000000000000000000000000000a110C at block " + block + "\n" +
			"Name:         Local USD\nSymbol:       LUSD\nDecimals:     6\n" +
			"Total supply: 42.000006 LUSD\n" +
			"Balance of 0x00000000000000000000000000000000000A11cE: 42.000001 LUSD\n"
	}
	for _, env := range []map[string]string{
		{"NODEACCESS_EVM_URL": srv.URL, "NODEACCESS_EVM_KEY": srv.Key()},
		{"NODEACCESS_EVM_URL": srv.Endpoint()},
	} {
		env["NODEACCESS_EVM_TOKEN"] = token.Hex()
		env["NODEACCESS_EVM_HOLDER"] = strings.ToLower(alice.Hex())
		got, err := runWith(t, env)
		require.NoError(t, err)
		assert.Equal(t, "Reading through evm.Client{"+srv.URL+"/REDACTED}.\n"+want("latest"), got)
		assert.NotContains(t, got, srv.Key())

		env["NODEACCESS_EVM_BLOCK"] = head.Hash().Hex()
		got, err = runWith(t, env)
		require.NoError(t, err)
		assert.Equal(t, "Reading through evm.Client{"+srv.URL+"/REDACTED}.\n"+want(head.Hash().Hex()), got)
	}

	// Without a holder, no balance line.
	got, err := runWith(t, map[string]string{"NODEACCESS_EVM_URL": srv.Endpoint(), "NODEACCESS_EVM_TOKEN": token.Hex()})
	require.NoError(t, err)
	assert.NotContains(t, got, "Balance")
	assert.Contains(t, got, "Total supply: 42.000006 LUSD\n")

	// Holders read in one Multicall3 request, each balance exact, an
	// address without tokens 0, a holder given twice read twice.
	bob := common.HexToAddress("0x00000000000000000000000000000000000b0b00")
	got, err = runWith(t, map[string]string{"NODEACCESS_EVM_URL": srv.Endpoint(), "NODEACCESS_EVM_TOKEN": token.Hex(),
		"NODEACCESS_EVM_HOLDERS": alice.Hex() + ", " + strings.ToLower(evmtest.Holder().Hex()) + "," + bob.Hex() + "," + alice.Hex()})
	require.NoError(t, err)
	assert.Contains(t, got, "Total supply: 42.000006 LUSD\n"+
		"Balances of 4 holders in one request (Multicall3):\n"+
		"  0x00000000000000000000000000000000000A11cE: 42.000001 LUSD\n"+
		"  0x9E477782bc5CffF0752BFAc6C40dbebf146D27F9: 0.000005 LUSD\n"+
		"  "+bob.Hex()+": 0.000000 LUSD\n"+
		"  0x00000000000000000000000000000000000A11cE: 42.000001 LUSD\n"+
		"  sum: 84.000007 LUSD\n")

	// A wrong key: the error names the failure, never the key.
	_, err = runWith(t, map[string]string{"NODEACCESS_EVM_URL": srv.URL, "NODEACCESS_EVM_KEY": srv.Key() + "x", "NODEACCESS_EVM_TOKEN": token.Hex()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "403")
	assert.NotContains(t, err.Error(), srv.Key())
}

// On a chain without Multicall3 the example says so and the rest of its
// output stands.
func TestERC20NoMulticall3(t *testing.T) {
	srv := evmtest.NewT(t, evmtest.WithoutMulticall3())
	got, err := runWith(t, map[string]string{"NODEACCESS_EVM_URL": srv.Endpoint(), "NODEACCESS_EVM_TOKEN": evmtest.Token().Hex(),
		"NODEACCESS_EVM_HOLDERS": evmtest.Holder().Hex()})
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(got, "Total supply: 1734.567892 LUSD\n"+
		"Multicall3 is not deployed at 0xcA11bde05977b3631167028862bE2a173976CA11 on this chain: no balances in one request.\n"), got)
}

func TestERC20BadEnv(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"NODEACCESS_EVM_URL": "https://node.example/k"}, "NODEACCESS_EVM_TOKEN is not set"},
		{map[string]string{"NODEACCESS_EVM_TOKEN": "0x12"}, `NODEACCESS_EVM_TOKEN "0x12" is not a 20-byte hex address`},
		{map[string]string{"NODEACCESS_EVM_HOLDER": "alice"}, `NODEACCESS_EVM_HOLDER "alice" is not a 20-byte hex address`},
		{map[string]string{"NODEACCESS_EVM_HOLDERS": "0x00000000000000000000000000000000000a11ce,,bob"}, `NODEACCESS_EVM_HOLDERS: "" is not a 20-byte hex address`},
		{map[string]string{"NODEACCESS_EVM_HOLDERS": "0x00000000000000000000000000000000000a11ce, bob"}, `NODEACCESS_EVM_HOLDERS: "bob" is not a 20-byte hex address`},
		{map[string]string{"NODEACCESS_EVM_KEY": "secret-key-1"}, "NODEACCESS_EVM_KEY is set but NODEACCESS_EVM_URL is not: set both, or neither to use a local server"},
		{map[string]string{"NODEACCESS_EVM_BLOCK": "yesterday"}, `NODEACCESS_EVM_BLOCK: invalid input: block: "yesterday" is not a block tag, number or hash`},
	} {
		out, err := runWith(t, tt.env)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.want)
		assert.Empty(t, out)
	}
}

func TestFormatUnits(t *testing.T) {
	huge, _ := new(big.Int).SetString("115792089237316195423570985008687907853269984665640564039457584007913129639935", 10)
	for _, tt := range []struct {
		amount   *big.Int
		decimals uint8
		want     string
	}{
		{big.NewInt(1_234_567_891), 6, "1234.567891"},
		{big.NewInt(1_200_000_000), 6, "1200.000000"},
		{big.NewInt(1), 6, "0.000001"},
		{big.NewInt(0), 6, "0.000000"},
		{big.NewInt(999_999), 6, "0.999999"},
		{big.NewInt(1_000_000), 6, "1.000000"},
		{big.NewInt(42), 0, "42"},
		{big.NewInt(-15), 1, "-1.5"},
		{huge, 18, "115792089237316195423570985008687907853269984665640564039457.584007913129639935"},
	} {
		assert.Equal(t, tt.want, formatUnits(tt.amount, tt.decimals))
	}
}
