package ton

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// AddressBookEntry is what a v3 response says of one account it mentions:
// the forms users see, from its address_book (the user-friendly address,
// with the flags the server chose for the account's kind, and its DNS
// domain), and, in accountStates, the indexer's metadata of the tokens at
// the account. The pages key entries by Address, so a lookup works
// whatever form the caller's address was parsed from. Each member is read
// on its own: a member of another type than the indexer writes is left
// unset, never an error for the page.
type AddressBookEntry struct {
	// UserFriendly is the user-friendly form exactly as the server sent it
	// (bounceable for contracts, non-bounceable for wallets, by the server's
	// choice); "" when the server sent none. ParseFriendlyAddress reads it,
	// flags and all. The indexer writes "addr_none" for a key that is not a
	// standard address, which ParseFriendlyAddress refuses.
	UserFriendly string
	// Domain is the account's DNS domain ("alice.ton"); "" when it has none
	// (the server sends null).
	Domain string
	// Interfaces lists the contract interfaces the indexer detected
	// ("wallet_v4r2", "jetton_wallet"); nil when not sent or null (the
	// indexer's null: an account whose code matched none), empty when
	// sent as [] (an account it does not know, or one without get-methods).
	Interfaces []string
	// IsIndexed reports whether the indexer has fetched the metadata of the
	// token at the account (the metadata's is_indexed); while it has not,
	// TokenInfo holds the token's type alone.
	IsIndexed bool
	// TokenInfo are the entries of the token's metadata (token_info; one
	// for most accounts); nil when the response has no metadata for the
	// account (pendingTransactions, servers without metadata), empty when
	// its metadata lists none.
	TokenInfo []TokenInfo
}

// decodeAddressBook decodes an address_book member: an object keyed by raw
// address. null or absence gives an empty book; anything else that is not
// an object is an error. An entry whose key is not a standard address
// (addr_none, addr_var, addr_extern, an external address) goes to unknown,
// under its key as sent, and never fails the page. When two keys spell the
// same account (such as "0:ab…" and "0:AB…", or a raw and a user-friendly
// form), the entry kept does not depend on map order: the one under the
// raw form in lower case (Address.Raw) wins, then the one under the upper
// case raw form the indexer writes (the upper case spelling), then the one under
// the lexically smallest key.
func decodeAddressBook(raw json.RawMessage) (book map[Address]AddressBookEntry, unknown map[string]AddressBookEntry, err error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return map[Address]AddressBookEntry{}, nil, nil
	}
	var w map[string]json.RawMessage
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, nil, fmt.Errorf("address_book: %v", err)
	}
	book = make(map[Address]AddressBookEntry, len(w))
	var settled map[Address]bool // accounts several keys spell, their entry chosen
	for k, v := range w {
		a, err := ParseAddress(k)
		if err != nil {
			if unknown == nil {
				unknown = map[string]AddressBookEntry{}
			}
			unknown[k] = decodeBookEntry(v)
			continue
		}
		if _, dup := book[a]; !dup {
			book[a] = decodeBookEntry(v)
			continue
		}
		if settled[a] {
			continue
		}
		// Rare: several keys spell a. The best of all of them wins, so
		// that the entry kept does not depend on map order.
		best := k
		for k2 := range w {
			if a2, err := ParseAddress(k2); err == nil && a2 == a && preferKey(a, k2, best) {
				best = k2
			}
		}
		book[a] = decodeBookEntry(w[best])
		if settled == nil {
			settled = map[Address]bool{}
		}
		settled[a] = true
	}
	return book, unknown, nil
}

// decodeBookEntry reads an address book entry member by member: a member
// that is absent, null or of another type is left unset.
func decodeBookEntry(raw json.RawMessage) AddressBookEntry {
	var w struct {
		UserFriendly json.RawMessage `json:"user_friendly"`
		Domain       json.RawMessage `json:"domain"`
		Interfaces   json.RawMessage `json:"interfaces"`
	}
	var e AddressBookEntry
	if json.Unmarshal(raw, &w) != nil {
		return e
	}
	_ = json.Unmarshal(w.UserFriendly, &e.UserFriendly)
	_ = json.Unmarshal(w.Domain, &e.Domain)
	if json.Unmarshal(w.Interfaces, &e.Interfaces) != nil {
		e.Interfaces = nil
	}
	return e
}

// preferKey reports whether the book key k is a better spelling of a than
// the key prev: the lower keyRank first, then the lexically smaller key.
func preferKey(a Address, k, prev string) bool {
	if rk, rp := keyRank(a, k), keyRank(a, prev); rk != rp {
		return rk < rp
	}
	return k < prev
}

// keyRank ranks the spellings of a in an address book: 0 for the lower
// case raw form, 1 for the upper case raw form, 2 for any other.
func keyRank(a Address, k string) int {
	switch k {
	case a.String():
		return 0
	case a.rawUpper():
		return 1
	}
	return 2
}
