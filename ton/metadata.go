package ton

import (
	"encoding/json"
)

// TokenInfo is one entry of an account's token metadata. Every member is
// optional on the wire: an absent, null or mistyped one is left at its
// zero value here, and Raw keeps the entry whole (nft_index, extra with a
// jetton wallet's owner and jetton, image variants, and members the SDK
// does not type).
type TokenInfo struct {
	// Type is the kind of token: "jetton_masters", "jetton_wallets",
	// "nft_collections" or "nft_items", as the indexer writes them; other values
	// are kept as sent.
	Type string
	// Name, Symbol, Description and Image are the token's metadata as the
	// indexer read it ("" when not sent).
	Name, Symbol, Description, Image string
	// Valid is the indexer's verdict on the metadata; nil when not sent.
	Valid *bool
	// IsScam and IsNSFW are the indexer's flags for the token; nil when
	// not sent (some indexer versions never send them, so nil is
	// "unknown", not "no").
	IsScam, IsNSFW *bool
	// Raw is the entry as the server sent it.
	Raw json.RawMessage
}

// addMetadata adds accountStates' metadata member, an object keyed by
// address, to the page's book: each account's IsIndexed and TokenInfo (an
// empty list when its entry lists none), in its entry, new or not. It
// never fails a page: absence, null or a value that is not an object add
// nothing, an entry under a key that is not a standard address (no token
// lives there) or that is not an object is left out, and each member of an
// entry is read on its own.
func addMetadata(book map[Address]AddressBookEntry, raw json.RawMessage) {
	var w map[string]json.RawMessage
	if json.Unmarshal(raw, &w) != nil {
		return
	}
	for k, v := range w {
		a, err := ParseAddress(k)
		if err != nil {
			continue
		}
		var e map[string]json.RawMessage
		if json.Unmarshal(v, &e) != nil || e == nil {
			continue // not an object
		}
		entry := book[a]
		entry.IsIndexed = false
		_ = json.Unmarshal(e["is_indexed"], &entry.IsIndexed)
		var infos []json.RawMessage
		_ = json.Unmarshal(e["token_info"], &infos)
		entry.TokenInfo = make([]TokenInfo, 0, len(infos))
		for _, ti := range infos {
			if t, ok := decodeTokenInfo(ti); ok {
				entry.TokenInfo = append(entry.TokenInfo, t)
			}
		}
		book[a] = entry
	}
}

// decodeTokenInfo reads one token_info entry member by member; ok is false
// when it is not an object.
func decodeTokenInfo(raw json.RawMessage) (TokenInfo, bool) {
	var w map[string]json.RawMessage
	if json.Unmarshal(raw, &w) != nil || w == nil {
		return TokenInfo{}, false
	}
	t := TokenInfo{Raw: raw}
	for name, dst := range map[string]*string{"type": &t.Type, "name": &t.Name, "symbol": &t.Symbol, "description": &t.Description, "image": &t.Image} {
		if json.Unmarshal(w[name], dst) != nil {
			*dst = ""
		}
	}
	for name, dst := range map[string]**bool{"valid": &t.Valid, "is_scam": &t.IsScam, "is_nsfw": &t.IsNSFW} {
		var b bool
		if v := w[name]; v != nil && json.Unmarshal(v, &b) == nil && string(v) != "null" {
			*dst = &b
		}
	}
	return t, true
}
