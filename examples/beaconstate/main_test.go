package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// defaultHead is the local server's head state, made apart from the server.
func defaultHead(t *testing.T) (beacon.Root, []byte) {
	t.Helper()
	head := beacontest.DefaultStates()[3]
	root, err := beacon.HashTreeRoot(head)
	require.NoError(t, err)
	var ssz bytes.Buffer
	require.NoError(t, beacon.WriteState(&ssz, head, beacon.EncodingSSZ, nil))
	return root, ssz.Bytes()
}

func runWith(t *testing.T, env map[string]string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	err := run(ctx, &out, func(k string) string { return env[k] })
	return out.String(), err
}

// checkBar checks the progress line: frames drawn with \r, each a bar with
// its percentage and sizes, growing, none narrower than the one before (a
// narrower one would leave characters of the longer one on the screen),
// ending at 100% of the total.
func checkBar(t *testing.T, line, total string) {
	t.Helper()
	frames := strings.Split(line, "\r")
	require.Equal(t, "", frames[0], "the line starts with \\r")
	frames = frames[1:]
	require.GreaterOrEqual(t, len(frames), 2)
	re := regexp.MustCompile(`^\[([# ]{30})\] +(\d+)%  \d+\.\d MB / ` + regexp.QuoteMeta(total) + `$`)
	last, width := -1, 0
	for _, f := range frames {
		assert.GreaterOrEqual(t, len(f), width, "frame %q is narrower than the one before", f)
		width = len(f)
		m := re.FindStringSubmatch(f)
		require.NotNil(t, m, "frame %q", f)
		pct := 0
		for _, c := range m[2] {
			pct = pct*10 + int(c-'0')
		}
		assert.Greater(t, pct, last, "frame %q", f)
		assert.Equal(t, strings.Repeat("#", strings.Count(m[1], "#")), strings.TrimRight(m[1], " "), "frame %q", f)
		last = pct
	}
	assert.Equal(t, "[##############################] 100%  "+total+" / "+total, frames[len(frames)-1])
}

// With no configuration it serves itself: the lines a user sees, the root of
// the served state, and the file holds the served state's SSZ exactly.
func TestLocal(t *testing.T) {
	root, ssz := defaultHead(t)
	path := filepath.Join(t.TempDir(), "state.ssz")
	got, err := runWith(t, map[string]string{"NODEACCESS_BEACON_OUT": path})
	require.NoError(t, err)
	lines := strings.Split(got, "\n")
	require.Len(t, lines, 11, got)
	assert.Regexp(t, `^No NODEACCESS_BEACON_URL set: using a local beacon server at http://127\.0\.0\.1:\d+ \(key REDACTED\)\.$`, lines[0])
	assert.Equal(t, "Downloading state head as SSZ to "+path, lines[1])
	checkBar(t, lines[2], "5.0 MB")
	assert.Regexp(t, `^Downloaded 5021637 bytes \(5\.0 MB\) of fulu SSZ in \d+(\.\d+)?(µs|ms|s), hashed as it arrived\.$`, lines[3])
	assert.Equal(t, "Read the file in place: fulu state at slot 13200031 (epoch 412500), 16384 validators.", lines[4])
	assert.Equal(t, "Hash tree root: "+string(beacon.RootID(root))+" (hashed while downloading)", lines[5])
	assert.Equal(t, "Not verified: head names no root to check against. Compare the root with one you trust, or ask for the state by its root (NODEACCESS_BEACON_STATE=0x…) to have it checked.", lines[6])
	head := beacontest.DefaultStates()[3]
	assert.Regexp(t, fmt.Sprintf(`^Validator 0: public key %s, balance %d gwei; `, head.Validators[0].PublicKey, head.Balances[0])+
		`proven against the state root \(generalized index 164926744166400, 47 sibling roots\) in \d+(\.\d+)?(µs|ms|s)\.$`, lines[7])
	assert.Regexp(t, `^Memory: the Go heap peaked at \d+\.\d MB above its start, for a state of 5\.0 MB\.$`, lines[8])
	assert.Equal(t, "State file: "+path+" (5.0 MB)", lines[9])
	assert.Equal(t, "", lines[10])

	file, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.Equal(ssz, file), "the file is not the served state's SSZ")
	st, _, err := beacon.ReadState(bytes.NewReader(file), beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "fulu"})
	require.NoError(t, err)
	fileRoot, err := beacon.HashTreeRoot(st)
	require.NoError(t, err)
	assert.Equal(t, root, fileRoot)
	assertMode(t, path, 0o644)
	assertDir(t, filepath.Dir(path), "state.ssz") // no temporary file left beside it
}

