package hypercore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
)

// coreClient starts a hypertest server and returns a client for it with
// the markets it serves.
func coreClient(t *testing.T, opts ...nodeaccess.Option) (*hypertest.Server, *client, *hyper.Markets) {
	t.Helper()
	srv := hypertest.NewT(t)
	c, err := srv.Client(append([]nodeaccess.Option{hyper.WithPublicBudget(nil)}, opts...)...)
	require.NoError(t, err)
	ev, err := hypercore.New(srv.URL, srv.Key(), opts...)
	require.NoError(t, err)
	markets, err := c.Markets(context.Background())
	require.NoError(t, err)
	return srv, &client{c, ev}, markets
}

// client is a node's /info client and its HyperEVM client.
type client struct {
	*hyper.Client
	ev *evm.Client
}

func (c *client) EVM() *evm.Client                 { return c.ev }
func (c *client) Core(b *evm.Batch) hypercore.Core { return hypercore.Reads(b) }

func market(t *testing.T, m *hyper.Markets, key string) hyper.Market {
	t.Helper()
	mk, ok := m.Market(key)
	require.True(t, ok, key)
	return mk
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// assertDec checks d against text digit for digit.
func assertDec(t *testing.T, text string, d decimal.Decimal, what string) {
	t.Helper()
	assert.True(t, dec(text).Equal(d), "%s: %s, want %s", what, d, text)
}

// Every read in one JSON-RPC batch against the local server, each with its
// own value: prices from the served mids scaled back exactly, metadata
// from the served metadata, the user's state where the server has it.
func TestCoreReadsOnHypertest(t *testing.T) {
	srv, c, markets := coreClient(t)
	ctx := context.Background()
	btc, hype, gold, purr := market(t, markets, "BTC"), market(t, markets, "@107"), market(t, markets, "xyz:GOLD"), market(t, markets, "PURR/USDC")
	user, vault := hypertest.DefaultUser(), common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d")

	var b evm.Batch
	core := c.Core(&b)
	markBTC, oracleBTC, markGold := core.Price(btc), core.OraclePx(btc), core.Price(gold)
	spotHype, spotPurr := core.Price(hype), core.Price(purr)
	bboBTC, bboHype := core.BBO(btc), core.BBO(hype)
	block := core.L1BlockNumber()
	perpInfo, goldInfo, spotInfo, tokenInfo := core.AssetInfo(0), core.AssetInfo(gold.Asset), core.AssetInfo(10107), core.TokenInfo(150)
	equity := core.VaultEquity(user, vault)
	pos, bal := core.Position(user, btc), core.SpotBalance(user, hype.Base)
	wd, staking, margin := core.Withdrawable(user), core.Staking(user), core.MarginSummary(1, user)
	bal0 := evm.Add[string](&b, "eth_chainId") // another call in the same batch: not served here
	require.NoError(t, c.EVM().SendBatch(ctx, &b))

	mids, err := c.AllMids(ctx, "")
	require.NoError(t, err)
	midBTCEntry, _ := mids.Get("BTC")
	midHypeEntry, _ := mids.Get("@107")
	midBTC, midHype := midBTCEntry.Price, midHypeEntry.Price
	for name, r := range map[string]*hypercore.Read[decimal.Decimal]{"markPx BTC": markBTC, "oraclePx BTC": oracleBTC} {
		v, err := r.Result()
		require.NoError(t, err, name)
		assertDec(t, midBTC.String(), v, name) // 89926.5: 1 decimal of 6 - 5
	}
	v, err := markGold.Result()
	require.NoError(t, err)
	assertDec(t, "4210.25", v, "markPx xyz:GOLD")
	v, err = spotHype.Result()
	require.NoError(t, err)
	assertDec(t, midHype.String(), v, "spotPx @107")
	v, err = spotPurr.Result()
	require.NoError(t, err)
	// 0.0664375 at 8 - 0 decimals.
	assertDec(t, "0.0664375", v, "spotPx PURR/USDC")
	bb, err := bboBTC.Result()
	require.NoError(t, err)
	assert.Equal(t, [2]string{"89926.5", "89926.5"}, [2]string{bb.Bid.String(), bb.Ask.String()})
	bb, err = bboHype.Result()
	require.NoError(t, err)
	assertDec(t, "28.718", bb.Bid, "bbo @107")
	n, err := block.Result()
	require.NoError(t, err)
	assert.Equal(t, uint64(800_000_000), n)

	p, err := perpInfo.Result()
	require.NoError(t, err)
	assert.Equal(t, hyper.Market{Key: "BTC", Kind: hyper.KeyPerp, Name: "BTC", SzDecimals: 5,
		Perp: hyper.Perp{Index: 0, Name: "BTC", SzDecimals: 5, MaxLeverage: 40, MarginTableID: 56}}, p)
	assert.Equal(t, btc.Perp, p.Perp) // the metadata and the precompile agree
	p, err = goldInfo.Result()
	require.NoError(t, err)
	want := gold
	want.Dex = ""                                          // the answer names the dex by index only
	want.Perp.MarginMode, want.Perp.IsDelisted = "", false // the precompile does not say
	assert.Equal(t, want, p)
	sp, err := spotInfo.Result()
	require.NoError(t, err)
	assert.Equal(t, hyper.Market{Key: "@107", Kind: hyper.KeySpotIndex, Name: "@107", Index: 107, Asset: 10107, SzDecimals: -1,
		Spot: hyper.SpotPair{Index: 107, Name: "@107", Base: 150, Quote: 0}, Base: hyper.Token{Index: 150}, Quote: hyper.Token{Index: 0}}, sp)
	tk, err := tokenInfo.Result()
	require.NoError(t, err)
	assert.Equal(t, hyper.Token{Index: 150, Name: "HYPE", SzDecimals: 2, WeiDecimals: 8, Spots: []int{107, 207}}, tk)
	assert.Equal(t, hype.Base.Spots, tk.Spots, "the metadata's Spots are the precompile's")

	eq, err := equity.Result()
	require.NoError(t, err)
	assert.Equal(t, vault, eq.VaultAddress)
	assertDec(t, "688536.031488", eq.Equity, "vault equity")
	assert.Equal(t, time.Date(2025, 1, 24, 5, 48, 51, 869e6, time.UTC), eq.LockedUntil)

	// The user's state the server does not hold reads as zero.
	ps, err := pos.Result()
	require.NoError(t, err)
	assert.True(t, ps.Size.IsZero() && ps.EntryNotional.IsZero() && ps.Leverage == 0 && !ps.Isolated)
	sb, err := bal.Result()
	require.NoError(t, err)
	assert.True(t, sb.Total.IsZero() && sb.Hold.IsZero())
	w, err := wd.Result()
	require.NoError(t, err)
	assert.True(t, w.IsZero())
	su, err := staking.Result()
	require.NoError(t, err)
	assert.Zero(t, su.PendingWithdrawals)
	assert.Empty(t, su.Delegations)
	assert.NotNil(t, su.Delegations)
	ms, err := margin.Result()
	require.NoError(t, err)
	assert.True(t, ms.AccountValue.IsZero())

	_, err = bal0.Result()
	var re *nodeaccess.RPCError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, -32601, re.Code)

	// One JSON-RPC batch: one HTTP request to /{key}/evm, each call with
	// its explicit gas.
	reqs := srv.Received()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/{key}/evm", reqs[0].Path)
	var calls []struct {
		Method string
		Params []json.RawMessage
	}
	require.NoError(t, json.Unmarshal(reqs[0].Body, &calls))
	assert.Len(t, calls, 20)
	for _, call := range calls[:19] {
		var obj struct{ To, Gas, Data string }
		require.NoError(t, json.Unmarshal(call.Params[0], &obj))
		assert.Equal(t, "eth_call", call.Method)
		assert.True(t, strings.HasPrefix(obj.To, "0x00000000000000000000000000000000000008"), obj.To)
		gas, err := strconv.ParseUint(obj.Gas[2:], 16, 64)
		require.NoError(t, err, "every read sends its gas")
		// Enough for the answer (the server refuses less, as HyperEVM does),
		// and below HyperEVM's eth_call cap of 30M.
		assert.Less(t, gas, uint64(30_000_000), obj.To)
		assert.Equal(t, `"latest"`, string(call.Params[1]))
	}
}

