package main

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertMode checks the permission bits of the file at path (POSIX only:
// Windows has no such bits).
func assertMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	if runtime.GOOS != "windows" {
		assert.Equal(t, want, fi.Mode().Perm(), "mode of %s", path)
	}
}

// assertDir checks that dir holds exactly the named entries: no temporary
// file left behind.
func assertDir(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(names)
	assert.Equal(t, names, got, "the entries of %s", dir)
}

// stateServer serves body as an SSZ fulu state for any state id, at
// srv.URL+"/beacon/k", counting the requests. With breakAt > 0 the first
// response breaks off after that many bytes of its body.
func stateServer(t *testing.T, body []byte, breakAt int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first := n.Add(1) == 1
		h := w.Header()
		h.Set("Content-Type", "application/octet-stream")
		h.Set("Eth-Consensus-Version", "fulu")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		if first && breakAt > 0 {
			_, _ = w.Write(body[:breakAt])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the connection is cut, mid-body
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// precious writes a file the user cares about, with mode 0600.
func precious(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte("precious, not a state"), 0o600))
	require.NoError(t, os.Chmod(path, 0o600)) // whatever the umask
}

func assertPrecious(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "precious, not a state", string(b))
	assertMode(t, path, 0o600)
}

// A file already at the output path is neither truncated nor removed by a
// failure: not when the request fails, not when the body is no state, not
// when the state's root is not the one asked for. The error says nothing was
// saved and the directory holds no leftover. A success replaces the file
// and keeps its mode.
func TestExistingFileKept(t *testing.T) {
	root, ssz := defaultHead(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "state.ssz")
	precious(t, path)
	other := beacon.Root{0x11, 0x22}

	for name, c := range map[string]struct {
		body []byte
		id   string
		want string
	}{
		"not found":   {nil, "5", "HTTP 404 Not Found: NOT_FOUND: beacon state at slot 5"},
		"not a state": {make([]byte, 1000), "head", "the input is truncated: its 1000 bytes (its whole size) end inside the fixed part of a fulu state"},
		"wrong root": {ssz, string(beacon.RootID(other)),
			"state root mismatch: asked for 0x" + strings.TrimPrefix(string(beacon.RootID(other)), "0x") +
				", got a state whose hash tree root is 0x" + strings.TrimPrefix(string(beacon.RootID(root)), "0x")},
	} {
		t.Run(name, func(t *testing.T) {
			url := ""
			if c.body != nil {
				srv, _ := stateServer(t, c.body, 0)
				url = srv.URL + "/beacon/k"
			} else {
				srv, err := beacontest.New(beacontest.WithKey("k"))
				require.NoError(t, err)
				defer srv.Close()
				url = srv.URL + "/beacon/k"
			}
			got, err := runWith(t, map[string]string{"NODEACCESS_BEACON_URL": url, "NODEACCESS_BEACON_STATE": c.id, "NODEACCESS_BEACON_OUT": path})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.True(t, strings.HasSuffix(err.Error(), " (nothing was saved to "+path+")"), err.Error())
			assert.Contains(t, got, "Downloading state "+c.id+" as SSZ to "+path+"\n")
			assert.NotContains(t, got, "State file:")
			assertPrecious(t, path)
			assertDir(t, dir, "state.ssz")
		})
	}
	srv, _ := stateServer(t, ssz, 0)
	_, err := runWith(t, map[string]string{"NODEACCESS_BEACON_URL": srv.URL + "/beacon/k", "NODEACCESS_BEACON_STATE": string(beacon.RootID(other)), "NODEACCESS_BEACON_OUT": path})
	require.ErrorIs(t, err, beacon.ErrIntegrity)
	assert.Contains(t, err.Error(), fmt.Sprintf("asked for %s, got a state whose hash tree root is %s", other, root))

	// Asked for by its root, it is verified, and replaces the file, which
	// keeps its mode.
	got, err := runWith(t, map[string]string{"NODEACCESS_BEACON_URL": srv.URL + "/beacon/k", "NODEACCESS_BEACON_STATE": string(beacon.RootID(root)), "NODEACCESS_BEACON_OUT": path})
	require.NoError(t, err)
	assert.Contains(t, got, "Verified: the hash tree root is the state root asked for.\nValidator 0: ")
	assert.Contains(t, got, "\nState file: "+path+" (5.0 MB)\n")
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, len(ssz), len(file))
	assert.True(t, slices.Equal(ssz, file))
	assertMode(t, path, 0o600)
	assertDir(t, dir, "state.ssz")
}

