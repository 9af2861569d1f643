package config

import "fmt"

// Func is what an option does: it writes its setting into a Config, or
// says why its value is bad.
type Func = func(*Config) error

// Shared returns the Func of a nodeaccess.Option, and false for any other
// value. Package nodeaccess sets it in its init: the chain packages, which
// import nodeaccess, read the options users pass them through it, without
// the workings of an option being part of the exported API (the pattern of
// google.golang.org/grpc's internal package).
var Shared func(opt any) (Func, bool)

// Collect returns the Funcs of a chain package's options in their order:
// own returns the Func of an option of the chain package itself, and
// Shared those of package nodeaccess. A nil option is skipped; any other
// value (a type of the user's that satisfies the option interface by
// embedding it) is refused, naming its position.
func Collect[O any](chain string, opts []O, own func(O) (Func, bool)) ([]Func, error) {
	out := make([]Func, 0, len(opts))
	for i, o := range opts {
		if any(o) == nil {
			continue
		}
		if f, ok := own(o); ok {
			out = append(out, f)
			continue
		}
		if f, ok := Shared(o); ok {
			out = append(out, f)
			continue
		}
		return nil, fmt.Errorf("option %d (%T) is neither a nodeaccess option nor one of package %s", i, o, chain)
	}
	return out, nil
}
