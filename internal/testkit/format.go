package testkit

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fmtVerbs are the verbs AssertFormatNoKey tries. %s and %q do not fit a
// pointer, so fmt prints what a pointer field points to instead of its
// address ("%!s(*T=&{...})"), one pointer deep.
var fmtVerbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T"}

// hidden holds a value in an unexported field, as a user's struct may
// hold a client or a server: fmt calls no method (String, Format) on what
// it reaches through an unexported field, and prints it field by field.
type hidden struct{ x any }

// AssertFormatNoKey fails the test when any formatting of v (a pointer to
// an exported value that holds a client or the key) shows key: every verb
// of fmtVerbs, applied to v, to *v, to a struct holding v and one holding
// *v in an exported field (fmt calls their methods) and in an unexported
// one (fmt calls none, and walks the fields). The formattings of *v copy
// it, and those that call no method read what AssertUnprintable walks, so
// that under -race it also fails when what fmt reads of v is written while
// it prints.
func AssertFormatNoKey(t testing.TB, key string, v any) {
	t.Helper()
	pv := reflect.ValueOf(v)
	if pv.Kind() != reflect.Pointer || pv.IsNil() {
		t.Fatalf("AssertFormatNoKey wants a non-nil pointer, got %T", v)
	}
	// *v, copied through reflect (a direct *v would be a copy of any lock
	// inside, which vet rightly refuses).
	deref := pv.Elem().Interface()
	embedPtr := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "X", Type: pv.Type()}})).Elem()
	embedPtr.Field(0).Set(pv)
	embedVal := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "X", Type: pv.Type().Elem()}})).Elem()
	embedVal.Field(0).Set(pv.Elem())
	for _, x := range []struct {
		what string
		v    any
	}{
		{"value", v}, {"dereferenced value", deref},
		{"struct holding the pointer", embedPtr.Interface()}, {"struct holding the value", embedVal.Interface()},
		{"unexported field holding the pointer", hidden{v}}, {"unexported field holding the value", hidden{pv.Elem().Interface()}},
	} {
		for _, verb := range fmtVerbs {
			AssertNoKey(t, key, fmt.Sprintf("%s of the %s (%T)", verb, x.what, v), fmt.Sprintf(verb, x.v))
		}
	}
}

// AssertUnprintable fails the test when key (in any spelling of
// KeySpellings) is in a string or byte slice that fmt could print from v by
// reflection, as it prints v, *v (for a pointer v) or either inside a
// struct: everything reachable from v (from *v, for a pointer to an array,
// slice, struct or map, which fmt prints as &{...}) through struct fields
// (unexported ones included), arrays, slices, maps and interfaces, and
// through at most one pointer to an array, slice, struct or map. fmt prints
// a pointer below the top level as an address, except under a verb that
// does not fit a pointer (%s, %q), where it opens that one pointer, when it
// points to one of those, and prints what it finds with %v, which again
// prints pointers as addresses; a pointer to anything else (a *string) it
// never opens below the top level. Funcs, channels and unsafe pointers
// print as addresses. A byte slice fmt opens below a pointer it prints as
// numbers, the key's bytes still, and the walker reports it. Methods
// (String, Format) are not trusted: fmt cannot call them on unexported
// fields, nor on what it opens for a verb that does not fit.
func AssertUnprintable(t testing.TB, key string, v any) {
	t.Helper()
	var found []string
	rv, path := reflect.ValueOf(v), "v"
	if rv.Kind() == reflect.Pointer && !rv.IsNil() && aggregate(rv.Elem().Kind()) {
		rv, path = rv.Elem(), "(*v)"
	}
	walkPrintable(rv, path, 1, map[uintptr]bool{}, func(path, s string) {
		low := strings.ToLower(s)
		for _, f := range append(KeySpellings(key), KeyPieces(key)...) {
			if strings.Contains(low, strings.ToLower(f)) {
				found = append(found, path)
				return
			}
		}
	})
	if len(found) > 0 {
		t.Errorf("fmt can print the key of a %T from: %s", v, strings.Join(found, ", "))
	}
}

// aggregate reports whether fmt opens a pointer to a value of kind k (at
// the top level, or under a verb that does not fit a pointer).
func aggregate(k reflect.Kind) bool {
	return k == reflect.Array || k == reflect.Slice || k == reflect.Struct || k == reflect.Map
}

func walkPrintable(v reflect.Value, path string, hops int, seen map[uintptr]bool, fn func(path, s string)) {
	if !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.String:
		fn(path, v.String())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			for i := range b {
				b[i] = byte(v.Index(i).Uint())
			}
			fn(path, string(b))
			return
		}
		for i := range v.Len() {
			walkPrintable(v.Index(i), fmt.Sprintf("%s[%d]", path, i), hops, seen, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			walkPrintable(v.Field(i), path+"."+v.Type().Field(i).Name, hops, seen, fn)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			walkPrintable(it.Key(), path+"[key]", hops, seen, fn)
			walkPrintable(it.Value(), path+"[value]", hops, seen, fn)
		}
	case reflect.Interface:
		walkPrintable(v.Elem(), path, hops, seen, fn)
	case reflect.Pointer:
		if hops == 0 || v.IsNil() || !aggregate(v.Elem().Kind()) || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		walkPrintable(v.Elem(), "(*"+path+")", hops-1, seen, fn)
		delete(seen, v.Pointer())
	}
}
