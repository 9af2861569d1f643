package ton

import (
	"fmt"
	"strings"
	"testing"
)

// Item 9: two spellings of one account in an address book give the same
// winner every time, whatever the map order: the lower case raw key, then
// the upper case raw key, then the lexically smallest key.
func TestAddressBookDuplicateSpellingsAreDeterministic(t *testing.T) {
	a := MustParseAddress("0:" + strings.Repeat("ab", 32))
	lower, upper := a.Raw(), a.RawUpper()
	mixed1 := "0:" + strings.Repeat("Ab", 32)
	mixed2 := "0:" + strings.Repeat("aB", 32)
	friendly := a.Friendly(true, false).String()
	cases := []struct {
		keys []string
		want string // the key whose entry wins
	}{
		{[]string{lower, upper}, lower},
		{[]string{upper, mixed1, mixed2, friendly}, upper},
		{[]string{mixed2, mixed1, friendly}, mixed1}, // "0:Ab" < "0:aB" < "EQ…"
		{[]string{friendly, lower, upper, mixed1}, lower},
		{[]string{friendly, a.Friendly(false, true).String()}, a.Friendly(false, true).String()}, // "0Q…" < "EQ…"
	}
	for _, tc := range cases {
		var members []string
		for _, k := range tc.keys {
			members = append(members, fmt.Sprintf(`%q:{"user_friendly":%q,"domain":null}`, k, "from "+k))
		}
		raw := []byte("{" + strings.Join(members, ",") + "}")
		for range 200 { // map iteration order differs between runs
			book, err := decodeAddressBook(raw)
			if err != nil {
				t.Fatal(err)
			}
			if len(book) != 1 || book[a].UserFriendly != "from "+tc.want {
				t.Fatalf("keys %q: got %v, want the entry of %q", tc.keys, book, tc.want)
			}
		}
	}
}
