package beacon

import (
	"reflect"
	"testing"
)

// The union schema of the data-first decode is built from every fork's
// schema, so a fork added to the schema is decoded data first without
// editing the union. This checks what that relies on, for every fork and
// both presets: the union has each of the fork's fields, decoded with the
// same target and the same bounds (a field that changed shape under its
// name in a later fork would be decoded with the older fork's bounds), and
// the union fits the 64-bit mask of fields that came.
func TestUnionSchemaCoversEveryFork(t *testing.T) {
	for _, p := range []Preset{MainnetPreset(), MinimalPreset()} {
		s := &State{Preset: p}
		union := s.allFields()
		if len(union) > 64 {
			t.Fatalf("%d fields in the union, the mask of fields seen holds 64", len(union))
		}
		byName := map[string]field{}
		for _, f := range union {
			byName[f.name] = f
		}
		for _, v := range versions() {
			s.Version = v
			for _, f := range s.fields() {
				u, ok := byName[f.name]
				switch {
				case !ok:
					t.Errorf("%s %s: %s is not in the union", p.Name, v, f.name)
				case reflect.ValueOf(u.ptr).Pointer() != reflect.ValueOf(f.ptr).Pointer() || reflect.TypeOf(u.ptr) != reflect.TypeOf(f.ptr):
					t.Errorf("%s %s: %s is decoded into another target in the union", p.Name, v, f.name)
				case u.vector != f.vector || u.n != f.n || u.bits != f.bits:
					t.Errorf("%s %s: %s has vector=%v n=%d bits=%d, the union vector=%v n=%d bits=%d", p.Name, v, f.name, f.vector, f.n, f.bits, u.vector, u.n, u.bits)
				}
			}
		}
	}
}
