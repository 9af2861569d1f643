package ton

import "maps"

// indexerPages sends one request per group of at most maxLimit accounts
// (one request for none), in order, each waiting for the client's budget,
// and returns their pages; the first request that fails ends it with its
// error. AccountStates and PendingTransactions page the indexer so.
func indexerPages[P any](accounts []Address, one func([]Address) (P, error)) ([]P, error) {
	gs := groups(accounts, maxLimit)
	pages := make([]P, len(gs))
	for i, g := range gs {
		p, err := one(g)
		if err != nil {
			return nil, err
		}
		pages[i] = p
	}
	return pages, nil
}

// mergeBook copies an answer's address book into a page's: its standard
// entries into book, the others into unknown (made when first needed).
func mergeBook(book map[Address]AddressBookEntry, unknown *map[string]AddressBookEntry, srcBook map[Address]AddressBookEntry, srcUnknown map[string]AddressBookEntry) {
	maps.Copy(book, srcBook)
	if srcUnknown != nil {
		if *unknown == nil {
			*unknown = map[string]AddressBookEntry{}
		}
		maps.Copy(*unknown, srcUnknown)
	}
}
