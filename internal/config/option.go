package config

import "fmt"

// Func is what an option does: it writes its setting into a Config, or
// says why its value is bad.
type Func = func(*Config) error

// Package nodeaccess sets these in its init: the chain packages, which
// import nodeaccess, make and read the one option type users pass them
// (nodeaccess.Option) through them, without the workings of an option being
// part of the exported API (the pattern of google.golang.org/grpc's
// internal package).
var (
	// Make returns a nodeaccess.Option that applies f, owned by package
	// owner ("" for a setting every client takes) and called name in
	// errors ("evm.WithMaxBatchSize").
	Make func(owner, name string, f Func) any
	// Open returns what Make was given for opt, and false for any value
	// that is not a nodeaccess.Option.
	Open func(opt any) (owner, name string, f Func, ok bool)
)

// Collect returns the Funcs of the options given to a chain package's New,
// in their order. An option owned by another package is refused, naming it
// and both packages; so is a value that is not a nodeaccess.Option (a
// type of the user's). The zero Option sets nothing.
func Collect[O any](chain string, opts []O) ([]Func, error) {
	out := make([]Func, 0, len(opts))
	for i, o := range opts {
		owner, name, f, ok := Open(o)
		switch {
		case !ok:
			return nil, fmt.Errorf("option %d (%T) is not a nodeaccess.Option", i, o)
		case owner != "" && owner != chain:
			return nil, fmt.Errorf("option %d, %s, is an option of package %s, not of %s", i, name, owner, chain)
		case f == nil:
			continue
		}
		out = append(out, f)
	}
	return out, nil
}
