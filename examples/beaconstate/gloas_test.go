package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A gloas state (Sepolia's fork since 2026-10-06) goes through the program
// as any other: downloaded, decoded, hashed and verified by its root.
func TestGloasState(t *testing.T) {
	st := beacontest.NewState(beacon.Gloas, beacon.MainnetPreset(), 64, 7)
	root, err := beacon.HashTreeRoot(st)
	require.NoError(t, err)
	var ssz bytes.Buffer
	require.NoError(t, beacon.WriteState(&ssz, st, beacon.EncodingSSZ, nil))
	want := ssz.Bytes()
	srv, err := beacontest.New(beacontest.WithStates(st))
	require.NoError(t, err)
	defer srv.Close()

	path := filepath.Join(t.TempDir(), "gloas.ssz")
	got, err := runWith(t, map[string]string{
		"NODEACCESS_BEACON_URL":   srv.URL + "/beacon/" + srv.Key(),
		"NODEACCESS_BEACON_OUT":   path,
		"NODEACCESS_BEACON_STATE": string(beacon.RootID(root)),
	})
	require.NoError(t, err, got)
	lines := strings.Split(got, "\n")
	require.GreaterOrEqual(t, len(lines), 7, got)
	assert.Regexp(t, `^Downloaded \d+ bytes \(\S+ MB\) of gloas SSZ in `, lines[3])
	assert.Regexp(t, `^Read the file in place: gloas state at slot \d+ \(epoch \d+\), 64 validators\.$`, lines[4])
	assert.Equal(t, "Verified: the hash tree root is the state root asked for.", lines[6])
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, file))
}
