package beacon_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
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
	p, err := beacon.ReadProver(r, body, saveState(t, data), st.Preset)
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
				t.Run(v.String()+"/"+p.Name+"/"+itoa(n), func(t *testing.T) {
					checkStreamProver(t, st, data, true)
					checkStreamProver(t, st, data, false)
				})
			}
		}
	}
}

func itoa(n int) string { return string(rune('0'+n%10)) + map[bool]string{true: "", false: "+"}[n < 10] }

// TestReadProverRealStates streams the Sepolia genesis state and
// Lodestar's gloas states: the Prover's root is the published (Sepolia)
// or Lodestar's root, and its proofs are NewProver's.
func TestReadProverRealStates(t *testing.T) {
	sepolia, err := os.ReadFile("testdata/sepolia-genesis.ssz")
	require.NoError(t, err)
	st, err := decodeSSZ(bytes.NewReader(sepolia), beacon.Phase0)
	require.NoError(t, err)
	checkStreamProver(t, st, sepolia, true)
	p, err := beacon.ReadProver(bytes.NewReader(sepolia), sszBody(beacon.Phase0, 0), bytes.NewReader(sepolia))
	require.NoError(t, err)
	require.Equal(t, "0xfb9afe32150fa39f4b346be2519a67e2a4f5efcd50a1dc192c3f6b3d013d2798", p.StateRoot().Hex())

	mainnet2 := gunzipFile(t, "testdata/gloas/mainnet-2.ssz.gz")
	st, err = decodeSSZ(bytes.NewReader(mainnet2), beacon.Gloas)
	require.NoError(t, err)
	checkStreamProver(t, st, mainnet2, false)
	lodestar, err := os.ReadFile("testdata/gloas/mainnet-2.root")
	require.NoError(t, err)
	p, err = beacon.ReadProver(bytes.NewReader(mainnet2), sszBody(beacon.Gloas, len(mainnet2)), bytes.NewReader(mainnet2))
	require.NoError(t, err)
	require.Contains(t, string(lodestar), p.StateRoot().Hex()[2:])
}
