package ton_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeaccess/nodeaccess/ton"
)

// The jetton operations are TEP-74's opcodes, named as TEP-74 names them.
func TestJettonOpNames(t *testing.T) {
	for op, want := range map[ton.JettonOp]string{
		0x0f8a7ea5: "transfer", 0x178d4519: "internal_transfer", 0x7362d09c: "transfer_notification", 0x12: "0x00000012",
	} {
		assert.Equal(t, want, op.String())
	}
	assert.Equal(t, ton.JettonOp(0x178d4519), ton.JettonOpInternalTransfer)
}
