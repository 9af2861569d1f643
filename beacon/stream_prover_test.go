package beacon_test

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// saveState writes data to a file in a test directory and opens it.
func saveState(t testing.TB, data []byte) *os.File {
	t.Helper()
	path := t.TempDir() + "/state.ssz"
	require.NoError(t, os.WriteFile(path, data, 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// streamPaths are the paths whose proofs a streaming Prover must make as
// NewProver does: into each kind of list it keeps on disk (first, middle,
// last element, past the end, the length), and the block root.
func streamPaths(st *beacon.State) [][]any {
	n := len(st.Validators)
	var paths [][]any
	for _, i := range []int{0, 1, n / 2, n - 1, n, n + 100} {
		paths = append(paths,
			[]any{"validators", i}, []any{"validators", i, "pubkey"}, []any{"validators", i, "exit_epoch"},
			[]any{"balances", i / 4})
		if st.Version >= beacon.Altair {
			paths = append(paths, []any{"inactivity_scores", i / 4}, []any{"current_epoch_participation", i / 32})
		}
	}
	paths = append(paths, []any{"validators", "__len__"}, []any{"balances", "__len__"}, []any{"historical_roots", 0}, []any{"eth1_data_votes", 0, "block_hash"})
	if st.Version >= beacon.Capella {
		paths = append(paths, []any{"historical_summaries", 0, "state_summary_root"})
	}
	if st.Version >= beacon.Electra {
		paths = append(paths, []any{"pending_deposits", 0, "signature"}, []any{"pending_partial_withdrawals", 0, "amount"}, []any{"pending_consolidations", 0})
	}
	if st.Version >= beacon.Gloas {
		paths = append(paths, []any{"builders", 0, "balance"}, []any{"builder_pending_withdrawals", 0}, []any{"payload_expected_withdrawals", 0, "address"})
	}
	return paths
}

// checkStreamProver makes a Prover of data (st in SSZ) with ReadProver
// from r, its lists read back from a saved file, and checks it against
// NewProver's: the same root (HashTreeRoot's), and the same proofs, each
// verifying.
func checkStreamProver(t *testing.T, st *beacon.State, data []byte, sized bool) {
	t.Helper()
	want, err := beacon.NewProver(st)
	require.NoError(t, err)
	root, err := beacon.HashTreeRoot(st)
	require.NoError(t, err)
	body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: st.Version.String()}
	var r = onlyReader{bytes.NewReader(data)} // a stream
	if sized {
		body.Bytes = int64(len(data))
	}
	p, err := beacon.ReadProver(r, body, saveState(t, data), beacon.ReadOptions{Preset: st.Preset})
	require.NoError(t, err)
	require.Equal(t, root, p.StateRoot())

	names := beacon.FieldNames(st.Version, st.Preset)
	paths := streamPaths(st)
	for _, name := range names {
		paths = append(paths, []any{name})
	}
	for _, path := range paths {
		g, err := p.GIndexOf(path...)
		require.NoError(t, err, path)
		got, err := p.Prove(g)
		exp, wantErr := want.Prove(g)
		if wantErr != nil { // a path below a zero chunk past the list's end
			require.EqualError(t, err, wantErr.Error(), path)
			continue
		}
		require.NoError(t, err, path)
		require.Equal(t, exp, got, path)
		require.True(t, got.Verify(root), path)
	}
	br, err := p.BlockRoot()
	wantBR, err2 := want.BlockRoot()
	require.Equal(t, err2 == nil, err == nil)
	require.Equal(t, wantBR, br)
}

// TestReadProverAgreesWithNewProver streams random states of every fork
// and both presets, sized and of unknown size, and small and with enough
// validators to cross the runs a goroutine hashes and gloas's progressive
// subtrees.
func TestReadProverAgreesWithNewProver(t *testing.T) {
	for _, p := range []beacon.Preset{beacon.MainnetPreset(), beacon.MinimalPreset()} {
		for _, v := range allForks() {
			for _, n := range []int{1, 37, 5000} {
				if n == 5000 && p.Name == "minimal" {
					continue
				}
				st := beacontest.NewState(v, p, n, uint64(v)+uint64(n))
				data, err := marshalSSZ(st)
				require.NoError(t, err)
				t.Run(v.String()+"/"+p.Name+"/"+strconv.Itoa(n), func(t *testing.T) {
					checkStreamProver(t, st, data, true)
					checkStreamProver(t, st, data, false)
				})
			}
		}
	}
}

// TestReadProverRealStates streams the Sepolia genesis state and
// Lodestar's gloas states: the Prover's root is the published (Sepolia)
// or Lodestar's root, and its proofs are NewProver's.
func TestReadProverRealStates(t *testing.T) {
	sepolia, err := os.ReadFile("testdata/sepolia-genesis.ssz")
	require.NoError(t, err)
	st, err := decodeSSZ(bytes.NewReader(sepolia), beacon.Phase0)
	require.NoError(t, err)
	checkStreamProver(t, st, sepolia, true)
	p, err := beacon.ReadProver(bytes.NewReader(sepolia), sszBody(beacon.Phase0, 0), bytes.NewReader(sepolia), beacon.ReadOptions{})
	require.NoError(t, err)
	require.Equal(t, "0xfb9afe32150fa39f4b346be2519a67e2a4f5efcd50a1dc192c3f6b3d013d2798", p.StateRoot().Hex())

	mainnet2 := gunzipFile(t, "testdata/gloas/mainnet-2.ssz.gz")
	st, err = decodeSSZ(bytes.NewReader(mainnet2), beacon.Gloas)
	require.NoError(t, err)
	checkStreamProver(t, st, mainnet2, false)
	lodestar, err := os.ReadFile("testdata/gloas/mainnet-2.root")
	require.NoError(t, err)
	p, err = beacon.ReadProver(bytes.NewReader(mainnet2), sszBody(beacon.Gloas, len(mainnet2)), bytes.NewReader(mainnet2), beacon.ReadOptions{})
	require.NoError(t, err)
	require.Contains(t, string(lodestar), p.StateRoot().Hex()[2:])
}

// TestReadProverSavedStateChanged: a proof whose chunks were read back
// from a saved state that changed (or cannot be read) since the Prover
// hashed it is an error, never a wrong proof; proofs that stay above the
// kept levels still work.
func TestReadProverSavedStateChanged(t *testing.T) {
	st := beacontest.NewState(beacon.Electra, beacon.MinimalPreset(), 100, 9)
	data, err := marshalSSZ(st)
	require.NoError(t, err)
	saved := bytes.Clone(data)
	p, err := beacon.ReadProver(bytes.NewReader(data), sszBody(beacon.Electra, len(data)), bytes.NewReader(saved), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	require.NoError(t, err)
	start := validatorsStart(t, data)
	saved[start+40*121+100]++ // validator 40's activation_epoch
	for _, path := range [][]any{{"validators", 40}, {"validators", 33, "pubkey"}} {
		g, err := p.GIndexOf(path...)
		require.NoError(t, err)
		_, err = p.Prove(g)
		require.ErrorIs(t, err, beacon.ErrIntegrity, path)
	}
	for _, path := range [][]any{{"validators", 20}, {"balances", 10}, {"slot"}} {
		g, err := p.GIndexOf(path...)
		require.NoError(t, err)
		pr, err := p.Prove(g)
		require.NoError(t, err, path)
		require.True(t, pr.Verify(p.StateRoot()))
	}
	// A saved state cut short, or failing: the reader's error.
	p, err = beacon.ReadProver(bytes.NewReader(data), sszBody(beacon.Electra, len(data)), bytes.NewReader(data[:start+10*121]), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	require.NoError(t, err)
	g, err := p.GIndexOf("validators", 90)
	require.NoError(t, err)
	_, err = p.Prove(g)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	p, err = beacon.ReadProver(bytes.NewReader(data), sszBody(beacon.Electra, len(data)), failingReaderAt{}, beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	require.NoError(t, err)
	_, err = p.Prove(g)
	require.ErrorIs(t, err, errDisk)
}

// TestReadProverInvalidState: a stream that is not a valid state fails as
// ReadState fails on it, with the same *DecodeError, in a list it hashes
// (a validator's slashed byte, a list's length) as elsewhere.
func TestReadProverInvalidState(t *testing.T) {
	st := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 50, 4)
	data, err := marshalSSZ(st)
	require.NoError(t, err)
	start := validatorsStart(t, data)
	slashed := bytes.Clone(data)
	slashed[start+7*121+88] = 2
	cut := data[:len(data)-5]
	tail := append(bytes.Clone(data), 0)
	for name, b := range map[string][]byte{"slashed": slashed, "cut": cut, "trailing": tail, "fixed part": data[:1000]} {
		for _, sized := range []bool{true, false} {
			body := beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "deneb"}
			if sized {
				body.Bytes = int64(len(b))
			}
			_, _, want := beacon.ReadState(onlyReader{bytes.NewReader(b)}, body, beacon.ReadOptions{Preset: beacon.MinimalPreset()})
			require.Error(t, want, name)
			_, err := beacon.ReadProver(onlyReader{bytes.NewReader(b)}, body, bytes.NewReader(b), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
			require.EqualError(t, err, want.Error(), name)
			require.ErrorAs(t, err, new(*beacon.DecodeError), name)
		}
	}
	// A stream that breaks off inside the validators, its size known.
	for _, n := range []int{start + 3000, start + 50*121 + 10} {
		body := sszBody(beacon.Deneb, len(data))
		_, _, want := beacon.ReadState(onlyReader{bytes.NewReader(data[:n])}, body, beacon.ReadOptions{Preset: beacon.MinimalPreset()})
		require.ErrorIs(t, want, io.ErrUnexpectedEOF)
		_, err := beacon.ReadProver(onlyReader{bytes.NewReader(data[:n])}, body, bytes.NewReader(data), beacon.ReadOptions{Preset: beacon.MinimalPreset()})
		require.EqualError(t, err, want.Error())
		require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	}
}

// TestReadProverKeepsUpperLevelsOnly: what a streaming Prover keeps does
// not grow with the lists as the state does: from 50,000 to 200,000
// validators the state grows by about 21 MB, the Prover by the upper
// levels of its lists' trees only (about 6 bytes per validator), under 12
// bytes per validator here.
func TestReadProverKeepsUpperLevelsOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("generates states of 200,000 validators")
	}
	retained := func(n int) uint64 {
		st := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), n, 1)
		data, err := marshalSSZ(st)
		require.NoError(t, err)
		st = nil
		f := saveState(t, data)
		data = nil
		before := liveHeap()
		p, err := beacon.ReadProver(f, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu"}, f, beacon.ReadOptions{})
		require.NoError(t, err)
		after := liveHeap()
		runtime.KeepAlive(p)
		return after - min(before, after)
	}
	small, big := retained(50_000), retained(200_000)
	t.Logf("retained: %d bytes at 50,000 validators, %d at 200,000", small, big)
	require.Less(t, big, small+150_000*12)
}

// TestReadProverConcurrent proves from one streaming Prover on several
// goroutines at once (run with -race): every proof verifies.
func TestReadProverConcurrent(t *testing.T) {
	st := beacontest.NewState(beacon.Gloas, beacon.MinimalPreset(), 500, 3)
	data, err := marshalSSZ(st)
	require.NoError(t, err)
	f := saveState(t, data)
	p, err := beacon.ReadProver(bytes.NewReader(data), sszBody(beacon.Gloas, len(data)), f, beacon.ReadOptions{Preset: beacon.MinimalPreset()})
	require.NoError(t, err)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < 500; i += 8 {
				pr, err := proveValidatorField(p, beacon.ValidatorIndex(i), "pubkey")
				if assert.NoError(t, err) {
					assert.True(t, pr.Verify(p.StateRoot()))
				}
			}
		})
	}
	wg.Wait()
}
