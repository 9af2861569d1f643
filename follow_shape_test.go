package nodeaccess_test

import (
	"context"
	"encoding"
	"fmt"
	"iter"
	"reflect"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/light"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/ton"
)

// follower is one chain's Follow, as docs/options-and-errors.md's
// "Followers: one shape" lists it.
type follower struct {
	name   string
	method reflect.Type // the method's type, receiver first
	query  reflect.Type
	item   reflect.Type
	cursor reflect.Type
}

// followers are the followers of the library packages.
var followers = []follower{
	{"evm.Client.Follow", reflect.TypeOf((*evm.Client).Follow), reflect.TypeFor[evm.FollowQuery](), reflect.TypeFor[evm.FollowedLog](), reflect.TypeFor[evm.FollowCursor]()},
	{"evm.Client.FollowBlocks", reflect.TypeOf((*evm.Client).FollowBlocks), reflect.TypeFor[evm.FollowQuery](), reflect.TypeFor[evm.FollowedBlock](), reflect.TypeFor[evm.FollowCursor]()},
	{"beacon.Client.Follow", reflect.TypeOf((*beacon.Client).Follow), reflect.TypeFor[beacon.FollowQuery](), reflect.TypeFor[beacon.FollowedHead](), reflect.TypeFor[beacon.FollowCursor]()},
	{"light.Client.Follow", reflect.TypeOf((*light.Client).Follow), reflect.TypeFor[beacon.FollowQuery](), reflect.TypeFor[beacon.FollowedHead](), reflect.TypeFor[beacon.FollowCursor]()},
	{"ton.Client.Follow", reflect.TypeOf((*ton.Client).Follow), reflect.TypeFor[ton.FollowQuery](), reflect.TypeFor[ton.FollowedTransaction](), reflect.TypeFor[ton.FollowCursor]()},
}

// TestFollowersShareOneShape: every follower is Follow(ctx, FollowQuery)
// iter.Seq2[item, error]; every query has From (the package's cursor) and
// Poll; every item has Finality and Cursor; every cursor has a text form
// (String, MarshalText, UnmarshalText) that round-trips (evm Follow and
// FollowBlocks, beacon Follow, light Follow, ton Follow).
func TestFollowersShareOneShape(t *testing.T) {
	ctxType := reflect.TypeFor[context.Context]()
	errType := reflect.TypeFor[error]()
	for _, f := range followers {
		m := f.method
		if m.NumIn() != 3 || m.In(1) != ctxType || m.In(2) != f.query || m.NumOut() != 1 {
			t.Errorf("%s is %s, want func(context.Context, %s) iter.Seq2[%s, error]", f.name, m, f.query, f.item)
			continue
		}
		seq := m.Out(0)
		want := reflect.TypeOf((iter.Seq2[int, error])(nil))
		if seq.Kind() != reflect.Func || seq.NumIn() != 1 || seq.In(0).NumIn() != 2 || seq.In(0).In(0) != f.item || seq.In(0).In(1) != errType || seq.PkgPath() != want.PkgPath() {
			t.Errorf("%s returns %s, want iter.Seq2[%s, error]", f.name, seq, f.item)
		}
		for _, field := range []struct {
			of   reflect.Type
			name string
			typ  reflect.Type
		}{{f.query, "From", f.cursor}, {f.query, "Poll", reflect.TypeFor[time.Duration]()}, {f.item, "Cursor", f.cursor}, {f.item, "Finality", nil}} {
			sf, ok := field.of.FieldByName(field.name)
			if !ok || field.typ != nil && sf.Type != field.typ {
				t.Errorf("%s: %s has no field %s of type %v", f.name, field.of, field.name, field.typ)
			}
		}
		cur := reflect.New(f.cursor)
		for _, iface := range []reflect.Type{reflect.TypeFor[fmt.Stringer](), reflect.TypeFor[encoding.TextMarshaler]()} {
			if !f.cursor.Implements(iface) {
				t.Errorf("%s does not implement %s", f.cursor, iface)
			}
		}
		u, ok := cur.Interface().(encoding.TextUnmarshaler)
		if !ok {
			t.Errorf("*%s does not implement encoding.TextUnmarshaler", f.cursor)
			continue
		}
		if err := u.UnmarshalText([]byte("12345")); err != nil {
			t.Errorf("%s: the text form of a bare number: %v", f.cursor, err)
			continue
		}
		text, err := cur.Elem().Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil || string(text) != "12345" || cur.Elem().Interface().(fmt.Stringer).String() != "12345" {
			t.Errorf("%s: %q round-trips as %q (%v)", f.cursor, "12345", text, err)
		}
	}
}