// The relation between a vault equity read from the precompile and from
// userVaultEquities, for every vault of the user: the precompile's equity
// is the API's rounded to millionths of a USD, and the lock-up end is the
// same time. hypertest serves both from one body.
func TestVaultEquityBothWays(t *testing.T) {
	srv, c, _ := coreClient(t)
	ctx := context.Background()
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	lock := time.Date(2030, 1, 2, 3, 4, 5, 678e6, time.UTC)
	require.NoError(t, srv.SetVaultEquities(user, []hyper.VaultEquity{
		{VaultAddress: common.HexToAddress("0x01"), Equity: dec("688536.0314879999"), LockedUntil: lock},
		{VaultAddress: common.HexToAddress("0x02"), Equity: dec("100.003834")},
		{VaultAddress: common.HexToAddress("0x03"), Equity: dec("0.0000005")}, // half a millionth: rounds up
		{VaultAddress: common.HexToAddress("0x04"), Equity: dec("18446744073709.551615")},
	}))
	for _, u := range []common.Address{hypertest.DefaultUser(), user} {
		api, err := c.UserVaultEquities(ctx, u)
		require.NoError(t, err)
		require.NotEmpty(t, api)
		var b evm.Batch
		core := c.Core(&b)
		reads := make([]*hypercore.Read[hyper.VaultEquity], len(api))
		for i, v := range api {
			reads[i] = core.VaultEquity(u, v.VaultAddress)
		}
		require.NoError(t, c.EVM().SendBatch(ctx, &b))
		for i, v := range api {
			pre, err := reads[i].Result()
			require.NoError(t, err)
			assert.True(t, pre.Equity.Equal(v.Equity.Round(6)), "%s: precompile %s, API %s", v.VaultAddress, pre.Equity, v.Equity)
			assert.LessOrEqual(t, -pre.Equity.Exponent(), int32(6))
			assert.Equal(t, v.LockedUntil, pre.LockedUntil)
			assert.Equal(t, v.VaultAddress, pre.VaultAddress)
		}
	}

	// A vault of another user's: zero; an address that is no vault: the
	// precompile's error.
	var b evm.Batch
	core := c.Core(&b)
	other, none := core.VaultEquity(user, common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d")), core.VaultEquity(user, common.HexToAddress("0x05"))
	require.NoError(t, c.EVM().SendBatch(ctx, &b))
	v, err := other.Result()
	require.NoError(t, err)
	assert.True(t, v.Equity.IsZero() && v.LockedUntil.IsZero())
	_, err = none.Result()
	assert.ErrorIs(t, err, hypercore.ErrPrecompile)
}

// A read the precompile refuses fails alone, with ErrPrecompile over the
// node's error; the other reads of the batch have their values.
func TestCoreReadErrorsAreTheirOwn(t *testing.T) {
	_, c, markets := coreClient(t)
	btc := market(t, markets, "BTC")
	ghost := btc
	ghost.Index = 9999 // no such perp
	var b evm.Batch
	core := c.Core(&b)
	good, bad, badToken, badDex, good2 := core.Price(btc), core.Price(ghost), core.TokenInfo(99999), core.MarginSummary(7, hypertest.DefaultUser()), core.L1BlockNumber()
	require.NoError(t, c.EVM().SendBatch(context.Background(), &b))
	_, err := good.Result()
	require.NoError(t, err)
	_, err = good2.Result()
	require.NoError(t, err)
	for name, err := range map[string]error{"markPx": second(bad.Result()), "tokenInfo": second(badToken.Result()), "accountMarginSummary": second(badDex.Result())} {
		require.ErrorIs(t, err, hypercore.ErrPrecompile, name)
		var re *nodeaccess.RPCError
		require.ErrorAs(t, err, &re, name)
		assert.Equal(t, -32003, re.Code)
		var op *nodeaccess.OpError
		require.ErrorAs(t, err, &op)
		assert.Equal(t, []string{"hyper", name}, []string{op.Chain, op.Op})
		assert.NotContains(t, err.Error(), "30000000", "%s: the read sent its own gas, not the node's cap", name)
	}
	assert.Contains(t, second(bad.Result()).Error(), `hyper: markPx: HyperCore read precompile failed: markPx of perp "BTC" (9999) (precompile 0x0000000000000000000000000000000000000806): `)
}

func second[T any](_ T, err error) error { return err }

// Input the SDK refuses: nothing is added to the batch, and the read's
// Result is the InputError naming the argument.
func TestCoreRefusesBadInput(t *testing.T) {
	_, c, markets := coreClient(t)
	btc, hype, side := market(t, markets, "BTC"), market(t, markets, "@107"), market(t, markets, "#20")
	user := hypertest.DefaultUser()
	var b evm.Batch
	core := c.Core(&b)
	for _, tc := range []struct {
		err  error
		arg  string
		want string
	}{
		{second(core.OraclePx(hype).Result()), "perp", `market "@107" is a spot index, not a perp`},
		{second(core.Price(side).Result()), "market", `market "#20" is of kind outcome: want a perp or a spot pair`},
		{second(core.Price(hyper.Market{Kind: hyper.KeySpotIndex, Key: "@1", Index: 1, SzDecimals: -1}).Result()), "market", `spot pair "@1": index 1 with -1 size decimals is not a spot pair`},
		{second(core.BBO(side).Result()), "market", "an outcome side: its prices have no documented scale"},
		{second(core.BBO(hyper.Market{}).Result()), "market", "a market of kind unknown: want a perp or a spot pair"},
		{second(core.Position(common.Address{}, btc).Result()), "user", "the zero address is not a user (is the address unset?)"},
		{second(core.VaultEquity(user, common.Address{}).Result()), "vault", "the zero address is not a vault (is the address unset?)"},
		{second(core.Price(hyper.Market{Kind: hyper.KeyBuilderDex, Key: "x:Y", DexIndex: 1 << 30}).Result()), "perp", `perp "x:Y": dex index 1073741824 is out of range`},
		{second(core.Price(hyper.Market{Kind: hyper.KeyPerp, Key: "Z", Index: 10000}).Result()), "perp", `perp "Z": index 10000 of dex 0 with 0 size decimals is not a perp`},
		{second(core.SpotBalance(user, hyper.Token{Index: -1}).Result()), "token", "token index -1 with 0 wei decimals is not a token"},
		{second(core.AssetInfo(-1).Result()), "asset", "asset id -1 is not a perp or a spot pair"},
		{second(core.AssetInfo(100000021).Result()), "asset", "asset id 100000021 is not a perp or a spot pair"},
		{second(core.TokenInfo(-2).Result()), "token", "token index -2 is out of range"},
		{second(core.MarginSummary(-1, user).Result()), "dex", "perp dex index -1 is out of range"},
		{second(core.Withdrawable(common.Address{}).Result()), "user", "the zero address is not a user (is the address unset?)"},
		{second(hypercore.Core{}.L1BlockNumber().Result()), "core", "not made by Reads with a non-nil *evm.Batch"},
		{second(c.Core(nil).L1BlockNumber().Result()), "core", "not made by Reads with a non-nil *evm.Batch"},
	} {
		var ie *nodeaccess.InputError
		require.ErrorAs(t, tc.err, &ie, tc.want)
		assert.Equal(t, tc.arg, ie.Arg)
		assert.Equal(t, tc.want, ie.Reason)
		assert.ErrorIs(t, tc.err, nodeaccess.ErrInvalidInput)
		var op *nodeaccess.OpError
		require.ErrorAs(t, tc.err, &op)
		assert.Equal(t, "hyper", op.Chain)
	}
	// Nothing was added: the batch is empty and sends nothing.
	require.NoError(t, c.EVM().SendBatch(context.Background(), &b))

	// A read of a batch not sent yet.
	var b2 evm.Batch
	r := c.Core(&b2).L1BlockNumber()
	_, err := r.Result()
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Contains(t, fmt.Sprint(err), "hyper: l1BlockNumber: invalid input: batch: not sent")
	var nilRead *hypercore.Read[uint64]
	_, err = nilRead.Result()
	require.ErrorAs(t, err, &ie)
}

// Staking is two calls of the batch (delegatorSummary 0x…0805 and
// delegations 0x…0804) that make one value: the sums of one answer and the
// delegations of the other; when one of them fails, the read fails with
// that call's error.
func TestStakingJoinsItsTwoCalls(t *testing.T) {
	srv, c, _ := coreClient(t)
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	in := common.LeftPadBytes(user.Bytes(), 32)
	word := func(v uint64) []byte { return common.LeftPadBytes(new(big.Int).SetUint64(v).Bytes(), 32) }
	summary := append(append(append(word(250_000_000), word(1_000_000)...), word(300_000_000)...), word(2)...)
	require.NoError(t, srv.SetPrecompile(common.HexToAddress("0x0805"), in, summary))
	dels := append(append(append(append(word(0x20), word(1)...), common.LeftPadBytes(common.HexToAddress("0xdead").Bytes(), 32)...),
		word(1_000_000_000)...), word(1737697731869)...)
	require.NoError(t, srv.SetPrecompile(common.HexToAddress("0x0804"), in, dels))

	var b evm.Batch
	st := c.Core(&b).Staking(user)
	require.NoError(t, c.EVM().SendBatch(context.Background(), &b))
	s, err := st.Result()
	require.NoError(t, err)
	assert.Equal(t, []string{"2.5", "0.01", "3", "2"}, []string{s.Delegated.String(), s.Undelegated.String(), s.PendingWithdrawal.String(), strconv.Itoa(s.PendingWithdrawals)})
	require.Len(t, s.Delegations, 1)
	assert.Equal(t, hypercore.Delegation{Validator: common.HexToAddress("0xdead"), Amount: dec("10"), LockedUntil: time.UnixMilli(1737697731869).UTC()},
		hypercore.Delegation{Validator: s.Delegations[0].Validator, Amount: s.Delegations[0].Amount.Truncate(0), LockedUntil: s.Delegations[0].LockedUntil})

	// The delegations' answer malformed: the read fails with that call's error.
	require.NoError(t, srv.SetPrecompile(common.HexToAddress("0x0804"), in, word(7)))
	var b2 evm.Batch
	st = c.Core(&b2).Staking(user)
	require.NoError(t, c.EVM().SendBatch(context.Background(), &b2))
	_, err = st.Result()
	require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
	assert.Contains(t, err.Error(), "hyper: delegations")
}
