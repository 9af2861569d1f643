package hyper

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// KeyKind is the form of a key of allMids. A key of a form the SDK does not
// know is KeyUnknown: it decodes without error and stays visible.
type KeyKind uint8

// The key forms of allMids.
const (
	// KeyUnknown is a key of none of the forms below.
	KeyUnknown KeyKind = iota
	// KeyPerp is a perpetual's symbol on the first perp dex: "BTC", "kPEPE".
	KeyPerp
	// KeySpotPair is a spot pair by name: "PURR/USDC", the one pair
	// Hyperliquid names.
	KeySpotPair
	// KeySpotIndex is a spot pair by its index in the spot metadata's
	// universe: "@107". Resolving it to tokens needs that metadata (the
	// public API's spotMeta request); the interface lets applications
	// ignore these keys.
	KeySpotIndex
	// KeyBuilderDex is a perpetual on a builder-deployed perp dex:
	// "xyz:CL", the dex name, a colon and the coin.
	KeyBuilderDex
)

// String names the kind: "perp", "spot pair", "spot index", "builder dex"
// or "unknown".
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
	case KeyUnknown:
		return "unknown"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsKnown reports whether k is one of the four key forms.
func (k KeyKind) IsKnown() bool { return k >= KeyPerp && k <= KeyBuilderDex }

// Mid is one entry of allMids: a key, what form it has, and the mid price.
type Mid struct {
	// Key is the key as the server sent it: "BTC", "PURR/USDC", "@107",
	// "xyz:CL".
	Key string
	// Kind is the key's form.
	Kind KeyKind
	// Price is the mid price ((best bid + best ask) / 2, or the last trade
	// price when the book is empty), exactly as the server wrote it.
	Price decimal.Decimal
	// Index is N of a spot index key "@N" (KeySpotIndex), 0 otherwise.
	Index int
	// Dex is the dex name of a builder-dex key ("xyz" of "xyz:CL"), ""
	// otherwise.
	Dex string
	// Coin is the symbol without the dex prefix: "BTC" of "BTC", "CL" of
	// "xyz:CL", the pair's name "PURR/USDC" of a spot pair; "" for spot
	// index and unknown keys.
	Coin string
}

// SpotPair returns the base and quote token of a spot pair key: "PURR",
// "USDC" of "PURR/USDC". ok is false for other kinds.
func (m Mid) SpotPair() (base, quote string, ok bool) {
	if m.Kind != KeySpotPair {
		return "", "", false
	}
	base, quote, _ = strings.Cut(m.Key, "/")
	return base, quote, true
}

// maxSpotIndex bounds N of "@N": larger numbers are KeyUnknown.
const maxSpotIndex = 1<<31 - 1

// classify splits key into its form and parts.
func classify(key string) (m Mid) {
	m.Key = key
	switch {
	case key == "":
	case key[0] == '@':
		n, ok := spotIndex(key[1:])
		if ok {
			m.Kind, m.Index = KeySpotIndex, n
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
	case strings.IndexByte(key, '@') < 0:
		m.Kind, m.Coin = KeyPerp, key
	}
	return m
}

// spotIndex reads the N of "@N": decimal digits, no sign, no leading zero
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
// lookups by key and by spot index that cost one map access. A Mids is
// read-only and safe for concurrent use.
type Mids struct {
	dex     string
	entries []Mid
	byKey   map[string]int
	byIndex map[int]int
	counts  [KeyBuilderDex + 1]int
}

// newMids builds a Mids from entries, which it sorts. A key given twice is
// an error: a map would silently keep one of the prices.
func newMids(dex string, entries []Mid) (*Mids, error) {
	slices.SortFunc(entries, func(a, b Mid) int { return strings.Compare(a.Key, b.Key) })
	for i := 1; i < len(entries); i++ {
		if entries[i].Key == entries[i-1].Key {
			return nil, fmt.Errorf("allMids: key %s appears twice", quote(entries[i].Key))
		}
	}
	m := &Mids{dex: dex, entries: entries, byKey: make(map[string]int, len(entries))}
	for i, e := range entries {
		m.byKey[e.Key] = i
		m.counts[e.Kind]++
		if e.Kind == KeySpotIndex {
			if m.byIndex == nil {
				m.byIndex = make(map[int]int)
			}
			m.byIndex[e.Index] = i
		}
	}
	return m, nil
}

// Dex returns the perp dex the mids were asked for: "" for the first perp
// dex (which also carries the spot mids), or the name given with Dex.
func (m *Mids) Dex() string { return m.dex }

// Len returns the number of keys.
func (m *Mids) Len() int { return len(m.entries) }

// Get returns the entry of key exactly as the server wrote it ("BTC",
// "PURR/USDC", "@107", "xyz:CL").
func (m *Mids) Get(key string) (Mid, bool) {
	i, ok := m.byKey[key]
	if !ok {
		return Mid{}, false
	}
	return m.entries[i], true
}

// Price returns the mid price of key ("BTC", "PURR/USDC", "xyz:CL").
func (m *Mids) Price(key string) (decimal.Decimal, bool) {
	i, ok := m.byKey[key]
	if !ok {
		return decimal.Decimal{}, false
	}
	return m.entries[i].Price, true
}

// SpotIndex returns the entry of the spot index key "@n".
func (m *Mids) SpotIndex(n int) (Mid, bool) {
	i, ok := m.byIndex[n]
	if !ok {
		return Mid{}, false
	}
	return m.entries[i], true
}

// Count returns the number of keys of kind k.
func (m *Mids) Count(k KeyKind) int {
	if int(k) >= len(m.counts) {
		return 0
	}
	return m.counts[k]
}

// All yields every key and its entry, in key order.
func (m *Mids) All() iter.Seq2[string, Mid] {
	return func(yield func(string, Mid) bool) {
		for _, e := range m.entries {
			if !yield(e.Key, e) {
				return
			}
		}
	}
}

// OfKind yields the entries of kind k, in key order; OfKind(KeyPerp) gives
// the symbols an application trades by, without the spot index keys.
func (m *Mids) OfKind(k KeyKind) iter.Seq[Mid] {
	return func(yield func(Mid) bool) {
		for _, e := range m.entries {
			if e.Kind == k && !yield(e) {
				return
			}
		}
	}
}

// Entries returns a copy of all entries, in key order.
func (m *Mids) Entries() []Mid { return slices.Clone(m.entries) }