// With no output path it writes a new file in the temporary directory,
// says where, proves from it, and removes it: a run leaves no file behind
// (a mainnet state is about 300 MB), after success or failure.
func TestLocalDefaultOut(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // os.TempDir
	head := beacontest.DefaultStates()[3]
	got, err := runWith(t, map[string]string{"NODEACCESS_BEACON_STATE": "13200031"})
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^Downloading state 13200031 as SSZ to (.+)$`).FindStringSubmatch(got)
	require.NotNil(t, m, got)
	path := m[1]
	assert.Equal(t, tmp, filepath.Dir(path))
	assert.Regexp(t, `^beacon-state-\d+\.ssz$`, filepath.Base(path))
	assert.Regexp(t, fmt.Sprintf(`\nValidator 0: public key %s, balance %d gwei; proven against the state root`, head.Validators[0].PublicKey, head.Balances[0]), got)
	assert.True(t, strings.HasSuffix(got, "\nState file: none kept (the 5.0 MB in "+path+" is removed; name a file with -out or NODEACCESS_BEACON_OUT to keep the state)\n"), got)
	assert.NoFileExists(t, path)
	assertDir(t, tmp)

	// A failed run removes its file too.
	_, err = runWith(t, map[string]string{"NODEACCESS_BEACON_STATE": "5"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "(nothing was saved to "+tmp+string(filepath.Separator)+"beacon-state-")
	assertDir(t, tmp)
}

// Configured from the environment it calls that endpoint (here a local
// server started by the test, reached as a provider would be): by root the
// state is verified; the key appears nowhere.
func TestFromEnv(t *testing.T) {
	const key = "sEcReT-example-key"
	srv, err := beacontest.New(beacontest.WithKey(key))
	require.NoError(t, err)
	defer srv.Close()
	fin, ok := srv.Lookup(beacon.Finalized)
	require.True(t, ok)
	want, err := srv.Body(beacon.Finalized, beacon.EncodingSSZ)
	require.NoError(t, err)

	for _, env := range []map[string]string{
		{"NODEACCESS_BEACON_URL": srv.URL, "NODEACCESS_BEACON_KEY": key},
		{"NODEACCESS_BEACON_URL": srv.URL + "/beacon/" + key},
	} {
		path := filepath.Join(t.TempDir(), "fin.ssz")
		env["NODEACCESS_BEACON_OUT"] = path
		env["NODEACCESS_BEACON_STATE"] = string(beacon.RootID(fin.Root))
		got, err := runWith(t, env)
		require.NoError(t, err)
		lines := strings.Split(got, "\n")
		require.Len(t, lines, 11, got)
		assert.Equal(t, "Calling beacon.Client{"+srv.URL+"/beacon/REDACTED}.", lines[0])
		assert.Equal(t, "Downloading state "+string(beacon.RootID(fin.Root))+" as SSZ to "+path, lines[1])
		checkBar(t, lines[2], "5.0 MB")
		assert.Regexp(t, `^Downloaded \d+ bytes \(5\.0 MB\) of fulu SSZ in `, lines[3])
		assert.Equal(t, "Read the file in place: fulu state at slot 13199936 (epoch 412498), 16384 validators.", lines[4])
		assert.Equal(t, "Hash tree root: "+string(beacon.RootID(fin.Root))+" (hashed while downloading)", lines[5])
		assert.Equal(t, "Verified: the hash tree root is the state root asked for.", lines[6])
		assert.NotContains(t, got, key)
		assert.NotContains(t, got, "sEcReT")
		file, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, file))
	}
}

// Failures: a bad state id names the variable, and so does a key without a
// URL; an unknown state and a wrong key are the beacon client's errors, no
// file is left, and the key appears nowhere.
func TestErrors(t *testing.T) {
	const key = "sEcReT-example-key"
	srv, err := beacontest.New(beacontest.WithKey(key))
	require.NoError(t, err)
	defer srv.Close()
	dir := t.TempDir()

	_, err = runWith(t, map[string]string{"NODEACCESS_BEACON_STATE": "latest"})
	require.Error(t, err)
	assert.Equal(t, `NODEACCESS_BEACON_STATE: invalid input: stateID: "latest" is not head, genesis, finalized, justified, a decimal slot or a 0x state root`, err.Error())

	// As examples/vaults: a key set without a URL is refused, not ignored
	// for the local demo (nothing printed, no server started).
	got, err := runWith(t, map[string]string{"NODEACCESS_BEACON_KEY": key})
	require.Error(t, err)
	assert.Equal(t, "NODEACCESS_BEACON_KEY is set but NODEACCESS_BEACON_URL is not: set both, or neither to use a local server", err.Error())
	assert.NotContains(t, err.Error(), "sEcReT")
	assert.Empty(t, got)

	path := filepath.Join(dir, "missing.ssz")
	got, err = runWith(t, map[string]string{"NODEACCESS_BEACON_URL": srv.URL, "NODEACCESS_BEACON_KEY": key, "NODEACCESS_BEACON_STATE": "5", "NODEACCESS_BEACON_OUT": path})
	require.Error(t, err)
	assert.Equal(t, "beacon: getStateV2: state 5: HTTP 404 Not Found: NOT_FOUND: beacon state at slot 5 (nothing was saved to "+path+")", err.Error())
	assert.NoFileExists(t, path)
	assertDir(t, dir)
	assert.NotContains(t, got, key)

	got, err = runWith(t, map[string]string{"NODEACCESS_BEACON_URL": srv.URL, "NODEACCESS_BEACON_KEY": "sEcReT-wrong", "NODEACCESS_BEACON_OUT": path})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HTTP 403 Forbidden: FORBIDDEN: invalid access key")
	assert.NotContains(t, err.Error()+got, "sEcReT")
	assertDir(t, dir)

	_, err = runWith(t, map[string]string{"NODEACCESS_BEACON_URL": srv.URL, "NODEACCESS_BEACON_KEY": key, "NODEACCESS_BEACON_OUT": filepath.Join(dir, "no-such-dir", "x.ssz")})
	require.Error(t, err)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "saving to "+filepath.Join(dir, "no-such-dir", "x.ssz")+": ")
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := &progressBar{w: &b}
	p.end()
	assert.Empty(t, b.String(), "no bar drawn, no line ended")
	p.update(1_200_000, 2_700_000)
	p.update(2_700_000, 2_700_000)
	p.end()
	assert.Equal(t, "\r[#############                 ]  44%  1.2 MB / 2.7 MB\r[##############################] 100%  2.7 MB / 2.7 MB\n", b.String())

	// A frame narrower than the one before is padded with spaces to its
	// width: "999.9 kB" then "1.0 MB" would leave "1.0 MBkB".
	b.Reset()
	p = &progressBar{w: &b}
	p.update(999_900, -1)
	p.update(1_000_000, -1)
	p.update(1_500_000, -1)
	assert.Equal(t, "\r999.9 kB\r1.0 MB  \r1.5 MB", b.String())

	b.Reset()
	p = &progressBar{w: &b}
	p.update(999_900, 1_000_000_000_000)
	p.update(1_000_000, 1_000_000_000_000)
	assert.Equal(t, "\r[                              ]   0%  999.9 kB / 1000.0 GB"+
		"\r[                              ]   0%  1.0 MB / 1000.0 GB  ", b.String())

	// A count that does not grow is DownloadState fetching the body again
	// (WithProgress counts from 0 again): the bar says so and starts again
	// on a new line instead of going backwards; the new line owes nothing
	// to the old one's width.
	b.Reset()
	p = &progressBar{w: &b}
	p.update(2_000_000, 2_700_000)
	p.update(1_000_000, 2_700_000)
	p.update(1_000_000, 2_700_000) // an attempt that broke off before its second MiB
	p.update(2_700_000, 2_700_000)
	p.end()
	assert.Equal(t, "\r[######################        ]  74%  2.0 MB / 2.7 MB"+
		"\nThe download broke off after 2.0 MB; fetching the state again from the start.\n"+
		"\r[###########                   ]  37%  1.0 MB / 2.7 MB"+
		"\nThe download broke off after 1.0 MB; fetching the state again from the start.\n"+
		"\r[###########                   ]  37%  1.0 MB / 2.7 MB"+
		"\r[##############################] 100%  2.7 MB / 2.7 MB\n", b.String())

	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 kB", 5_021_637: "5.0 MB", 312_000_000_000: "312.0 GB", 1_500_000_000: "1.5 GB"} {
		assert.Equal(t, want, size(n), n)
	}
}
