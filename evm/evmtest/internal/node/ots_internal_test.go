package node

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tracer's policy, hook by hook: Erigon's.
func TestOpsTracerPolicy(t *testing.T) {
	a := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	b := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	tr := &opsTracer{ops: []internalOperation{}}
	tr.onEnter(0, byte(vm.CALL), a, b, nil, 0, big.NewInt(5))         // top level: left out
	tr.onEnter(0, byte(vm.CREATE), a, b, nil, 0, big.NewInt(5))       // top-level creation: left out
	tr.onEnter(1, byte(vm.CALL), a, b, nil, 0, big.NewInt(0))         // no value: left out
	tr.onEnter(1, byte(vm.CALL), a, b, nil, 0, nil)                   // no value: left out
	tr.onEnter(1, byte(vm.STATICCALL), a, b, nil, 0, nil)             // never listed
	tr.onEnter(1, byte(vm.DELEGATECALL), a, b, nil, 0, big.NewInt(9)) // never listed
	tr.onEnter(1, byte(vm.CALLCODE), a, b, nil, 0, big.NewInt(9))     // never listed (Erigon: CALL only)
	tr.onEnter(2, byte(vm.CALL), b, a, nil, 0, big.NewInt(3))         // 0
	tr.onEnter(1, byte(vm.CREATE2), a, b, nil, 0, nil)                // 3, value 0x0
	tr.onEnter(3, byte(vm.SELFDESTRUCT), b, a, nil, 0, big.NewInt(0)) // 1, zero value kept
	tr.onEnter(1, byte(vm.CREATE), a, b, nil, 0, big.NewInt(0x10000)) // 2
	out, err := json.Marshal(tr.ops)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"type":0,"from":"0x00000000000000000000000000000000000000bb","to":"0x00000000000000000000000000000000000000aa","value":"0x3"},
		{"type":3,"from":"0x00000000000000000000000000000000000000aa","to":"0x00000000000000000000000000000000000000bb","value":"0x0"},
		{"type":1,"from":"0x00000000000000000000000000000000000000bb","to":"0x00000000000000000000000000000000000000aa","value":"0x0"},
		{"type":2,"from":"0x00000000000000000000000000000000000000aa","to":"0x00000000000000000000000000000000000000bb","value":"0x10000"}
	]`, string(out))

	// The recorded value is a copy: the EVM may reuse its big.Int.
	v := big.NewInt(8)
	tr2 := &opsTracer{}
	tr2.onEnter(1, byte(vm.CALL), a, b, nil, 0, v)
	v.SetInt64(1)
	assert.Equal(t, "0x8", tr2.ops[0].Value.String())
}
