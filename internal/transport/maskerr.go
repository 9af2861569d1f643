package transport

import (
	"reflect"
)

// maxErrDepth bounds how deep Err follows a chain of wrapped errors.
const maxErrDepth = 64

var (
	errorType = reflect.TypeFor[error]()
	anyType   = reflect.TypeFor[any]()
)

// Err returns err safe to show, keeping its type and its chain:
//
//   - An error whose type is a struct or a pointer to one (the SDK's
//     *nodeaccess.InputError, *HTTPError, *RPCError, *OpError, the chain
//     packages' error types, *url.Error, *net.OpError, ...) that holds the
//     key in an exported field is copied, with the key masked in every
//     exported string, []byte and any field and every wrapped error in an
//     exported field masked the same way; unexported fields are copied as
//     they are. The copy has the original's type, so errors.As and the
//     type's own Is method keep working.
//   - An error that still shows the key after that (in its message, or in
//     an error it wraps through a field Err cannot reach, as fmt.Errorf's
//     wrappers do) is replaced by one with the message masked, whose causes
//     are made safe the same way, and whose Is answers as the original's Is
//     method does; errors.Is therefore still reaches every sentinel.
//   - An error that shows no key is returned as it is, identity and all.
//
// No error reachable from the result through Unwrap prints the key, so
// errors.As cannot hand the caller one that does.
func (r *redactor) Err(err error) error {
	if r == nil {
		return err
	}
	return r.maskErr(err, 0)
}

func (r *redactor) maskErr(err error, depth int) error {
	if err == nil {
		return nil
	}
	if depth > maxErrDepth {
		if msg := err.Error(); r.holds(msg) {
			return &scrubbed{msg: r.Text(msg)}
		}
		return err
	}
	cp, changed := r.copyErr(err, depth)
	if r.clean(cp, depth) {
		if changed {
			return cp
		}
		return err
	}
	s := &scrubbed{msg: r.Text(cp.Error())}
	if x, ok := err.(interface{ Is(error) bool }); ok {
		s.is = x.Is
	}
	for _, e := range unwrap(err) {
		if e = r.maskErr(e, depth+1); e != nil {
			s.errs = append(s.errs, e)
		}
	}
	return s
}

// holds reports whether s holds a spelling of the key.
func (r *redactor) holds(s string) bool {
	i, _ := find(r, s, 0)
	return i >= 0
}

// clean reports whether neither err's message nor any error it wraps shows
// the key.
func (r *redactor) clean(err error, depth int) bool {
	if err == nil {
		return true
	}
	if depth > maxErrDepth || r.holds(err.Error()) {
		return false
	}
	for _, e := range unwrap(err) {
		if !r.clean(e, depth+1) {
			return false
		}
	}
	return true
}

func unwrap(err error) []error {
	switch x := err.(type) {
	case interface{ Unwrap() []error }:
		return x.Unwrap()
	case interface{ Unwrap() error }:
		if e := x.Unwrap(); e != nil {
			return []error{e}
		}
	}
	return nil
}

// copyErr returns a copy of err, a struct or a pointer to one, with the key
// masked in its exported fields, and whether anything changed; err itself
// when nothing did or its type is not a struct.
func (r *redactor) copyErr(err error, depth int) (error, bool) {
	v := reflect.ValueOf(err)
	ptr := v.Kind() == reflect.Pointer
	if ptr {
		if v.IsNil() {
			return err, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return err, false
	}
	// The copy is made at the first field that changes, so that an error
	// without the key costs nothing.
	var cp reflect.Value
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		m, ok := r.maskField(v.Field(i), depth)
		if !ok {
			continue
		}
		if !cp.IsValid() {
			cp = reflect.New(v.Type()).Elem()
			cp.Set(v)
		}
		cp.Field(i).Set(m)
	}
	if !cp.IsValid() {
		return err, false
	}
	if ptr {
		cp = cp.Addr()
	}
	return cp.Interface().(error), true
}

// maskField returns f's value with the key masked, and whether it changed.
func (r *redactor) maskField(f reflect.Value, depth int) (reflect.Value, bool) {
	switch f.Kind() {
	case reflect.String:
		s := f.String()
		if m := r.Text(s); m != s {
			return reflect.ValueOf(m).Convert(f.Type()), true
		}
	case reflect.Slice:
		if f.Type().Elem().Kind() != reflect.Uint8 || f.IsNil() {
			break
		}
		b := f.Bytes()
		if m := r.Bytes(b); len(m) != len(b) || len(b) > 0 && &m[0] != &b[0] {
			return reflect.ValueOf(m).Convert(f.Type()), true
		}
	case reflect.Interface, reflect.Pointer:
		if f.IsNil() {
			break
		}
		if f.Type().Implements(errorType) {
			e := f.Interface().(error)
			m := r.maskErr(e, depth+1)
			if mv := reflect.ValueOf(m); !sameErr(m, e) && mv.Type().AssignableTo(f.Type()) {
				return mv, true
			}
		} else if f.Type() == anyType && r.valueHolds(f.Interface()) {
			return reflect.ValueOf(r.value(f.Interface())), true
		}
	}
	return reflect.Value{}, false
}

// valueHolds reports whether v, a decoded JSON value, holds the key in a
// string, map keys included.
func (r *redactor) valueHolds(v any) bool {
	switch x := v.(type) {
	case string:
		return r.holds(x)
	case []any:
		for _, e := range x {
			if r.valueHolds(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if r.holds(k) || r.valueHolds(e) {
				return true
			}
		}
	}
	return false
}

// sameErr reports whether a and b are the same error value, without
// panicking on types == cannot compare.
func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() || !va.Comparable() || !vb.Comparable() {
		return false
	}
	return a == b
}

// scrubbed stands in for an error that showed the key in a way Err cannot
// mask in place: its message masked, its causes made safe, and its Is
// method's answers kept.
type scrubbed struct {
	msg  string
	errs []error
	// is is the original's Is method, a func so that no formatting of a
	// scrubbed reaches the original.
	is func(error) bool
}

func (e *scrubbed) Error() string   { return e.msg }
func (e *scrubbed) Unwrap() []error { return e.errs }

// Is answers as the original error's Is method did.
func (e *scrubbed) Is(target error) bool { return e.is != nil && e.is(target) }
