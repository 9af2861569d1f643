package hyper_test

import (
	"context"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// The user of the recorded userVaultEquities body.
var recordedUser = common.HexToAddress("0x2b804617c6f63c040377e95bb276811747006f4b")

func TestUserVaultEquitiesWire(t *testing.T) {
	c := gockClient(t)
	mockInfo(t, nodeInfo,
		`{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4b"}`,
		fixture(t, "userVaultEquities_2025-08.json"))
	got, err := c.UserVaultEquities(context.Background(), recordedUser)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, common.HexToAddress("0x07fd993f0fa3a185f7207adccd29f7a87404689d"), got[0].VaultAddress)
	assert.Equal(t, "688536.0314879999", got[0].Equity.String())
	assert.Equal(t, time.Date(2025, 1, 24, 5, 48, 51, 869e6, time.UTC), got[0].LockedUntil)
	assert.Equal(t, common.HexToAddress("0x7f6ce756bdee0db22a8fbda15aa48023aae5a8be"), got[1].VaultAddress)
	assert.Equal(t, "100.003834", got[1].Equity.String())
	assert.Equal(t, int64(1749857239300), got[1].LockedUntil.UnixMilli())
}

// The address goes out in lower case whatever case the caller wrote.
func TestUserVaultEquitiesLowerCasesTheUser(t *testing.T) {
	const body = `{"type":"userVaultEquities","user":"0x07fd993f0fa3a185f7207adccd29f7a87404689d"}`
	for _, s := range []string{
		"0x07Fd993f0fA3A185F7207ADcCD29f7A87404689D", // EIP-55
		"0x07fd993f0fa3a185f7207adccd29f7a87404689d",
		"0x07FD993F0FA3A185F7207ADCCD29F7A87404689D",
		"0X07fd993f0fa3a185f7207adccd29f7a87404689d",
	} {
		t.Run(s, func(t *testing.T) {
			c := gockClient(t)
			mockInfo(t, nodeInfo, body, `[]`)
			user, err := evm.ParseAddress(s)
			require.NoError(t, err)
			got, err := c.UserVaultEquities(context.Background(), user)
			require.NoError(t, err)
			assert.NotNil(t, got)
			assert.Empty(t, got)
		})
	}
}

func TestAllMidsWire(t *testing.T) {
	recorded := fixture(t, "allMids_2025-12.json")
	cases := []struct {
		name string
		dex  string
		body string
		resp string
	}{
		{"first perp dex", "", `{"type":"allMids"}`, recorded},
		{"builder dex", "xyz", `{"type":"allMids","dex":"xyz"}`,
			`{"xyz:CL":"60.123","xyz:XYZ100":"25431.5","xyz:GOLD":"4210.25"}`},
		{"every name character", "xyz_2-b", `{"type":"allMids","dex":"xyz_2-b"}`, `{}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t)
			mockInfo(t, mainnetAPIURL+"/info", tc.body, tc.resp)
			mids, err := c.AllMids(context.Background(), tc.dex)
			require.NoError(t, err)
			switch tc.name {
			case "builder dex":
				assert.Equal(t, 3, mids.Len())
				assert.Equal(t, 3, countKind(mids, hyper.KeyBuilderDex))
				m, ok := mids.Get("xyz:CL")
				require.True(t, ok)
				assert.Equal(t, hyper.Mid{Key: "xyz:CL", Kind: hyper.KeyBuilderDex, Price: decimal.RequireFromString("60.123"), Dex: "xyz", Coin: "CL"}, m)
			case "every name character":
				assert.Zero(t, mids.Len())
			default:
				assert.Equal(t, 482, mids.Len())
				pMid, ok := mids.Get("BTC")
				p := pMid.Price
				require.True(t, ok)
				assert.Equal(t, "89926.5", p.String())
			}
		})
	}
}

func TestPublicURLOptions(t *testing.T) {
	cases := []struct {
		name string
		opts []nodeaccess.Option
		url  string
	}{
		{"default mainnet", nil, "https://api.hyperliquid.xyz/info"},
		{"testnet", []nodeaccess.Option{hyper.WithPublicURL(hyper.TestnetAPIURL)}, "https://api.hyperliquid-testnet.xyz/info"},
		{"any URL, trailing slash dropped", []nodeaccess.Option{hyper.WithPublicURL("https://proxy.example/hl/")}, "https://proxy.example/hl/info"},
		{"last one wins", []nodeaccess.Option{hyper.WithPublicURL(hyper.TestnetAPIURL), hyper.WithPublicURL("http://127.0.0.1:8080")}, "http://127.0.0.1:8080/info"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gockClient(t, tc.opts...)
			assert.Equal(t, "hyper.Client{node https://node.example/REDACTED/info, public "+tc.url+"}", c.String())
			mockInfo(t, tc.url, `{"type":"allMids"}`, `{"BTC":"30135.0"}`)
			mids, err := c.AllMids(context.Background(), "")
			require.NoError(t, err)
			pMid, _ := mids.Get("BTC")
			p := pMid.Price
			assert.Equal(t, "30135", p.String())
			// The node's requests still go to the node.
			mockInfo(t, nodeInfo, `{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4b"}`, `[]`)
			_, err = c.UserVaultEquities(context.Background(), recordedUser)
			require.NoError(t, err)
		})
	}
}

