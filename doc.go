// Package nodeaccess is a typed Go client SDK for blockchain node-access
// services: one module that reaches several chains through one provider, with
// exact types, typed errors, bounded retries, and an access key that never
// leaks.
//
// # Packages
//
// Each chain family has its own package; this root package holds what they
// share (options, errors, the attempt hook):
//
//   - [github.com/nodeaccess/nodeaccess/evm]: an EVM node's JSON-RPC (eth_call,
//     ots_getInternalOperations, eth_getCode). Client.ContractCaller is
//     go-ethereum's bind.ContractCaller, so abigen bindings read through it.
//   - [github.com/nodeaccess/nodeaccess/hyper]: Hyperliquid's /info
//     (userVaultEquities on the node, allMids on the public API, exact
//     decimals) and the chain's EVM through the evm package.
//   - [github.com/nodeaccess/nodeaccess/ton]: TON API v2
//     (getBlockTransactionsExt, REST or JSON-RPC) and v3 (accountStates,
//     pendingTransactions), with TON addresses, shard ids and page iterators.
//   - [github.com/nodeaccess/nodeaccess/beacon]: the Ethereum consensus
//     layer's full beacon state (phase0 to gloas), SSZ or JSON, decoded while
//     it streams, verified by its hash tree root.
//
// Every client is built the same way, from the node's base URL and the access
// key the provider issued, and is safe for concurrent use:
//
//	c, err := evm.New("https://node.example", key)
//
// The key is a secret path segment: the SDK puts it where each operation needs
// it, path-escaped, and masks it ("REDACTED") in every error, log line, hook
// payload and formatting of a client (see The access key below).
//
// # Testing without a network
//
// Each chain package has a local server for tests, in the way of
// net/http/httptest: [github.com/nodeaccess/nodeaccess/evm/evmtest] (a real
// EVM), [github.com/nodeaccess/nodeaccess/hyper/hypertest],
// [github.com/nodeaccess/nodeaccess/ton/tontest] and
// [github.com/nodeaccess/nodeaccess/beacon/beacontest]. Each serves its
// chain's wire on 127.0.0.1 with realistic default data, checks the key
// exactly, and fails on demand with the faults of
// [github.com/nodeaccess/nodeaccess/nodeaccesstest] (429 with Retry-After,
// 5xx, slow or truncated bodies, dropped connections). The programs in
// examples/ run against them by default: go run ./examples/quickstart.
//
// # Options
//
// Options are passed to a constructor and validated there; a bad option
// makes the constructor fail. The ones in this package apply to every chain:
// WithHTTPClient and WithRoundTripper replace the HTTP stack, WithMaxAttempts
// (1 turns retries off) and WithBackoff and WithMaxRetryAfter shape retries,
// WithTimeout sets the per-attempt timeout, WithMaxResponseBytes caps bodies,
// WithHook and WithLogger observe attempts (both get the caller's context,
// for its trace and span ids), WithBudget (nil turns an earlier one off)
// and WithCost spend a plan's request units, WithUserAgent adds to the
// User-Agent, and WithoutRPCIDCheck accepts JSON-RPC servers that do not echo
// request ids. Chain packages add their own (such as evm.WithPathSuffix).
// These configure a client once; calls take no options of their own, except
// the beacon package's reads of a state (beacon.ReadOption, which its
// decoders share; its package documentation says why).
//
// By default a call makes up to 3 attempts. It retries 429, 502, 503 and 504
// responses and connection failures (refused, reset, closed early, timed out)
// with exponential backoff and full jitter, honours a Retry-After header up to
// 30 s (a longer one ends the call with the server's error), and never waits
// past the context's deadline. Every operation of this SDK is a read, so a
// retry never repeats a side effect. Each attempt has a timeout (30 s for
// ordinary calls); the context bounds the call as a whole. When an attempt's
// own timeout ends it, the error matches ErrUnavailable (and
// context.DeadlineExceeded); when the caller's context ends the call, the
// error is that context's error. Each attempt runs under a context derived
// from the caller's (its values and cancellation kept), which ends with the
// attempt: when a call returns, nothing it started goes on (no goroutine,
// no timer, no reference to the caller's context), whatever kind of context
// the caller passed.
//
// The SDK's own HTTP transport keeps connections alive and pools up to 128
// idle connections per host, and does not follow redirects (a 3xx is an
// *HTTPError), so the key travels only to the host the user named. With
// WithHTTPClient, redirects within the origin (scheme, host and port) are
// followed as the user's client follows them, without a Referer header;
// a redirect to another origin never is, whatever the client's
// CheckRedirect says. No request carries the key in a header.
//
// # Request units and budgets
//
// Providers sell plans in request units per second and answer 429 when a
// plan is exceeded. Every operation has a cost in units, shown in
// Attempt.Units: every TON operation costs 1; an eth_call 1, or 2 as an
// archive request (earliest, a block hash, or a block number 128 or more
// behind the head the client knows: see the evm package); the other
// operations (eth_getCode, ots_getInternalOperations, userVaultEquities,
// the beacon state) cost 1. WithCost changes the cost of
// an operation.
//
// A Budget (NewBudget) spends a plan: pass the same one with WithBudget to
// every client on the plan, of any chain, and before each attempt (retries
// included) a client waits for the attempt's units, as long as its context
// allows. After a 429 the budget lowers its rate (halves it when it was at
// the plan's full rate, ×0.8 when it had backed off before), holds every
// caller until the provider's Retry-After has passed (each client for no
// longer than its WithMaxRetryAfter, which also caps what it reports), lets
// the callers it held queue again at the lowered rate (no burst when the
// pause ends), and recovers by 1 % of the plan's rate per second (AIMD, as
// TCP does), so that processes that share a plan each settle on a share of
// it (bench/RESULTS.md measures two such processes). A caller that gives up while it waits spends nothing. Limiter
// is the budget's two-method contract, which a limiter shared by many
// processes (a Redis-backed GCRA) can meet instead. Budget.Stats reports the
// units spent, the time callers waited and the 429s seen;
// Attempt.BudgetWait the wait of one attempt. The logger reports nothing
// more. Without a budget nothing waits and no extra
// work is done (the head of an EVM chain is not learnt).
//
// Hyperliquid's public API has a published weight limit of its own, per
// IP; the hyper package keeps to it by default.
//
// # The access key
//
// The SDK sends the key only in the path of requests to the origin (scheme,
// host and port) of the base URL: never in a header, never to another origin
// (see WithHTTPClient for redirects). No formatting of a client shows it,
// under any fmt verb, of the client or of the dereferenced value, alone or
// inside a struct of the caller's.
//
// What a server echoes back is masked in every error (HTTPError's Status,
// ContentType, Body and Location; RPCError's Message and Data; the chain
// packages' own errors), hook payload and log line, whatever the spelling.
// For each character of the key independently, these spellings are
// recognised, in any combination (one character escaped, the next not):
//
//   - the character itself, letters in either case;
//   - each byte of its UTF-8 encoding as itself, percent-escaped in either
//     case of hex digit (%2B, %2b), percent-escaped twice (%252B), or as
//     \x2b;
//   - a JSON or JavaScript escape in either case (\u002B, \u002b; a
//     surrogate pair beyond the BMP), Go's \U0001F600, \u{1F600}, and \xE9
//     for a character below U+0100;
//   - a backslash before punctuation (\/, \", \\);
//   - an HTML character reference, decimal or hex, with or without its ";"
//     (&#43;, &#x2B;), and &amp; &lt; &gt; &quot; &apos;.
//
// The longest match is masked, so no tail of an escape is left. Escapes
// nested deeper than the double percent-escape (a JSON escape of the "%" of
// a percent-escape) and encodings of the key as a whole (base64, hex) are not
// recognised.
//
// The key is masked where the text enters an error, so masking keeps the
// SDK's errors' types and chains: errors.Is and errors.As work on them as on
// unmasked ones (an *InputError quoting an argument that happens to be the
// key still matches ErrInvalidInput), and errors.As never hands out an
// error that holds the key. An error of a type the SDK does not define that
// holds the key (one a WithRoundTripper transport or a Limiter returns,
// quoting the URL) is shown by its masked text, with errors.Is and
// errors.As still reaching what it wraps.
//
// # Errors
//
// Every error an operation returns is one *OpError that names the chain and
// the operation ("evm: eth_call: HTTP 503 Service Unavailable"). Beneath it:
//
//   - *InputError (ErrInvalidInput): the arguments were rejected; nothing was sent.
//     (A TON v3 server's 422 that refuses the parameters matches
//     ErrInvalidInput too, over its *HTTPError.)
//   - *HTTPError: a status outside 2xx, with the status, the start of the body
//     and Retry-After. It matches ErrRateLimited (429), ErrUnauthorized (401,
//     403), ErrNotFound (404) and ErrUnavailable (5xx).
//   - *RPCError: a JSON-RPC error object, with Code, Message and Data. It
//     matches ErrRateLimited for a rate limit's codes and
//     ErrResponseTooLarge for a server's refusal of an answer over its cap.
//   - ErrUnavailable: the network failed and retries did not help.
//   - ErrInvalidResponse: a 2xx body that is not what the operation returns
//     (HTML, truncated JSON, a wrong JSON-RPC id).
//   - ErrResponseTooLarge: the body exceeded the cap (or the server's own, see
//     *RPCError).
//   - the context's own error (context.Canceled, context.DeadlineExceeded)
//     when the context ended the call.
//
// Use errors.Is for the sentinels and errors.As for the typed errors.
package nodeaccess
