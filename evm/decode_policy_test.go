package evm

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The decoding policy (docs/options-and-errors.md): every member of an
// EVM answer is load-bearing (a JSON-RPC result says exactly what it is),
// so one that cannot be read refuses the answer, naming the item and
// never guessing a value.
func TestInternalOperationsDecodePolicy(t *testing.T) {
	body := testkit.RoundTripJSON(t, []byte(`[`+
		`{"type":0,"from":"0x0000000000000000000000000000000000000001","to":"0x0000000000000000000000000000000000000002","value":"0x1"},`+
		`{"type":2,"from":"0x0000000000000000000000000000000000000003","to":"0x0000000000000000000000000000000000000004","value":"0x0"}]`))
	base, err := decodeInternalOperations(body)
	require.NoError(t, err)
	require.Len(t, base, 2)
	for _, member := range []string{"type", "from", "to", "value"} {
		for _, shape := range testkit.OddJSONShapes {
			if member == "type" && shape == `0` {
				continue // a valid type
			}
			_, err := decodeInternalOperations(testkit.SetJSON(t, body, shape, 0, member))
			require.Error(t, err, "%s = %s", member, shape)
			assert.Contains(t, err.Error(), "internal operation 0", "%s = %s: the item is named", member, shape)
		}
	}
}
