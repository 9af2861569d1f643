package transport

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nodeaccess/nodeaccess"
)

// Ops is what a chain client can send: the names of its typed operations,
// and the rule for the names of what its generic call sends. A cost the
// user sets (nodeaccess.WithCost) for a name outside both is refused when
// the client is made, since it could never apply.
type Ops struct {
	// Typed are the typed operations' names, as Attempt.Op shows them.
	Typed []string
	// Generic reports whether name can be the operation of a generic call;
	// nil when the client has none.
	Generic func(name string) bool
	// GenericRule says which names Generic takes, for the error.
	GenericRule string
}

// checkCosts refuses a cost for a name that cannot be an operation of the
// client, or one a typo away from a typed operation's name (which a
// generic call would take for another method).
func (o *Ops) checkCosts(costs map[string]int) *nodeaccess.InputError {
	if o == nil {
		return nil
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range costs {
			if !yield(k) {
				return
			}
		}
	}) {
		if slices.Contains(o.Typed, name) {
			continue
		}
		for _, t := range o.Typed {
			if typo(name, t) {
				return &nodeaccess.InputError{Arg: "option", Reason: fmt.Sprintf("WithCost: %s is not an operation of this client: did you mean %q?", Quote(name), t)}
			}
		}
		if o.Generic != nil && o.Generic(name) {
			continue
		}
		reason := fmt.Sprintf("WithCost: %s is not an operation of this client; its operations are %s", Quote(name), strings.Join(o.Typed, ", "))
		if o.GenericRule != "" {
			reason += ", and " + o.GenericRule
		}
		return &nodeaccess.InputError{Arg: "option", Reason: reason}
	}
	return nil
}

// typo reports whether a and b differ by one edit: a character added,
// removed, replaced, or two neighbours swapped.
func typo(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		diff := -1
		for i := range len(a) {
			if a[i] == b[i] {
				continue
			}
			if diff >= 0 {
				// A second difference: a swap of neighbours only.
				return diff == i-1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
			}
			diff = i
		}
		return true
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}

// RPCMethodName reports whether name looks like a JSON-RPC method's name on
// every node: a namespace, '_', and the method ("eth_getBalance").
func RPCMethodName(name string) bool { return rpcMethod.MatchString(name) }

var rpcMethod = regexp.MustCompile(`^[a-z][a-z0-9]*_[A-Za-z0-9_]+$`)
