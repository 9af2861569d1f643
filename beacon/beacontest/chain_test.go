package beacontest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// headerOf is a getBlockHeader answer as the tests read it.
type headerOf struct {
	ExecutionOptimistic *bool `json:"execution_optimistic"`
	Finalized           *bool `json:"finalized"`
	Data                struct {
		Root      beacon.Root `json:"root"`
		Canonical bool        `json:"canonical"`
		Header    struct {
			Message   beacon.BeaconBlockHeader `json:"message"`
			Signature beacon.BLSSignature      `json:"signature"`
		} `json:"header"`
	} `json:"data"`
}

// getHeader reads the header of id, failing unless the status is want.
func getHeader(t *testing.T, base, id string, want int) (headerOf, string) {
	t.Helper()
	status, h, body := raw(t, "GET", base+"/eth/v1/beacon/headers/"+id)
	require.Equal(t, want, status, "%s: %s", id, body)
	require.Equal(t, "application/json", h.Get("Content-Type"))
	var a headerOf
	if status == http.StatusOK {
		require.NoError(t, json.Unmarshal(body, &a))
		require.NotNil(t, a.ExecutionOptimistic)
		require.NotNil(t, a.Finalized)
		root, err := beacon.HashTreeRoot(a.Data.Header.Message)
		require.NoError(t, err)
		require.Equal(t, root, a.Data.Root, "%s: the root is the header's", id)
	}
	return a, string(body)
}

// The chain of headers: real roots and parent roots, empty slots, a
// reorganisation keeping the old blocks by root, finality, and the wire.
func TestChainOfHeaders(t *testing.T) {
	srv := start(t, beacontest.WithStates())
	base := srv.URL + "/beacon/" + testKey

	g, body := getHeader(t, base, "head", 200)
	require.Equal(t, beacon.Slot(0), g.Data.Header.Message.Slot)
	require.Equal(t, beacon.Root{}, g.Data.Header.Message.ParentRoot)
	require.True(t, g.Data.Canonical)
	require.True(t, *g.Finalized)
	require.Equal(t, fmt.Sprintf(`{"execution_optimistic":false,"finalized":true,"data":{"root":"%s","canonical":true,"header":{"message":`+
		`{"slot":"0","proposer_index":"0","parent_root":"0x%064x","state_root":"%s","body_root":"%s"},"signature":"0xc0%s"}}}`,
		g.Data.Root.Hex(), 0, g.Data.Header.Message.StateRoot.Hex(), g.Data.Header.Message.BodyRoot.Hex(), strings.Repeat("00", 95)), body)

	require.NoError(t, srv.Advance(10, 3, 10))
	prev := g.Data.Root
	var roots []beacon.Root
	for s := 1; s <= 10; s++ {
		if s == 3 || s == 10 {
			_, body := getHeader(t, base, fmt.Sprint(s), 404)
			require.Contains(t, body, `"code":404`)
			continue
		}
		a, _ := getHeader(t, base, fmt.Sprint(s), 200)
		require.Equal(t, beacon.Slot(s), a.Data.Header.Message.Slot)
		require.Equal(t, prev, a.Data.Header.Message.ParentRoot)
		require.True(t, a.Data.Canonical)
		require.False(t, *a.Finalized)
		prev = a.Data.Root
		roots = append(roots, a.Data.Root)
	}
	head, _ := getHeader(t, base, "head", 200)
	require.Equal(t, beacon.Slot(9), head.Data.Header.Message.Slot)

	// Reorg(2): slots 8 and 9 get other blocks; the old ones are served by
	// root, not canonical.
	require.NoError(t, srv.Reorg(2))
	old9, _ := getHeader(t, base, roots[len(roots)-1].Hex(), 200)
	require.False(t, old9.Data.Canonical)
	new9, _ := getHeader(t, base, "9", 200)
	require.NotEqual(t, old9.Data.Root, new9.Data.Root)
	new8, _ := getHeader(t, base, "8", 200)
	require.Equal(t, new8.Data.Root, new9.Data.Header.Message.ParentRoot)
	require.Equal(t, roots[len(roots)-3], new8.Data.Header.Message.ParentRoot)
	byRoot, _ := getHeader(t, base, new9.Data.Root.Hex(), 200)
	require.True(t, byRoot.Data.Canonical)
	getHeader(t, base, beacon.Root{1}.Hex(), 404)

	// Finality: epoch 0 and the zero root, then what Finalize says.
	status, _, fin := raw(t, "GET", base+"/eth/v1/beacon/states/head/finality_checkpoints")
	require.Equal(t, 200, status)
	zero := `{"epoch":"0","root":"0x` + strings.Repeat("00", 32) + `"}`
	require.Equal(t, `{"execution_optimistic":false,"finalized":false,"data":{"previous_justified":`+zero+`,"current_justified":`+zero+`,"finalized":`+zero+`}}`, string(fin))
	require.Error(t, srv.Finalize(1), "epoch 1 starts at slot 32, past the current slot 10")
	require.NoError(t, srv.Advance(40, 32))
	require.NoError(t, srv.Finalize(1))
	_, _, fin = raw(t, "GET", base+"/eth/v1/beacon/states/head/finality_checkpoints")
	b31, _ := getHeader(t, base, "31", 200)
	cp := fmt.Sprintf(`{"epoch":"1","root":"%s"}`, b31.Data.Root.Hex())
	require.Contains(t, string(fin), `"finalized":`+cp)
	f, _ := getHeader(t, base, "finalized", 200)
	require.Equal(t, b31.Data.Root, f.Data.Root)
	require.True(t, *f.Finalized)
	require.Error(t, srv.Finalize(0), "below the finalized epoch")

	// A reorganisation never replaces the finalized block: the blocks of
	// slots 33 to 50 (18) can go, not one more.
	require.Error(t, srv.Reorg(19))
	require.NoError(t, srv.Reorg(18))
	still, _ := getHeader(t, base, "31", 200)
	require.Equal(t, b31.Data.Root, still.Data.Root)

	require.Error(t, srv.Advance(0))
	require.Error(t, srv.Advance(2, 50), "slot 50 is not new")
	require.Error(t, srv.Reorg(0))
	for _, bad := range []string{"justified", "latest", "-1", "0x12"} {
		getHeader(t, base, bad, 400)
	}
	status, _, _ = raw(t, "GET", base+"/eth/v1/beacon/states/finalized/finality_checkpoints")
	require.Equal(t, 404, status)
	status, _, _ = raw(t, "GET", base+"/eth/v1/beacon/states/bad/finality_checkpoints")
	require.Equal(t, 400, status)
}
