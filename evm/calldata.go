package evm

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/nodeaccess/nodeaccess/internal/config"
)

// callDataSpelling is the member name, or names, a client sends a call's
// data under.
type callDataSpelling uint8

const (
	spellData  callDataSpelling = iota // "data", the default
	spellInput                         // "input", the execution-apis spelling
	spellBoth                          // both, with the same bytes
)

type callDataKey struct{}

// WithCallDataMembers sets the member names under which the client sends
// a call's data (CallMsg.Data) in every call object: in eth_call, in
// Multicall's aggregate, in a Batch and in each call of a Simulation.
// names is "data", "input", or both; without the option the client sends
// "data".
//
// "data" is the default because every node reads it: go-ethereum, Erigon,
// reth, anvil, Nethermind, Besu, and Hardhat, whose network before EDR
// reads nothing else and drops "input" without a word. "input" is the one
// name the execution-apis spec's call object has (it allows no other
// member), and the one go-ethereum's ethclient sends: choose it for a
// server that checks requests against the spec. Both sends the same bytes
// twice, for a relay that reads one name and forwards to a node that reads
// the other; Hardhat's EDR refuses a call object with both ("duplicate
// field"), and reth, anvil and Besu refuse one whose two members differ,
// which the client never sends.
//
// A name other than "data" and "input", no name, or one given twice is
// refused by New with an error over a *nodeaccess.InputError.
func WithCallDataMembers(names ...string) Option {
	return option("WithCallDataMembers", func(c *config.Config) error {
		var spell callDataSpelling
		var data, input bool
		for _, n := range names {
			switch {
			case n == "data" && !data:
				data = true
			case n == "input" && !input:
				input = true
			case n == "data" || n == "input":
				return fmt.Errorf("evm: WithCallDataMembers: %q given twice", n)
			default:
				return fmt.Errorf("evm: WithCallDataMembers: %q is not a call data member: give \"data\", \"input\" or both", n)
			}
		}
		switch {
		case data && input:
			spell = spellBoth
		case input:
			spell = spellInput
		case data:
			spell = spellData
		default:
			return errors.New(`evm: WithCallDataMembers: no member name: give "data", "input" or both`)
		}
		c.SetExt(callDataKey{}, spell)
		return nil
	})
}

// dataMember starts the call data member of a call object in the default
// spelling.
var dataMember = []byte(`"data":"0x`)

// respell returns params made in the default spelling (spellData: by
// callParams, or anyParams with a CallMsg or a Simulation) with the call data under the
// members spell names. Each data member is found by its text: in eth_call's
// and eth_simulateV1's params no other member is named "data" (the call
// object's other members, the overrides' and the block's are not), and no
// value can hold the text, every value being a hex string, a number, a
// bool or an object or array of those. FuzzCallMsgJSON and
// FuzzSimulationParams check that the result is what is made with spell.
func respell(params []byte, spell callDataSpelling) []byte {
	if spell == spellData || !bytes.Contains(params, dataMember) {
		return params
	}
	out := make([]byte, 0, len(params)+len(params)/4)
	for {
		i := bytes.Index(params, dataMember)
		if i < 0 {
			return append(out, params...)
		}
		end := i + len(dataMember) + bytes.IndexByte(params[i+len(dataMember):], '"') + 1 // after the value's closing quote
		out = append(out, params[:i]...)
		if spell == spellBoth {
			out = append(out, params[i:end]...)
			out = append(out, ',')
		}
		out = append(out, `"input"`...)
		out = append(out, params[i+len(`"data"`):end]...)
		params = params[end:]
	}
}
