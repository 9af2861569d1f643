package hyper

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// KeyKind is the form of a key of allMids. A key of a form the SDK does not
// know is KeyUnknown: it decodes without error and stays visible.
type KeyKind uint8

// The key forms of allMids.
const (
	// KeyUnknown is a key of none of the forms below.
	KeyUnknown KeyKind = iota
	// KeyPerp is a perpetual's symbol on the first perp dex: "BTC", "kPEPE",
	// "0G". It starts with an ASCII letter or digit; a key led by any other
	// character is of a marked form ("@", "#") or KeyUnknown.
	KeyPerp
	// KeySpotPair is a spot pair by name: "PURR/USDC", the one pair
	// Hyperliquid names.
	KeySpotPair
	// KeySpotIndex is a spot pair by its index in the spot metadata's
	// universe: "@107", whose tokens Markets.Market names (HYPE/USDC);
	// applications that trade by symbol may ignore these keys.
	KeySpotIndex
	// KeyBuilderDex is a perpetual on a builder-deployed perp dex:
	// "xyz:CL", the dex name, a colon and the coin.
	KeyBuilderDex
	// KeyOutcome is one side of a HIP-4 outcome market: "#N", where N is
	// the outcome's encoding 10*outcome + side (Hyperliquid's API docs,
	// "Asset IDs"): "#20" is side 0 of outcome 2, "#21" its side 1.
	// Mid.Index is N; Markets.Market names the outcome and the side
	// as the public API's outcomeMeta does (side i is the i-th of the
	// outcome's sideSpecs: often "Yes" and "No", which the SDK does not
	// assume).
	KeyOutcome
)

// String names the kind: "perp", "spot pair", "spot index", "builder
// dex", "outcome" or "unknown".
func (k KeyKind) String() string {
	switch k {
	case KeyPerp:
		return "perp"
	case KeySpotPair:
		return "spot pair"
	case KeySpotIndex:
		return "spot index"
	case KeyBuilderDex:
		return "builder dex"
	case KeyOutcome:
		return "outcome"
	case KeyUnknown:
		return "unknown"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Mid is one entry of allMids: a key, what form it has, and the mid price.
type Mid struct {
	// Key is the key as the server sent it: "BTC", "PURR/USDC", "@107",
	// "xyz:CL", "#20".
	Key string
	// Kind is the key's form.
	Kind KeyKind
	// Price is the mid price ((best bid + best ask) / 2, or the last trade
	// price when the book is empty), exactly as the server wrote it. The
	// price of an outcome side lies between 0 and 1 (it settles at 0 or 1,
	// or at a fraction); the SDK does not refuse other values, which are
	// the server's to send.
	Price decimal.Decimal
	// Index is N of a spot index key "@N" (KeySpotIndex) or of an outcome
	// key "#N" (KeyOutcome, N = 10*outcome + side: Index/10 is the outcome,
	// Index%10 the side, which Markets.Market names), 0 otherwise.
	Index int
	// Dex is the dex name of a builder-dex key ("xyz" of "xyz:CL"), ""
	// otherwise.
	Dex string
	// Coin is the symbol without the dex prefix: "BTC" of "BTC", "CL" of
	// "xyz:CL", the pair's name "PURR/USDC" of a spot pair; "" for spot
	// index, outcome and unknown keys.
	Coin string
}

// maxSpotIndex bounds N of "@N" and "#N": larger numbers are KeyUnknown.
const maxSpotIndex = 1<<31 - 1

// classify splits key into its form and parts. A perp symbol starts with
// an ASCII letter or digit: a key led by any other character ("#20",
// "+10", "$X") is of a form with a marker of its own, and one the SDK does
// not know stays KeyUnknown rather than pass for a perp.
func classify(key string) (m Mid) {
	m.Key = key
	switch {
	case key == "":
	case key[0] == '@':
		n, ok := spotIndex(key[1:])
		if ok {
			m.Kind, m.Index = KeySpotIndex, n
		}
	case key[0] == '#':
		n, ok := spotIndex(key[1:])
		if ok {
			m.Kind, m.Index = KeyOutcome, n
		}
	case strings.IndexByte(key, ':') >= 0:
		dex, coin, _ := strings.Cut(key, ":")
		if dex != "" && coin != "" && !strings.ContainsAny(coin, ":/@") && !strings.ContainsAny(dex, "/@") {
			m.Kind, m.Dex, m.Coin = KeyBuilderDex, dex, coin
		}
	case strings.IndexByte(key, '/') >= 0:
		base, quote, _ := strings.Cut(key, "/")
		if base != "" && quote != "" && !strings.ContainsAny(quote, "/@") {
			m.Kind, m.Coin = KeySpotPair, key
		}
	case isAlnum(key[0]) && strings.IndexByte(key, '@') < 0:
		m.Kind, m.Coin = KeyPerp, key
	}
	return m
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// spotIndex reads the N of "@N" and "#N": decimal digits, no sign, no leading zero
// (so that each index has one key), at most maxSpotIndex.
func spotIndex(s string) (int, bool) {
	if s == "" || len(s) > 10 || s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	if n > maxSpotIndex {
		return 0, false
	}
	return n, true
}

// Mids is the result of allMids: one Mid per key, in the order of their keys
// (byte-wise, as sort.Strings orders them, so "@10" comes before "@2"), with
// lookups by key that cost one map access: Get("@107") for a spot index,
// Get("#21") for side 1 of outcome 2. A Mids is read-only and safe for
// concurrent use.
type Mids struct {
	dex     string
	entries []Mid
	byKey   map[string]int
}

// newMids builds a Mids from entries, which it sorts. A key given twice is
// an error: a map would silently keep one of the prices.
func newMids(dex string, entries []Mid) (*Mids, error) {
	slices.SortFunc(entries, func(a, b Mid) int { return strings.Compare(a.Key, b.Key) })
	for i := 1; i < len(entries); i++ {
		if entries[i].Key == entries[i-1].Key {
			return nil, fmt.Errorf("allMids: key %s appears twice", transport.Quote(entries[i].Key))
		}
	}
	m := &Mids{dex: dex, entries: entries, byKey: make(map[string]int, len(entries))}
	for i, e := range entries {
		m.byKey[e.Key] = i
	}
	return m, nil
}

// Len returns the number of keys.
func (m *Mids) Len() int { return len(m.entries) }

// Get returns the entry of key exactly as the server wrote it ("BTC",
// "PURR/USDC", "@107", "xyz:CL", "#20"): its kind and its mid price.
func (m *Mids) Get(key string) (Mid, bool) {
	i, ok := m.byKey[key]
	if !ok {
		return Mid{}, false
	}
	return m.entries[i], true
}

// All yields every key and its entry, in key order. To take one kind of
// key, test Mid.Kind: KeyPerp gives the perp symbols an application trades
// by, without the spot index keys and the outcome sides (KeyOutcome gives
// those).
func (m *Mids) All() iter.Seq2[string, Mid] {
	return func(yield func(string, Mid) bool) {
		for _, e := range m.entries {
			if !yield(e.Key, e) {
				return
			}
		}
	}
}