// Hook payloads of both endpoints: the node's URL masked, the public one
// without any key.
func TestHookSeesBothEndpoints(t *testing.T) {
	var seen testkit.Recorder
	c := gockClient(t, nodeaccess.WithHook(seen.Hook))
	mockInfo(t, nodeInfo, `{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4b"}`, `[]`)
	mockInfo(t, mainnetAPIURL+"/info", `{"type":"allMids"}`, `{}`)
	_, err := c.UserVaultEquities(context.Background(), recordedUser)
	require.NoError(t, err)
	_, err = c.AllMids(context.Background(), "")
	require.NoError(t, err)
	got := seen.Attempts()
	require.Len(t, got, 2)
	assert.Equal(t, []string{"hyper", "userVaultEquities", "https://node.example/REDACTED/info"}, []string{got[0].Chain, got[0].Op, got[0].URL})
	assert.Equal(t, []string{"hyper", "allMids", "https://api.hyperliquid.xyz/info"}, []string{got[1].Chain, got[1].Op, got[1].URL})
}

// The HyperEVM client (hypercore.New) lives at {base}/{key}/evm and takes
// the options every client takes, beside the /info client made with the
// same ones.
func TestEVMWire(t *testing.T) {
	var seen testkit.Recorder
	shared := []nodeaccess.Option{nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t)), nodeaccess.WithMaxAttempts(2), nodeaccess.WithHook(seen.Hook)}
	c := gockClient(t, append(shared, hyper.WithPublicURL(hyper.TestnetAPIURL), hyper.WithPublicURL("https://proxy.example"))...)
	e, err := hypercore.New(testBase, testKey, shared...)
	require.NoError(t, err)
	assert.Equal(t, "evm.Client{https://node.example/REDACTED/evm}", e.String())

	token := common.HexToAddress("0xb88339CB7199b77E23DB6E890353E22632Ba630f")
	evmURL := testBase + "/" + testKey + "/evm"
	gock.New(evmURL).Post("/").
		AddMatcher(exactRequest(t, evmURL, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xb88339cb7199b77e23db6e890353e22632ba630f","data":"0x313ce567"},"latest"]}`, false)).
		Reply(200).SetHeader("Content-Type", "application/json").
		BodyString(`{"jsonrpc":"2.0","id":1,"result":"0x0000000000000000000000000000000000000000000000000000000000000006"}`)
	out, err := e.Call(context.Background(), evm.CallMsg{To: token, Data: common.FromHex("0x313ce567")}, evm.Latest)
	require.NoError(t, err)
	assert.Equal(t, int64(6), new(big.Int).SetBytes(out).Int64())

	tx := common.HexToHash("0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060")
	gock.New(evmURL).Post("/").
		AddMatcher(exactRequest(t, evmURL, `{"jsonrpc":"2.0","id":2,"method":"ots_getInternalOperations","params":["0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060"]}`, false)).
		Reply(200).SetHeader("Content-Type", "application/json").
		BodyString(`{"jsonrpc":"2.0","id":2,"result":[{"type":0,"from":"0x2b804617c6f63c040377e95bb276811747006f4b","to":"0xb88339cb7199b77e23db6e890353e22632ba630f","value":"0x2386f26fc10000"}]}`)
	ops, err := e.InternalOperations(context.Background(), tx)
	require.NoError(t, err)
	require.Len(t, ops, 1)
	assert.Equal(t, evm.Transfer, ops[0].Type)
	assert.Equal(t, recordedUser, ops[0].From)
	assert.Equal(t, "10000000000000000", ops[0].Value.String())

	// The shared hook reached the EVM client.
	got := seen.Attempts()
	require.Len(t, got, 2)
	assert.Equal(t, []string{"evm", "eth_call", "https://node.example/REDACTED/evm"}, []string{got[0].Chain, got[0].Op, got[0].URL})
	assert.Equal(t, "ots_getInternalOperations", got[1].Op)
	// The public URL option applied to the hyper client.
	assert.Equal(t, "hyper.Client{node https://node.example/REDACTED/info, public https://proxy.example/info}", c.String())
}

// Bad input is refused before anything is sent: no mock is registered, and
// the fallback transport fails the test on any request.
func TestBadInputSendsNothing(t *testing.T) {
	c := gockClient(t)
	ctx := context.Background()
	check := func(err error, arg, want string) {
		t.Helper()
		oe, _ := testkit.RequireInputError(t, err, arg)
		assert.Equal(t, "hyper", oe.Chain)
		assert.Equal(t, want, err.Error())
	}
	// Text that is not an address is refused by ParseAddress, before any
	// call.
	users := map[string]string{
		"": `invalid input: address: want 0x and 40 hex digits (42 characters), got 0 characters`,
		"0x2b804617c6f63c040377e95bb276811747006f4":   `invalid input: address: want 0x and 40 hex digits (42 characters), got 41 characters`,
		"0x2b804617c6f63c040377e95bb276811747006f4b0": `invalid input: address: want 0x and 40 hex digits (42 characters), got 43 characters`,
		"002b804617c6f63c040377e95bb276811747006f4b":  `invalid input: address: want 0x and 40 hex digits: the 42 characters do not start with 0x`,
		"0x2b804617c6f63c040377e95bb276811747006f4g":  `invalid input: address: want 0x and 40 hex digits: character 42 is not a hex digit`,
		" 0x2b804617c6f63c040377e95bb276811747006f4b": `invalid input: address: want 0x and 40 hex digits (42 characters), got 43 characters`,
		"0x07Fd993f0fA3A185F7207ADcCD29f7A87404689d":  `invalid input: address: the mixed case does not match the address's EIP-55 checksum: check it for a typo`,
		"vault.eth": `invalid input: address: want 0x and 40 hex digits (42 characters), got 9 characters`,
	}
	for s, want := range users {
		a, err := evm.ParseAddress(s)
		var ie *nodeaccess.InputError
		require.ErrorAs(t, err, &ie, s)
		assert.Equal(t, "address", ie.Arg)
		assert.Equal(t, strings.Replace(want, "address: ", "address: "+strconv.Quote(s)+": ", 1), err.Error())
		assert.Zero(t, a)
	}
	_, err := c.UserVaultEquities(ctx, common.Address{})
	check(err, "user", "hyper: userVaultEquities: invalid input: user: the zero address is not a user (is the address unset?)")

	dexes := map[string]string{
		"x y":                               `hyper: allMids: invalid input: dex: "x y" is not a dex name: want ASCII letters, digits, '-' or '_'`,
		"xyz:":                              `hyper: allMids: invalid input: dex: "xyz:" is not a dex name: want ASCII letters, digits, '-' or '_'`,
		`x"y`:                               `hyper: allMids: invalid input: dex: "x\"y" is not a dex name: want ASCII letters, digits, '-' or '_'`,
		"dé":                                `hyper: allMids: invalid input: dex: "dé" is not a dex name: want ASCII letters, digits, '-' or '_'`,
		"x\n":                               `hyper: allMids: invalid input: dex: "x\n" is not a dex name: want ASCII letters, digits, '-' or '_'`,
		"../info":                           `hyper: allMids: invalid input: dex: "../info" is not a dex name: want ASCII letters, digits, '-' or '_'`,
		strings.Repeat("a", 33):             `hyper: allMids: invalid input: dex: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" is longer than 32 bytes`,
		"abcdefghijklmnopqrstuvwxyz012345!": `hyper: allMids: invalid input: dex: "abcdefghijklmnopqrstuvwxyz012345!" is longer than 32 bytes`,
	}
	for d, want := range dexes {
		_, err := c.AllMids(ctx, d)
		check(err, "dex", want)
	}
	assert.Empty(t, gock.GetUnmatchedRequests())
}

// A context that has ended sends nothing either.
func TestCancelledContextSendsNothing(t *testing.T) {
	c := gockClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.UserVaultEquities(ctx, recordedUser)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = c.AllMids(ctx, "")
	assert.ErrorIs(t, err, context.Canceled)
}

// evm.WithMaxBatchSize reaches the HyperEVM client: a batch of three calls
// goes as two requests of at most two calls to {base}/{key}/evm.
func TestEVMBatchSizeOption(t *testing.T) {
	var seen testkit.Recorder
	hev, err := hypercore.New(testBase, testKey, nodeaccess.WithHTTPClient(testkit.GockHTTPClient(t)), evm.WithMaxBatchSize(2), nodeaccess.WithHook(seen.Hook))
	require.NoError(t, err)
	a := common.HexToAddress("0xb88339CB7199b77E23DB6E890353E22632Ba630f")
	evmURL := testBase + "/" + testKey + "/evm"
	gock.New(evmURL).Post("/").
		AddMatcher(exactRequest(t, evmURL, `[`+
			`{"jsonrpc":"2.0","id":1,"method":"eth_getCode","params":["0xb88339cb7199b77e23db6e890353e22632ba630f","latest"]},`+
			`{"jsonrpc":"2.0","id":2,"method":"eth_getCode","params":["0x0000000000000000000000000000000000000001","latest"]}]`, false)).
		Reply(200).SetHeader("Content-Type", "application/json").
		BodyString(`[{"jsonrpc":"2.0","id":2,"result":"0x"},{"jsonrpc":"2.0","id":1,"result":"0x6001"}]`)
	gock.New(evmURL).Post("/").
		AddMatcher(exactRequest(t, evmURL, `[`+
			`{"jsonrpc":"2.0","id":3,"method":"eth_getCode","params":["0x0000000000000000000000000000000000000002","latest"]}]`, false)).
		Reply(200).SetHeader("Content-Type", "application/json").
		BodyString(`[{"jsonrpc":"2.0","id":3,"result":"0x6002"}]`)

	var b evm.Batch
	r0 := evm.Add[hexutil.Bytes](&b, "eth_getCode", a, evm.Latest)
	r1 := evm.Add[hexutil.Bytes](&b, "eth_getCode", common.HexToAddress("0x01"), evm.Latest)
	r2 := evm.Add[hexutil.Bytes](&b, "eth_getCode", common.HexToAddress("0x02"), evm.Latest)
	require.NoError(t, hev.SendBatch(context.Background(), &b))
	for i, want := range [][]byte{{0x60, 0x01}, {}, {0x60, 0x02}} {
		got, err := []*evm.BatchResult[hexutil.Bytes]{r0, r1, r2}[i].Result()
		require.NoError(t, err, i)
		assert.Equal(t, want, []byte(got), i)
	}
	got := seen.Attempts()
	require.Len(t, got, 2)
	assert.Equal(t, []int{2, 1}, []int{len(got[0].Batch), len(got[1].Batch)})
	assert.True(t, gock.IsDone())

	// A bad size is refused by New, naming the option.
	_, err = hypercore.New(testBase, testKey, evm.WithMaxBatchSize(0))
	require.Error(t, err)
	assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
	assert.Contains(t, err.Error(), "WithMaxBatchSize: 0 calls is below 1")
}
