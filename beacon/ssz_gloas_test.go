package beacon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGloasSSZBidErrors: a bid whose commitments offset is not its fixed
// size, or whose commitments are not whole, fails with a DecodeError that
// names the field.
func TestGloasSSZBidErrors(t *testing.T) {
	v := gloasVectors[0]
	raw := readVector(t, v, ".ssz")
	typ := refStateType(beacon.Gloas, v.preset)
	bid := 43 // latest_execution_payload_bid's index in the state
	start := offsetOf(raw, typ, bid)
	bad := append([]byte{}, raw...)
	put32(bad, start+188, 225)
	_, err := unmarshalSSZ(bad, beacon.Gloas, v.preset)
	var de *beacon.DecodeError
	require.True(t, errors.As(err, &de), "%v", err)
	assert.Equal(t, "latest_execution_payload_bid.blob_kzg_commitments", de.Path)
	assert.Contains(t, de.Reason, "offset 225, want 224")

	// Move the next field's offset one byte on: the bid's scope is no
	// longer a fixed part and whole commitments.
	bad = append([]byte{}, raw...)
	put32(bad, fieldPos(typ, bid+1), offsetOf(raw, typ, bid+1)+1)
	_, err = unmarshalSSZ(bad, beacon.Gloas, v.preset)
	require.True(t, errors.As(err, &de), "%v", err)
	assert.Equal(t, "latest_execution_payload_bid.blob_kzg_commitments", de.Path)
	assert.True(t, strings.Contains(de.Reason, "not a whole number of 48-byte commitments"), de.Reason)
}
