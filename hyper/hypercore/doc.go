// Package hypercore reaches Hyperliquid's EVM, HyperEVM, through a
// node-access service, and reads HyperCore's state through HyperEVM's read
// precompiles. It lives apart from package hyper so that a program of
// /info alone links no part of the EVM.
//
// New returns the HyperEVM client: an *evm.Client at {base}/{key}/evm, made
// from the base URL and key hyper.New takes, that reads state at the latest
// block only (HyperEVM answers a past block with the latest state, without
// an error) unless WithHistory says the provider serves history:
//
//	hyperEVM, err := hypercore.New("https://hyperliquid.node.example", key)
//	out, err := hyperEVM.Call(ctx, evm.CallMsg{To: token, Data: calldata}, evm.Latest)
//
// Reads adds typed reads of HyperCore's state (positions, spot balances,
// vault equities, delegations, prices, metadata) to an evm.Batch, which the
// HyperEVM client sends in one JSON-RPC batch; each read has its own result
// or error, with exact decimals scaled by the market's or token's decimals
// from hyper.Client.Markets:
//
//	var b evm.Batch
//	core := hypercore.Reads(&b)
//	mark := core.Price(btc) // btc from hyper's Markets.Market("BTC")
//	if err := hyperEVM.SendBatch(ctx, &b); err != nil { … }
//	px, err := mark.Result()
//
// A read a precompile refuses (an index or vault that does not exist)
// fails alone with ErrPrecompile; its errors name "hyper" and the read.
package hypercore
