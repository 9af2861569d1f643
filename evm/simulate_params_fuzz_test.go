package evm

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// FuzzSimulationParams: a simulation of any calls, data and overrides,
// given to a batch's Add (encoded in the default spelling, respelt for
// the client when it is sent) goes out as SimulateV1 sends it, in each
// spelling of the call data: every call's data under the spelling's
// members, and no other member touched.
func FuzzSimulationParams(f *testing.F) {
	f.Add(uint8(3), []byte{0x70, 0xa0, 0x82, 0x31}, uint64(0))
	f.Add(uint8(1), []byte{}, uint64(1))
	f.Add(uint8(7), []byte(`"data":"0x`), uint64(0x64617461)) // the member's text as data
	f.Add(uint8(0), []byte{0xab}, uint64(2))
	f.Fuzz(func(t *testing.T, calls uint8, data []byte, n uint64) {
		sim := Simulation{Blocks: []SimBlock{{
			StateOverride: StateOverride{common.BytesToAddress(data): {Code: data, Balance: new(big.Int).SetUint64(n)}},
		}, {}}, TraceTransfers: n%2 == 1}
		for i := range int(calls % 8) {
			m := CallMsg{To: common.BytesToAddress([]byte{byte(i)}), Gas: n}
			if i%2 == 0 {
				m.Data = append(data, byte(i))
			}
			sb := &sim.Blocks[i%2]
			sb.Calls = append(sb.Calls, m)
		}
		for _, spell := range []callDataSpelling{spellData, spellInput, spellBoth} {
			want, err := simulateParams(nil, &sim, Latest, spell)
			if err != nil {
				t.Fatal(err)
			}
			ac, err := anyParams(OpSimulate, []any{sim, Latest}, spellData)
			if err != nil {
				t.Fatal(err)
			}
			got := ac.params
			if ac.calls {
				got = respell(got, spell)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("spelling %d: Add sends\n%s\nwant\n%s", spell, got, want)
			}
			if !json.Valid(got) {
				t.Fatalf("%s is not JSON", got)
			}
			direct, err := anyParams(OpSimulate, []any{&sim, Latest}, spell)
			if err != nil || !bytes.Equal(direct.params, want) {
				t.Fatalf("spelling %d: CallContext sends\n%s (%v)\nwant\n%s", spell, direct.params, err, want)
			}
		}
	})
}
