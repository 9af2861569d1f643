// Package hypertest is a local Hyperliquid for tests and examples, in the
// way of net/http/httptest: a provider's node and the official public API,
// both on 127.0.0.1, speaking the /info wire the hyper package speaks and
// answering HyperEVM's read precompiles, with data the test sets and faults
// on demand.
//
// # What is served
//
// New starts two servers in one *Server:
//
//   - the node, at Server.URL with the access key Server.Key() (random unless
//     WithKey sets it): POST {URL}/{key}/info serves userVaultEquities and
//     the requests set with SetInfo. Like a node-access provider's node it
//     answers HTTP 422 with the text/plain body "Failed to deserialize the
//     JSON body into the target type" to every other request, allMids
//     included, which providers leave to the public API.
//   - the public API, at Server.Public.URL, without a key: POST {Public.URL}/info
//     serves allMids (with or without "dex") as well, and answers 422 to
//     other requests.
//
// Both serve the market metadata hyper's Client.Markets asks for (spotMeta,
// perpDexs, meta with or without "dex", outcomeMeta), consistent with the
// mids (see Default data), as answers set with SetInfo that a test may
// replace.
//
// The node also serves the chain's EVM at POST {URL}/{key}/evm, as far as
// hyper's Core reads need it: JSON-RPC 2.0, one call or a batch, eth_call
// to HyperEVM's read precompiles 0x…0800 to 0x…0813 answered with the ABI
// encoding of hyper-evm-lib's structs (data/SOURCES.md), built from the
// server's data:
//
//   - prices from the mids: markPx and oraclePx of a perp its mid
//     × 10^(6 - szDecimals), spotPx of a pair its mid × 10^(8 - the base's
//     szDecimals), bbo both sides at the mid (0 for a market without a
//     mid), rounded to an integer;
//   - perpAssetInfo, spotInfo and tokenInfo from the metadata (a token's
//     spots are the pairs it is the base of);
//   - the vault equity precompile from userVaultEquities: the equity in
//     millionths of a USD, round(equity × 10^6), and the same lock-up end,
//     so that a test sees both reads agree; zeros for a vault of another
//     user's, an error for an address that is no vault;
//   - positions, spot balances, withdrawable, delegations, delegator and
//     margin summaries: zeros (an empty list), the server holding no such
//     state; SetPrecompile sets any answer byte for byte;
//   - the L1 block number: 800000000, hand-written.
//
// As on HyperEVM, a read of an index the data does not hold (a perp, pair,
// token or dex that does not exist), and a read of the precompiles the
// server does not model (tokenSupply, coreUserExists, the borrow-lend
// reads) unless SetPrecompile set it, fails with the node's error -32003
// "out of gas: gas exhausted during precompiled contract execution: <gas>",
// naming the call's gas (30000000, the eth_call cap, when it sent none); so
// does a call whose gas is below 21000, its call data's and the
// precompile's 2000 + 65 × (input + output bytes). An eth_call to any other
// address answers "0x"; other methods -32601. A test that needs more of the
// EVM may take the endpoint over with HandleFunc("POST /{key}/evm", …).
//
// Both read the body as the real server does: a JSON object whose "type" is
// a string; "user" must be a string of "0x" and 40 hex digits (either case);
// "dex" a string, absent or null (for meta as for allMids: "", null and
// absent are the first perp dex); other members are ignored. A malformed
// body gets the same 422 as an unserved type, as from Hyperliquid. A
// Content-Type other than JSON gets 415.
//
// Answers are application/json bodies, byte for byte what was set. A user
// without data gets [] (what Hyperliquid answers to a user without
// deposits). allMids for a dex without data answers null with HTTP 200 (the
// public API's answer to a dex it does not know, which hyper's AllMids
// reports as nodeaccess.ErrNotFound); for the first perp dex "" without data it answers
// {}.
//
// The wrong key gets 403, a path neither server serves 404, GET on an /info
// path 405, each with a text/plain body; a fault of status 429 or 5xx
// answers Hyperliquid's JSON null, 422 its text.
//
// # Default data
//
// Without options the server answers with recorded data (data/SOURCES.md)
// and a few hand-written keys of forms no recorded body shows:
//
//   - userVaultEquities for DefaultUser() (0x2b804617c6f63c040377e95bb276811747006f4b):
//     the recorded body with two vaults, equities 688536.0314879999 and
//     100.003834, locked until 2025-01-24T05:48:51.869Z and
//     2025-06-13T23:27:19.3Z;
//   - allMids of the first perp dex "": a recorded body (data/SOURCES.md)
//     cut to the spot pairs the recorded spot metadata lists, 422 keys
//     (perps such as "BTC": "89926.5", "PURR/USDC", 198 "@N" keys from "@1"
//     to "@209"), and four hand-written HIP-4 outcome sides ("#10":
//     "0.735", "#11", "#20", "#21": "0.4875"; not market data), 426 keys in
//     all;
//   - allMids of BuilderDex ("xyz"): two hand-written keys, "xyz:CL" and
//     "xyz:GOLD", to show the builder-dex key form (not market data);
//   - the metadata of those mids: spotMeta (recorded, 199 pairs and 342
//     tokens), meta of the first perp dex (recorded the day of the mids,
//     223 perps) and of xyz (recorded, 43 perps with "xyz:CL" and
//     "xyz:GOLD"), perpDexs listing the first perp dex and xyz (the
//     recorded body's first two entries), and a hand-built outcomeMeta
//     naming outcomes 1 and 2 (side names "Yes" and "No" for outcome 1,
//     "Hypurr" and "Usain Bolt" for outcome 2). Every key the server serves
//     resolves through its own metadata (hyper's Markets.Market): the
//     recorded mids are four months newer than the recorded spot metadata,
//     and the 60 "@N" keys of pairs listed in between are left out.
//
// WithoutDefaults starts empty (and with the metadata of an exchange
// without markets: no tokens, pairs, perps or outcomes, perpDexs [null]); SetVaultEquities, SetMids and SetInfo
// change the data at any time, from any goroutine. The typed setters take
// the SDK's own types or the wire's decimal strings and keep every digit:
// an equity decimal.RequireFromString("100.50") is served as "100.50".
// SetInfo sets the answer to any request, byte for byte: a request type
// the test sends with hyper's Info or PublicInfo (meta, spotMeta, …), or a
// body the typed setters cannot write.
//
// # Faults
//
// The node is the embedded *nodeaccesstest.Server and the public API is
// Server.Public; each takes its own faults:
//
//	srv.FailNext(2, nodeaccesstest.ServerError(500))         // node: 500 null, twice
//	srv.Public.FailNext(1, nodeaccesstest.RateLimited(time.Second)) // public: 429 + Retry-After: 1
//
// Hyperliquid's 500 with the body null is retried by the hyper client, as
// are 429 and 502-504.
//
// # Use in a test
//
//	func TestDashboard(t *testing.T) {
//		srv := hypertest.NewT(t) // New, closed when the test ends, t.Fatal if it cannot start
//		c, err := srv.Client() // hyper.New(srv.URL, srv.Key(), hyper.WithPublicURL(srv.Public.URL))
//		if err != nil {
//			t.Fatal(err)
//		}
//		vaults, err := c.UserVaultEquities(ctx, hypertest.DefaultUser())
//		// vaults[0].Equity is 688536.0314879999
//	}
package hypertest