// A path that exists and is not itself a regular file is refused before
// anything is created or sent, since the rename would replace it: a device
// (the null device), a directory, and a symbolic link, which is not
// followed either: /dev/stdout is one, to /proc/self/fd/1, which names
// whatever the standard output is redirected to, often a regular file.
func TestNotRegularOut(t *testing.T) {
	_, ssz := defaultHead(t)
	srv, n := stateServer(t, ssz, 0)
	dir := t.TempDir()
	target := filepath.Join(dir, "target.ssz")
	precious(t, target)
	link := filepath.Join(dir, "link.ssz")
	const symlink = "it is a symbolic link, which is neither followed nor replaced: name the file itself"
	paths := map[string]string{os.DevNull: "it is not a regular file (", dir: "it is not a regular file (d"}
	if err := os.Symlink(target, link); err == nil {
		paths[link] = symlink
	}
	if fi, err := os.Lstat("/dev/stdout"); err == nil && fi.Mode().Type() == fs.ModeSymlink {
		paths["/dev/stdout"] = symlink
	}
	for path, want := range paths {
		got, err := runWith(t, map[string]string{"NODEACCESS_BEACON_URL": srv.URL + "/beacon/k", "NODEACCESS_BEACON_OUT": path})
		require.Error(t, err, path)
		assert.True(t, strings.HasPrefix(err.Error(), "saving to "+path+": "+want), err.Error())
		assert.NotContains(t, got, "Downloading")
		assert.Equal(t, int32(0), n.Load(), "a request was sent for %s", path)
	}
	if _, ok := paths[link]; ok {
		fi, err := os.Lstat(link)
		require.NoError(t, err)
		assert.Equal(t, fs.ModeSymlink, fi.Mode().Type())
		assertDir(t, dir, "link.ssz", "target.ssz")
	}
	assertPrecious(t, target)
	fi, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.False(t, fi.Mode().IsRegular())
}

// A body that breaks off is fetched again into the same new file, which
// DownloadOptions.Restart empties; the bar says so and starts again on a new line,
// and the file holds the state once.
func TestRestartedDownload(t *testing.T) {
	root, ssz := defaultHead(t)
	srv, n := stateServer(t, ssz, 5<<19) // 2.5 MiB
	dir := t.TempDir()
	path := filepath.Join(dir, "state.ssz")
	got, err := runWith(t, map[string]string{"NODEACCESS_BEACON_URL": srv.URL + "/beacon/k", "NODEACCESS_BEACON_STATE": string(beacon.RootID(root)), "NODEACCESS_BEACON_OUT": path})
	require.NoError(t, err, got)
	assert.Equal(t, int32(2), n.Load())
	lines := strings.Split(got, "\n")
	require.Len(t, lines, 13, got)
	// Two frames (after 1 and 2 MiB; reads end where they end), then the
	// note naming the last count, then a whole new bar.
	m := regexp.MustCompile(`^\r\[#+ +\] +\d+%  1\.\d MB / 5\.0 MB\r\[#+ +\] +\d+%  (2\.\d MB) / 5\.0 MB$`).FindStringSubmatch(lines[2])
	require.NotNil(t, m, "%q", lines[2])
	assert.Equal(t, "The download broke off after "+m[1]+"; fetching the state again from the start.", lines[3])
	checkBar(t, lines[4], "5.0 MB")
	assert.Regexp(t, `^Downloaded 5021637 bytes \(5\.0 MB\) of fulu SSZ in `, lines[5])
	assert.Equal(t, "Verified: the hash tree root is the state root asked for.", lines[8])
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, slices.Equal(ssz, file))
	assertMode(t, path, 0o644)
	assertDir(t, dir, "state.ssz")
}
