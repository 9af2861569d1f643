// Package assets holds the numbers of Hyperliquid's API that package hyper
// and package hypercore both use.
package assets

// The asset ids of Hyperliquid's API docs ("Asset IDs"): a perp of the
// first perp dex is its index; a spot pair 10000 + its index; a perp of
// builder dex d 100000 + 10000*d + its index; an outcome side
// 100000000 + its encoding.
const (
	Spot      = 10000
	Builder   = 100000
	DexStride = 10000
	Outcome   = 100000000
)

// MaxDecimals bounds the decimals the metadata decoders accept: a uint64
// has at most 20 digits.
const MaxDecimals = 40
