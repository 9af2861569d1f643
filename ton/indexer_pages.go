package ton

import "maps"

// indexerPages sends one request per group of at most maxLimit accounts
// (one request for none), in order, each waiting for the client's budget,
// and returns their pages; the first request that fails ends it with its
// error. AccountStates and PendingTransactions page the indexer so. The
// pages are appended to pages (the caller's room for one, so that the
// common single request allocates nothing here).
func indexerPages[P any](accounts []Address, pages []P, one func([]Address) (P, error)) ([]P, error) {
	for _, g := range groups(accounts, maxLimit) {
		p, err := one(g)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
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
