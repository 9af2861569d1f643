// Package hyper calls Hyperliquid through a node-access service: any /info
// request, on the provider's node or on Hyperliquid's official public API,
// typed calls for userVaultEquities and allMids, the market metadata that
// names every mid, the chain's EVM (through the evm package), and typed
// reads of HyperCore's state from it, through HyperEVM's read precompiles.
//
// A Client is made from the node's base URL and the access key, and talks to
// two places:
//
//   - the node, POST {base}/{key}/info: Info sends any request there, and
//     UserVaultEquities is typed;
//   - the official public API, POST {public}/info, which serves every
//     request type, those the node does not serve included: PublicInfo
//     sends any request there, and AllMids is typed. The public API is
//     https://api.hyperliquid.xyz unless WithPublicURL chose another (TestnetAPIURL, a
//     proxy), and it never receives the key: its requests go through a
//     keyless transport of their own (a public URL or a request body that
//     holds the key is refused, and the key is masked in everything that
//     transport reports).
//
// Info and PublicInfo take the request as any value that encoding/json
// marshals to a JSON object with a "type" (a struct, a map, a
// json.RawMessage) and decode the answer into the value out points to. The
// typed calls go the same way, with bodies and decoders of their own, so
// that every request has the same retries, hooks, key masking, errors and
// budget:
//
//	c, err := hyper.New("https://hyperliquid.node.example", key)
//	vaults, err := c.UserVaultEquities(ctx, user)
//	mids, err := c.AllMids(ctx, "")      // the first perp dex, spot included
//	xyz, err := c.AllMids(ctx, "xyz")    // a builder-deployed perp dex
//	btc, ok := mids.Get("BTC")        // btc.Price is the mid price
//	var state json.RawMessage
//	err = c.Info(ctx, &state, map[string]string{"type": "clearinghouseState", "user": user.Hex()})
//	var meta struct{ Universe []struct{ Name string } }
//	err = c.PublicInfo(ctx, &meta, map[string]string{"type": "meta"})
//	out, err := c.EVM().Call(ctx, evm.CallMsg{To: token, Data: calldata}, evm.Latest)
//
// Request units and budgets: each request names its type, and
// nodeaccess.WithCost(type, n) sets its cost. The node's requests cost 1
// unit by default and are charged to the node-access plan's budget, nodeaccess.WithBudget, when one is set. The
// public API has a limit of its own, published by Hyperliquid: a weight of
// 1200 per minute and IP, each request type weighing 2, 20 or 60 (see
// PublicInfo). Every Client keeps to it by default with a budget of its
// own (1200 in any minute); WithPublicBudget shares one between
// clients (the limit is per IP) or puts another limiter in its place, and
// WithPublicBudget(nil) turns it off.
//
// Options are those of New only (the options every client takes, and this
// package's WithPublicURL and WithPublicBudget): no call takes options of
// its own.
//
// HyperEVM, at {base}/{key}/evm, and the reads of HyperCore's state through
// its precompiles are package hypercore's (hypercore.New, hypercore.Reads),
// so that a program of /info alone links no part of the EVM.
//
// NewFromURL takes the node's whole endpoint as providers show it, in
// exactly three shapes: https://host/<KEY>, https://host/<KEY>/info and
// https://host/<KEY>/evm (as hypercore.NewFromURL does). It refuses any other path (a segment before the
// key, or another after it), so that no segment is taken for the key by a
// guess and shown unmasked; call New for a base URL with a path.
//
// # Types
//
// Equities and prices are decimal.Decimal values holding the digits exactly
// as the server wrote them (never a float): 688536.0314879999 stays that
// number. Numbers are read whether the server sends them as JSON strings or
// as JSON numbers. The lock-up end of a vault deposit is a time.Time in UTC.
// Addresses are common.Address; evm.ParseAddress reads one from text as a
// person types it and refuses anything but "0x" and 40 hex digits (with a
// valid EIP-55 checksum when the case is mixed).
//
// allMids returns keys in five forms: perp symbols ("BTC"), the named spot
// pair "PURR/USDC", spot index keys ("@107", an index into the spot
// metadata's universe), builder-dex keys ("xyz:CL") and the sides of HIP-4
// outcome markets ("#20", "#21": N = 10*outcome + side, priced between 0
// and 1). Mids tells them apart (KeyKind), looks keys up in one map access
// and iterates in key order; KeyPerp is the kind of the
// perp symbols only, never of an outcome side, and a key led by a marker the
// SDK does not know is KeyUnknown, not a perp.
//
// # What an item the SDK cannot fully read costs
//
// A member that identifies an item or carries its value (an index, a
// name, decimals, an address, an equity, a price) that cannot be read makes
// the answer an error matching nodeaccess.ErrInvalidResponse, naming the
// item. Any other member (isCanonical, tokenId, fullName, maxLeverage, a
// vault's lockedUntilTimestamp, …) that cannot be read costs neither: its
// field is left as when not sent, and the item names it in Unread.
// marginMode is kept as sent.
//
// # Markets: a name for every key
//
// Markets fetches the market metadata from the public API (spotMeta,
// perpDexs, meta of each perp dex, outcomeMeta) and keeps it, and
// Markets.Market says what each key names: the spot pair "@107" is
// HYPE/USDC with base token HYPE (2 size decimals), "BTC" the perp of index
// 0 (5), "xyz:GOLD" perp 3 of builder dex xyz (index 1 in perpDexs), "#21"
// side 1 of outcome 2 with that side's name as the metadata gives it (the
// SDK never assumes "Yes" or "No"). A spot pair is also found by its
// tokens' names, Market("HYPE/USDC"). A key the metadata does not cover (a
// market listed since it was fetched) is no error: Market reports it
// unresolved, and the client fetches the metadata again sooner:
//
//	markets, err := c.Markets(ctx) // cached; fetched again after 10 minutes, or 1 after a miss
//	mids, err := c.AllMids(ctx, "")
//	for key, mid := range mids.All() {
//		if m, ok := markets.Market(key); ok {
//			fmt.Println(m.Name, m.SzDecimals, mid.Price) // "HYPE/USDC 2 28.718"
//		}
//	}
//
// A fetch weighs 80 + 20 per builder dex in the public API's weight
// budget; AllMids stays one request of weight 2, and needs no metadata.
//
// # Errors
//
// Errors are those of the nodeaccess package, wrapped once in a
// *nodeaccess.OpError naming "hyper" and the request type
// ("hyper: userVaultEquities: …"). A server's answer outside 2xx is a
// *nodeaccess.HTTPError whose Message holds the server's text, where its body
// has one. In addition:
//
//   - HTTP 422 with "Failed to deserialize the JSON body into the target
//     type" matches ErrUnsupportedRequest (and *nodeaccess.HTTPError): the
//     body was malformed, or the node does not serve that request type
//     (node-access services serve only part of /info; the public API serves
//     the rest).
//   - HTTP 500 with the body null, which Hyperliquid servers answer now and
//     then to valid requests, is retried like 502-504; so is 429, which ends
//     as nodeaccess.ErrRateLimited when the retries run out.
//   - A 2xx body that is not the expected JSON (an HTML page, truncated
//     JSON, a price that is not a decimal, an answer that does not decode
//     into Info's out) matches nodeaccess.ErrInvalidResponse.
//   - AllMids for a dex the public API does not know matches
//     nodeaccess.ErrNotFound.
package hyper
