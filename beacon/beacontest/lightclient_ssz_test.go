package beacontest_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// sszReader reads the test's view of the SSZ containers.
type sszReader struct {
	t testing.TB
	b []byte
}

func (r sszReader) header(off int, end int) (beacon.BeaconBlockHeader, beacon.Root, []beacon.Root) {
	b := r.b[off:end]
	h := beacon.BeaconBlockHeader{Slot: beacon.Slot(binary.LittleEndian.Uint64(b)), ProposerIndex: beacon.ValidatorIndex(binary.LittleEndian.Uint64(b[8:])),
		ParentRoot: beacon.Root(b[16:48]), StateRoot: beacon.Root(b[48:80]), BodyRoot: beacon.Root(b[80:112])}
	require.Equal(r.t, uint32(244), binary.LittleEndian.Uint32(b[112:]), "the execution header's offset")
	var br []beacon.Root
	for i := range 4 {
		br = append(br, beacon.Root(b[116+32*i:]))
	}
	root, err := beacon.HashTreeRoot(h)
	require.NoError(r.t, err)
	return h, root, br
}

// TestLightClientSSZ reads the SSZ forms and checks them against the JSON
// ones: the update chunks (length, fork digest, update) and a bootstrap.
func TestLightClientSSZ(t *testing.T) {
	srv := lcServer(t, 2)
	var list []envelope[tUpdate]
	code, _, _ := lcGet(t, srv, "updates?start_period=0&count=3", "application/json", &list)
	require.Equal(t, 200, code)
	code, h, body := lcGet(t, srv, "updates?start_period=0&count=3", "application/octet-stream", nil)
	require.Equal(t, 200, code)
	require.Equal(t, "application/octet-stream", h.Get("Content-Type"))
	var fd [64]byte
	copy(fd[:], lcForkVersion[:])
	copy(fd[32:], lcGVR[:])
	digest := sha256.Sum256(fd[:])
	// The values the package documentation gives.
	require.Equal(t, "ad214bfd6971b70b25a18308751fa09df1d71271fdc88b4139ffd92ce58d2e36", hex.EncodeToString(lcGVR[:]))
	require.Equal(t, "2882c45f", hex.EncodeToString(digest[:4]))
	for i := range list {
		require.GreaterOrEqual(t, len(body), 12)
		n := binary.LittleEndian.Uint64(body)
		require.LessOrEqual(t, n, uint64(len(body)-8))
		chunk := body[8 : 8+n]
		body = body[8+n:]
		require.Equal(t, digest[:4], chunk[:4], "the fork digest of electra")
		u := chunk[4:]
		// Fixed part: offset, committee, branch(6), offset, branch(7), aggregate, slot.
		r := sszReader{t, u}
		aOff := int(binary.LittleEndian.Uint32(u))
		pos := 4
		var keys []string
		for range lcSize {
			keys = append(keys, "0x"+hex.EncodeToString(u[pos:pos+48]))
			pos += 48
		}
		require.Equal(t, list[i].Data.NextSyncCommittee.PublicKeys, keys)
		pos += 48 + 6*32
		fOff := int(binary.LittleEndian.Uint32(u[pos:]))
		pos += 4 + 7*32
		require.Equal(t, list[i].Data.SyncAggregate.Bits, "0x"+hex.EncodeToString(u[pos:pos+4]))
		require.Equal(t, list[i].Data.SyncAggregate.Signature, "0x"+hex.EncodeToString(u[pos+4:pos+100]))
		require.Equal(t, list[i].Data.SignatureSlot, fmt.Sprint(binary.LittleEndian.Uint64(u[pos+100:])))
		require.Equal(t, pos+108, aOff)
		_, ar, abr := r.header(aOff, fOff)
		_, jr := list[i].Data.AttestedHeader.block(t)
		require.Equal(t, jr, ar)
		require.Equal(t, roots(t, list[i].Data.AttestedHeader.ExecutionBranch), abr)
	}
	require.Empty(t, body)

	// A bootstrap: offset, committee, branch(6), then the header.
	ar, _ := list[1].Data.AttestedHeader.block(t)
	_, arRoot := list[1].Data.AttestedHeader.block(t)
	var b envelope[tBootstrap]
	code, _, _ = lcGet(t, srv, "bootstrap/"+arRoot.String(), "application/json", &b)
	require.Equal(t, 200, code)
	code, _, body = lcGet(t, srv, "bootstrap/"+arRoot.String(), "application/octet-stream", nil)
	require.Equal(t, 200, code)
	fixed := 4 + 48*(lcSize+1) + 6*32
	require.Equal(t, uint32(fixed), binary.LittleEndian.Uint32(body))
	require.Equal(t, b.Data.CurrentSyncCommittee.PublicKeys[0], "0x"+hex.EncodeToString(body[4:52]))
	require.Equal(t, b.Data.CurrentSyncCommittee.Aggregate, "0x"+hex.EncodeToString(body[4+48*lcSize:4+48*(lcSize+1)]))
	require.Equal(t, roots(t, b.Data.CurrentSyncCommitteeBranch)[5], beacon.Root(body[fixed-32:fixed]))
	bh, bRoot, _ := sszReader{t, body}.header(fixed, len(body))
	require.Equal(t, arRoot, bRoot)
	require.Equal(t, ar, bh)
	var e beacon.ExecutionPayloadHeader
	require.NoError(t, json.Unmarshal(b.Data.Header.Execution, &e))
	require.Equal(t, e.ExtraData, body[len(body)-len(e.ExtraData):], "the execution header ends the body")
	require.Len(t, body, fixed+lcHeaderFixedTest+584+len(e.ExtraData))

	code, h, body = lcGet(t, srv, "optimistic_update", "application/octet-stream", nil)
	require.Equal(t, 200, code)
	require.Equal(t, "electra", h.Get("Eth-Consensus-Version"))
	require.Equal(t, uint32(4+4+96+8), binary.LittleEndian.Uint32(body))

	// A short signature shortens the SSZ container by one byte, and the
	// offset of the header with it.
	srv.Lie(beacontest.Lie{ShortSignature: true})
	code, _, short := lcGet(t, srv, "optimistic_update", "application/octet-stream", nil)
	require.Equal(t, 200, code)
	require.Len(t, short, len(body)-1)
	require.Equal(t, uint32(4+4+95+8), binary.LittleEndian.Uint32(short))
}
