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
	a := mustAddress("0:" + strings.Repeat("ab", 32))
	lower, upper := a.String(), a.rawUpper()
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
			book, _, err := decodeAddressBook(raw)
			if err != nil {
				t.Fatal(err)
			}
			if len(book) != 1 || book[a].UserFriendly != "from "+tc.want {
				t.Fatalf("keys %q: got %v, want the entry of %q", tc.keys, book, tc.want)
			}
		}
	}
}

// Issue 21: one odd address book entry never fails a page. A key that is
// not a standard address goes to the unknown entries under its key; a
// member of another type is left unset; null and [] interfaces stay
// apart (nil and empty).
func TestAddressBookOddEntries(t *testing.T) {
	a := mustAddress("0:" + strings.Repeat("ab", 32))
	raw := []byte(`{"` + a.rawUpper() + `":{"user_friendly":5,"domain":["x"],"interfaces":["a",7]},` +
		`"addr_none":{"user_friendly":"addr_none","domain":null,"interfaces":[]},` +
		`"addr_var":"not an object","ext$01":null,` +
		`"0:` + strings.Repeat("cd", 32) + `":{"user_friendly":"addr_none","interfaces":null}}`)
	book, unknown, err := decodeAddressBook(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := map[Address]AddressBookEntry{a: {}, mustAddress("0:" + strings.Repeat("cd", 32)): {UserFriendly: "addr_none"}}
	if fmt.Sprint(book) != fmt.Sprint(want) {
		t.Fatalf("book %v, want %v", book, want)
	}
	wantUnknown := map[string]AddressBookEntry{"addr_none": {UserFriendly: "addr_none", Interfaces: []string{}}, "addr_var": {}, "ext$01": {}}
	if fmt.Sprintf("%#v", unknown) != fmt.Sprintf("%#v", wantUnknown) {
		t.Fatalf("unknown %#v, want %#v", unknown, wantUnknown)
	}
	if _, err := ParseFriendlyAddress(book[mustAddress("0:"+strings.Repeat("cd", 32))].UserFriendly); err == nil {
		t.Fatal(`Friendly accepted "addr_none"`)
	}
	// The book itself must still be an object.
	for _, bad := range []string{`[]`, `"x"`, `5`} {
		if _, _, err := decodeAddressBook([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// mustAddress parses a constant address of a test.
func mustAddress(s string) Address {
	a, err := ParseAddress(s)
	if err != nil {
		panic(err)
	}
	return a
}
