package main

import (
	"bytes"
	"context"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With no environment the example walks the recorded block on a local
// server, two transactions a page.
func TestLocal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, func(string) string { return "" }))
	lines := strings.Split(out.String(), "\n")
	require.Regexp(t, `^No NODEACCESS_TON_URL set: using a local TON server at http://127\.0\.0\.1:\d+ \(key REDACTED\)\.$`, lines[0])
	assert.Equal(t, []string{
		"Block (-1,8000000000000000,39984096)",
		"  root hash b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM=, file hash lLylrj7eZn0TSNxpg4yovJJ4x/ILgeeJ3byS6MFVTJw=",
		"Walking it 2 transactions a page.",
		"page 1: 2 transactions, incomplete: asking for the next page",
		"  lt 48756940000001  Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF  fee 0 TON  2024-08-27 07:40:27 UTC",
		"  lt 48756940000002  Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF  fee 0 TON  2024-08-27 07:40:27 UTC",
		"    in: 29.165187604 TON from Ef8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADAU",
		"page 2: 1 transaction, complete",
		"  lt 48756940000003  Ef9VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVbxn  fee 0 TON  2024-08-27 07:40:27 UTC",
		"Summary: 3 transactions, 2 distinct accounts, total fees 0 TON.",
		"",
	}, lines[1:])
}

// Configured from the environment it walks the named block of the given
// endpoint (here a local server reached as a user reaches a provider,
// serving a basechain block with fees); the key never shows.
func TestFromEnv(t *testing.T) {
	const key = "s3cret-KEY"
	shard, err := ton.ParseShardID("a000000000000000")
	require.NoError(t, err)
	alice, err := ton.ParseAddress("0:" + strings.Repeat("a1", 32))
	require.NoError(t, err)
	bob, err := ton.ParseAddress("0:" + strings.Repeat("b2", 32))
	require.NoError(t, err)
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	block := tontest.Block{
		ID: ton.BlockID{BlockRef: ton.BlockRef{Workchain: 0, Shard: shard, Seqno: 51234567}, RootHash: ton.Hash{0xaa}, FileHash: ton.Hash{0xbb}},
		Transactions: []ton.BlockTransaction{
			{Account: bob, LT: 60000000000001, Fee: big.NewInt(6617389), Time: at, InMsg: &ton.Message{Destination: &bob}},
			{Account: alice, LT: 60000000000003, Fee: big.NewInt(1_000_000_000), Time: at,
				InMsg: &ton.Message{Source: &bob, Destination: &alice, Value: big.NewInt(1_500_000_000), HasComment: true, Comment: "rent \"May\""}},
			{Account: alice, LT: 60000000000002, Fee: big.NewInt(2_500_000_001), Time: at},
			{Account: bob, LT: 60000000000004, Time: at}, // no fee sent
		},
	}
	srv, err := tontest.New(tontest.WithKey(key), tontest.WithoutDefaults())
	require.NoError(t, err)
	defer srv.Close()
	require.NoError(t, srv.SetBlock(block))
	env := map[string]string{
		"NODEACCESS_TON_URL":       srv.URL,
		"NODEACCESS_TON_KEY":       key,
		"NODEACCESS_TON_WORKCHAIN": "0",
		"NODEACCESS_TON_SHARD":     strconv.FormatInt(int64(shard), 10),
		"NODEACCESS_TON_SEQNO":     "51234567",
		"NODEACCESS_TON_COUNT":     "3",
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out, func(k string) string { return env[k] }))
	a, b := alice.Friendly(true, false).String(), bob.Friendly(true, false).String()
	assert.Equal(t, "Calling ton.Client{"+srv.URL+", key REDACTED, v2 REST}.\n"+
		"Block (0,A000000000000000,51234567)\n"+
		"  root hash qgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=, file hash uwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"+
		"Walking it 3 transactions a page.\n"+
		"page 1: 3 transactions, incomplete: asking for the next page\n"+
		"  lt 60000000000002  "+a+"  fee 2.500000001 TON  2025-01-02 03:04:05 UTC\n"+
		"  lt 60000000000003  "+a+"  fee 1 TON  2025-01-02 03:04:05 UTC\n"+
		"    in: 1.5 TON from "+b+", comment \"rent \\\"May\\\"\"\n"+
		"  lt 60000000000001  "+b+"  fee 0.006617389 TON  2025-01-02 03:04:05 UTC\n"+
		"    in: external message\n"+
		"page 2: 1 transaction, complete\n"+
		"  lt 60000000000004  "+b+"  fee unknown  2025-01-02 03:04:05 UTC\n"+
		"Summary: 4 transactions, 2 distinct accounts, total fees 3.50661739 TON (1 without a fee).\n", out.String())
	assert.NotContains(t, out.String(), key)

	// A page size that divides the block: the last full page says
	// incomplete, as lite servers do, and the next one is empty.
	env["NODEACCESS_TON_COUNT"] = "2"
	env["NODEACCESS_TON_SHARD"] = "A000000000000000" // hex works too
	out.Reset()
	require.NoError(t, run(ctx, &out, func(k string) string { return env[k] }))
	assert.Contains(t, out.String(), "page 2: 2 transactions, incomplete: asking for the next page\n"+
		"  lt 60000000000001  "+b+"  fee 0.006617389 TON  2025-01-02 03:04:05 UTC\n"+
		"    in: external message\n"+
		"  lt 60000000000004  "+b+"  fee unknown  2025-01-02 03:04:05 UTC\n"+
		"page 3: 0 transactions, complete\n"+
		"Summary: 4 transactions")

	// A block the server does not have: the server's error, without the key.
	env["NODEACCESS_TON_SEQNO"] = "1"
	out.Reset()
	err = run(ctx, &out, func(k string) string { return env[k] })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "LITE_SERVER_NOTREADY: cannot find block (0,a000000000000000) seqno=1: seqno not in db")
	assert.NotContains(t, err.Error(), key)
	assert.NotContains(t, out.String(), key)
}

func TestBadEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"NODEACCESS_TON_URL": "https://ton.example"}, "NODEACCESS_TON_KEY is required with NODEACCESS_TON_URL"},
		{map[string]string{"NODEACCESS_TON_URL": "https://ton.example", "NODEACCESS_TON_KEY": "k"}, `NODEACCESS_TON_SEQNO "" is not a block seqno`},
		{map[string]string{"NODEACCESS_TON_URL": "https://ton.example", "NODEACCESS_TON_KEY": "k", "NODEACCESS_TON_SEQNO": "5", "NODEACCESS_TON_WORKCHAIN": "x"}, `NODEACCESS_TON_WORKCHAIN "x" is not a workchain id`},
		{map[string]string{"NODEACCESS_TON_URL": "https://ton.example", "NODEACCESS_TON_KEY": "k", "NODEACCESS_TON_SEQNO": "5", "NODEACCESS_TON_SHARD": "zz"}, `NODEACCESS_TON_SHARD: invalid input: shard`},
		{map[string]string{"NODEACCESS_TON_COUNT": "0"}, `NODEACCESS_TON_COUNT "0" is not a positive integer`},
	} {
		var out bytes.Buffer
		err := run(context.Background(), &out, func(k string) string { return c.env[k] })
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
		assert.Empty(t, out.String())
	}
}

func TestFormatTON(t *testing.T) {
	for nano, want := range map[string]string{
		"0": "0", "1": "0.000000001", "6617389": "0.006617389", "1000000000": "1", "2500000001": "2.500000001",
		"1500000000": "1.5", "1329227995784915872903807060280344575": "1329227995784915872903807060.280344575",
	} {
		v, ok := new(big.Int).SetString(nano, 10)
		require.True(t, ok)
		assert.Equal(t, want, formatTON(v), nano)
		assert.Regexp(t, regexp.MustCompile(`^\d+(\.\d*[1-9])?$`), formatTON(v))
	}
}

// A key without a URL is refused, as examples/vaults does, rather than
// ignored for the local demo: the error names the variables, not the key,
// and nothing is printed (no local server is started).
func TestKeyWithoutURL(t *testing.T) {
	const key = "s3cret-KEY-alone"
	var out bytes.Buffer
	err := run(context.Background(), &out, func(k string) string {
		return map[string]string{"NODEACCESS_TON_KEY": key, "NODEACCESS_TON_SEQNO": "5"}[k]
	})
	require.Error(t, err)
	assert.Equal(t, "NODEACCESS_TON_KEY is set but NODEACCESS_TON_URL is not: set both, or neither to use a local server", err.Error())
	assert.NotContains(t, err.Error(), "s3cret")
	assert.Empty(t, out.String())
}
