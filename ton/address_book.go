package ton

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// AddressBook maps the accounts a v3 response mentions to the forms users
// see: the user-friendly address (with the flags the server chose for the
// account's kind) and its DNS domain. Keys are accounts (Address), so a
// lookup works whatever form the caller's address was parsed from.
type AddressBook map[Address]AddressBookEntry

// AddressBookEntry is one account of an address book.
type AddressBookEntry struct {
	// UserFriendly is the user-friendly form exactly as the server sent it
	// (bounceable for contracts, non-bounceable for wallets, by the server's
	// choice); "" when the server sent none.
	UserFriendly string
	// Domain is the account's DNS domain ("alice.ton"); "" when it has none
	// (the server sends null).
	Domain string
	// Interfaces lists the contract interfaces the indexer detected
	// ("wallet_v4r2", "jetton_wallet"); nil when not sent.
	Interfaces []string
}

// Friendly parses UserFriendly, keeping its flags.
func (e AddressBookEntry) Friendly() (FriendlyAddress, error) {
	return ParseFriendlyAddress(e.UserFriendly)
}

// decodeAddressBook decodes an address_book member: an object keyed by raw
// address. null or absence gives an empty book. When two keys spell the
// same account (such as "0:ab…" and "0:AB…", or a raw and a user-friendly
// form), the entry kept does not depend on map order: the one under the
// raw form in lower case (Address.Raw) wins, then the one under the upper
// case raw form the indexer writes (Address.RawUpper), then the one under
// the lexically smallest key.
func decodeAddressBook(raw json.RawMessage) (AddressBook, error) {
	book := AddressBook{}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return book, nil
	}
	var w map[string]*struct {
		UserFriendly *string  `json:"user_friendly"`
		Domain       *string  `json:"domain"`
		Interfaces   []string `json:"interfaces"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("address_book: %v", err)
	}
	from := make(map[Address]string, len(w)) // the key each entry came from
	for k, v := range w {
		a, err := ParseAddress(k)
		if err != nil {
			return nil, fmt.Errorf("address_book key %s is not an address", quoteValue(k, 100))
		}
		if prev, dup := from[a]; dup && !preferKey(a, k, prev) {
			continue
		}
		from[a] = k
		var e AddressBookEntry
		if v != nil {
			if v.UserFriendly != nil {
				e.UserFriendly = *v.UserFriendly
			}
			if v.Domain != nil {
				e.Domain = *v.Domain
			}
			e.Interfaces = v.Interfaces
		}
		book[a] = e
	}
	return book, nil
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
	case a.Raw():
		return 0
	case a.RawUpper():
		return 1
	}
	return 2
}
