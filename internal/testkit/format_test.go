package testkit_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
)

// Shapes that hold a key at various distances from the top, none with
// methods.
type (
	leaf      struct{ s string }
	strPtr    struct{ p *string }
	onePtr    struct{ p *leaf }
	twoPtrs   struct{ p *onePtr }
	ptrPtr    struct{ p **leaf }
	inAny     struct{ a any }
	inMap     struct{ m map[string]*leaf }
	inArray   struct{ a [1]*leaf }
	toSlice   struct{ p *[]string }
	toBytes   struct{ p *[]byte }
	embedLeaf struct{ *leaf }
	embedded  struct{ *onePtr }
	embedded2 struct{ *embedded }
	// masked describes itself without its fields; through an unexported
	// field fmt does not call String, and prints them.
	masked struct{ p *leaf }
	// promoted describes itself with the Format of the pointer it embeds,
	// as the chain servers do with *nodeaccesstest.Server's.
	promoted struct {
		*formatter
		p *leaf
	}
	formatter struct{}
)

func (masked) String() string { return "masked" }

func (*formatter) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte("formatter")) }

// AssertUnprintable reports a key exactly where fmt prints it: for each
// shape, the walker finds the key in what fmt could print iff one of
// AssertFormatNoKey's formattings (fmt's own output) shows it, or prints
// its bytes as numbers. fmt opens
// the pointer it is given and, under %s and %q, one pointer below, only to
// an array, slice, struct or map; a *string or a pointer to a pointer it
// prints as an address.
func TestAssertUnprintableIsWhatFmtPrints(t *testing.T) {
	const key = "sEcReT-k3y"
	k := key
	lf := &leaf{key}
	lfp := &lf
	sl := []string{key}
	bs := []byte(key)
	for _, c := range []struct {
		name  string
		v     any // a pointer, as AssertFormatNoKey wants
		shown bool
		// walked, when not shown: the walker finds the key where fmt
		// prints it in another form.
		walked bool
	}{
		{"a string field", &leaf{key}, true, false},
		{"a *string field", &strPtr{&k}, false, false},
		{"a pointer to a struct", &onePtr{lf}, true, false},
		{"two pointers to a struct", &twoPtrs{&onePtr{lf}}, false, false},
		{"a pointer to a pointer", &ptrPtr{lfp}, false, false},
		{"an interface holding a pointer", &inAny{lf}, true, false},
		{"an interface holding a pointer to a pointer", &inAny{lfp}, false, false},
		{"a map of pointers", &inMap{map[string]*leaf{"x": lf}}, true, false},
		{"an array of pointers", &inArray{[1]*leaf{lf}}, true, false},
		{"a pointer to a slice", &toSlice{&sl}, true, false},
		// fmt prints the bytes it opens with %v, as numbers ("&[115 69
		// ...]"): the key still, which the walker reports.
		{"a pointer to bytes", &toBytes{&bs}, false, true},
		{"an embedded pointer", &embedLeaf{lf}, true, false},
		{"an embedded pointer's pointer", &embedded{&onePtr{lf}}, false, false},
		{"two embedded pointers", &embedded2{&embedded{&onePtr{lf}}}, false, false},
		{"a String method", &masked{lf}, true, false},
		{"a promoted Format method", &promoted{&formatter{}, lf}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			format := &fakeT{}
			format.run(func(t testing.TB) { testkit.AssertFormatNoKey(t, key, c.v) })
			assert.Equal(t, c.shown, format.failed(), "fmt prints the key:\n%s", format.failures())
			want := c.shown || c.walked
			walk := &fakeT{}
			walk.run(func(t testing.TB) { testkit.AssertUnprintable(t, key, c.v) })
			assert.Equal(t, want, walk.failed(), "the walker finds the key:\n%s", walk.failures())
			// Given *v, the walker reaches the same.
			byValue := &fakeT{}
			byValue.run(func(t testing.TB) { testkit.AssertUnprintable(t, key, reflect.ValueOf(c.v).Elem().Interface()) })
			assert.Equal(t, want, byValue.failed(), "the walker finds the key in *v:\n%s", byValue.failures())
		})
	}
}
