package beacontest_test

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// testKey is the key the tests' servers accept; it starts like the leak
// test keys so that a piece of it in any output is caught.
const testKey = "sEcReT-beacon-key"

// want is the default chain computed apart from any server: each state
// with its root and encodings, by the id a node names it with.
type wantState struct {
	st   *beacon.State
	root beacon.Root
	ssz  []byte
}

var (
	wantOnce sync.Once
	wantBy   map[beacon.StateID]*wantState // head, genesis, finalized, justified
	wantAll  []*wantState                  // oldest first
)

func defaults(t testing.TB) (map[beacon.StateID]*wantState, []*wantState) {
	t.Helper()
	wantOnce.Do(func() {
		sts := beacontest.DefaultStates()
		for _, st := range sts {
			root, err := beacon.HashTreeRoot(st)
			if err != nil {
				panic(err)
			}
			ssz, err := marshalSSZ(st)
			if err != nil {
				panic(err)
			}
			wantAll = append(wantAll, &wantState{st: st, root: root, ssz: ssz})
		}
		wantBy = map[beacon.StateID]*wantState{
			beacon.Genesis: wantAll[0], beacon.Finalized: wantAll[1],
			beacon.Justified: wantAll[2], beacon.Head: wantAll[3],
		}
	})
	require.Len(t, wantAll, 4)
	return wantBy, wantAll
}

// jsonOf is st's JSON response with flags f, encoded apart from any server.
func jsonOf(t testing.TB, st *beacon.State, f beacon.Flags) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, beacon.WriteState(&b, st, beacon.EncodingJSON, &f))
	return b.Bytes()
}

// start starts a server with the test key and closes it when the test ends.
func start(t testing.TB, opts ...beacontest.Option) *beacontest.Server {
	t.Helper()
	srv, err := beacontest.New(append([]beacontest.Option{beacontest.WithKey(testKey)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// client returns the server's beacon client with opts.
func client(t testing.TB, srv *beacontest.Server, opts ...nodeaccess.Option) *beacon.Client {
	t.Helper()
	c, err := srv.Client(opts...)
	require.NoError(t, err)
	return c
}

// raw sends method to path below the server's URL with the Accept header
// lines given, and returns the status, the headers and the body.
func raw(t testing.TB, method, url string, accept ...string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	require.NoError(t, err)
	for _, a := range accept {
		req.Header.Add("Accept", a)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

// smallState is a minimal-preset state at slot with checkpoints that put
// its finalized epoch at fin and its justified one at just.
func smallState(v beacon.Version, slot beacon.Slot, fin, just beacon.Epoch, seed uint64) *beacon.State {
	st := beacontest.NewState(v, beacon.MinimalPreset(), 16, seed)
	st.Slot = slot
	st.LatestBlockHeader.Slot = slot
	st.Fork.Epoch = 0
	st.FinalizedCheckpoint.Epoch = fin
	st.CurrentJustifiedCheckpoint.Epoch = just
	st.PreviousJustifiedCheckpoint.Epoch = fin
	return st
}

// The default chain's shape, as DefaultStates documents it.
const (
	defaultFork                      = beacon.Fulu
	defaultValidators                = 16384
	defaultGenesisSlot   beacon.Slot = 0
	defaultFinalizedSlot beacon.Slot = 13_199_936
	defaultJustifiedSlot beacon.Slot = 13_199_968
	defaultHeadSlot      beacon.Slot = 13_200_031
	progressStep                     = 1 << 20 // WithProgress's step
)

// allForks is every fork the beacon package decodes, oldest first.
func allForks() []beacon.Version {
	var out []beacon.Version
	for v := beacon.Phase0; v <= beacon.Gloas; v++ {
		out = append(out, v)
	}
	return out
}

// marshalSSZ returns st in SSZ, as the server sends it.
func marshalSSZ(st *beacon.State) ([]byte, error) {
	var b bytes.Buffer
	err := beacon.WriteState(&b, st, beacon.EncodingSSZ, nil)
	return b.Bytes(), err
}
