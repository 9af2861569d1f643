package beacontest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idForms returns every way to name each default state: its name, its
// slot, its root, and the three as ParseStateID reads their strings.
func idForms(t *testing.T) map[string]*wantState {
	by, _ := defaults(t)
	forms := make(map[string]*wantState)
	for name, w := range by {
		forms[string(name)] = w
		forms[string(beacon.SlotID(w.st.Slot))] = w
		forms[string(beacon.RootID(w.root))] = w
	}
	require.Len(t, forms, 12)
	return forms
}

// Every state id form, through beacon.Client's State, returns the exact
// state: its hash tree root is the expected state's, and a root id is
// verified.
func TestStateEveryIDForm(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	ctx := context.Background()
	for s, w := range idForms(t) {
		id, err := beacon.ParseStateID(s)
		require.NoError(t, err)
		res, body, err := c.State(ctx, id, beacon.StateOptions{})
		require.NoError(t, err, s)
		got, err := beacon.HashTreeRoot(res)
		require.NoError(t, err)
		assert.Equal(t, w.root, got, s)
		assert.Equal(t, w.st.Version, res.Version, s)
		assert.Equal(t, beacon.EncodingSSZ, body.Encoding, s)
		assert.Equal(t, "application/octet-stream", body.ContentType, s)
		assert.Equal(t, int64(len(w.ssz)), body.Bytes, s)
		assert.Nil(t, body.Flags, s)
	}
}

// DownloadState saves the exact bytes: the expected state's SSZ, encoded
// apart from the server, for every id form; ReadState decodes them back to
// the same root.
func TestDownloadEveryIDForm(t *testing.T) {
	srv := start(t)
	c := client(t, srv, beacon.WithEncoding(beacon.EncodingSSZ))
	ctx := context.Background()
	for s, w := range idForms(t) {
		id, err := beacon.ParseStateID(s)
		require.NoError(t, err)
		var buf bytes.Buffer
		d, err := c.DownloadState(ctx, id, &buf, beacon.DownloadOptions{})
		require.NoError(t, err, s)
		assert.Equal(t, beacon.Body{Fork: w.st.Version.String(), Encoding: beacon.EncodingSSZ, ContentType: "application/octet-stream", Bytes: int64(len(w.ssz))}, d, s)
		require.True(t, bytes.Equal(w.ssz, buf.Bytes()), "%s: the body is not the state's SSZ", s)
		st, flags, err := beacon.ReadState(&buf, d, beacon.ReadOptions{})
		require.NoError(t, err, s)
		assert.Nil(t, flags)
		got, err := beacon.HashTreeRoot(st)
		require.NoError(t, err)
		assert.Equal(t, w.root, got, s)
	}
}

// JSON: the body is the state's JSON response with the flags the rule
// gives (genesis and finalized are finalized, justified and head are not),
// and State decodes it with those flags.
func TestJSON(t *testing.T) {
	srv := start(t)
	c := client(t, srv, beacon.WithEncoding(beacon.EncodingJSON))
	by, _ := defaults(t)
	ctx := context.Background()
	finalized := map[beacon.StateID]bool{beacon.Genesis: true, beacon.Finalized: true, beacon.Justified: false, beacon.Head: false}
	for id, w := range by {
		f := beacon.Flags{Finalized: finalized[id]}
		var buf bytes.Buffer
		d, err := c.DownloadState(ctx, id, &buf, beacon.DownloadOptions{})
		require.NoError(t, err, id)
		assert.Equal(t, beacon.Body{Fork: w.st.Version.String(), Encoding: beacon.EncodingJSON, ContentType: "application/json", Bytes: int64(buf.Len()), Flags: &f}, d, id)
		require.True(t, bytes.Equal(jsonOf(t, w.st, f), buf.Bytes()), "%s: the body is not the state's JSON response", id)
	}
	for _, id := range []beacon.StateID{beacon.Head, beacon.Finalized} {
		res, body, err := c.State(ctx, id, beacon.StateOptions{})
		require.NoError(t, err)
		got, err := beacon.HashTreeRoot(res)
		require.NoError(t, err)
		assert.Equal(t, by[id].root, got)
		assert.Equal(t, beacon.EncodingJSON, body.Encoding)
		assert.Equal(t, "application/json", body.ContentType)
		assert.Equal(t, &beacon.Flags{Finalized: finalized[id]}, body.Flags, id)
	}

	// An optimistic node marks the states after the finalized one.
	srv.SetExecutionOptimistic(true)
	_, body, err := c.State(ctx, beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, &beacon.Flags{ExecutionOptimistic: true}, body.Flags)
	var buf bytes.Buffer
	d, err := c.DownloadState(ctx, beacon.Finalized, &buf, beacon.DownloadOptions{})
	require.NoError(t, err)
	assert.Equal(t, &beacon.Flags{Finalized: true}, d.Flags)
}

// The client's progress callback sees the body's Content-Length as the
// total, and ends at it.
func TestProgressSeesContentLength(t *testing.T) {
	srv := start(t)
	by, _ := defaults(t)
	for _, enc := range []beacon.Encoding{beacon.EncodingSSZ, beacon.EncodingJSON} {
		body, err := srv.Body(beacon.Head, enc)
		require.NoError(t, err)
		c := client(t, srv, beacon.WithEncoding(enc))
		var calls [][2]int64
		progress := func(read, total int64) { calls = append(calls, [2]int64{read, total}) }
		res, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{Progress: progress})
		require.NoError(t, err)
		require.NotEmpty(t, calls)
		for i, call := range calls {
			assert.Equal(t, int64(len(body)), call[1], "call %d: total", i)
			if i > 0 {
				assert.Greater(t, call[0], calls[i-1][0])
			}
		}
		assert.Equal(t, [2]int64{int64(len(body)), int64(len(body))}, calls[len(calls)-1], enc)
		assert.GreaterOrEqual(t, len(calls), int(int64(len(body))/progressStep), enc) // about one per MiB
		assert.Equal(t, by[beacon.Head].st.Slot, res.Slot)
	}
}

// 404 for a slot and a root the server does not hold, as the beacon
// client's typed error; 406 for an Accept header the server cannot serve.
func TestErrorsThroughClient(t *testing.T) {
	srv := start(t)
	rec := &testkit.Recorder{}
	c := client(t, srv, rec.Option())
	ctx := context.Background()

	_, _, err := c.State(ctx, beacon.SlotID(5), beacon.StateOptions{})
	var ae *nodeaccess.HTTPError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 404, ae.StatusCode)
	assert.Equal(t, "NOT_FOUND: beacon state at slot 5", ae.Message)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
	assert.NotErrorIs(t, err, beacon.ErrDebugDisabled)
	assert.Equal(t, "beacon: getStateV2: state 5: HTTP 404 Not Found: NOT_FOUND: beacon state at slot 5", err.Error())

	root := beacon.Root{1, 2, 3}
	_, err = c.DownloadState(ctx, beacon.RootID(root), &bytes.Buffer{}, beacon.DownloadOptions{})
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 404, ae.StatusCode)
	assert.Equal(t, fmt.Sprintf("NOT_FOUND: beacon state for state root %s", beacon.RootID(root)), ae.Message)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)

	// A client whose requests accept only text/html gets 406.
	html := nodeaccess.WithRoundTripper(acceptRewriter{"text/html"})
	c406 := client(t, srv, html, nodeaccess.WithHook(rec.Hook))
	_, _, err = c406.State(ctx, beacon.Head, beacon.StateOptions{})
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 406, ae.StatusCode)
	assert.Equal(t, "NOT_ACCEPTABLE: the state is served as application/octet-stream (SSZ) or application/json; the request accepts neither", ae.Message)

	for _, a := range rec.Attempts() {
		testkit.AssertNoKey(t, testKey, "hook URL", a.URL)
		testkit.AssertErrNoKey(t, testKey, a.Err)
	}
	testkit.AssertNoKey(t, testKey, "log", rec.Log())
}

// acceptRewriter sends every request with its own Accept header.
type acceptRewriter struct{ accept string }

func (a acceptRewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Accept", a.accept)
	return http.DefaultTransport.RoundTrip(r)
}

// The wrong key is refused with 403 before anything else, and never
// echoed; a path the server does not serve is a route the node does not
// have (ErrDebugDisabled), as the beacon client reads a real node's 404.
func TestWrongKeyAndUnknownPath(t *testing.T) {
	srv := start(t)
	ctx := context.Background()
	const wrong = "sEcReT-wrong-key"
	c, err := beacon.New(srv.URL, wrong)
	require.NoError(t, err)
	_, _, err = c.State(ctx, beacon.Head, beacon.StateOptions{})
	var ae *nodeaccess.HTTPError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 403, ae.StatusCode)
	assert.Equal(t, "FORBIDDEN: invalid access key", ae.Message)
	assert.ErrorIs(t, err, nodeaccess.ErrUnauthorized)
	testkit.AssertErrNoKey(t, wrong, err)
	testkit.AssertErrNoKey(t, testKey, err)

	c, err = beacon.New(srv.URL+"/v1", srv.Key())
	require.NoError(t, err)
	_, _, err = c.State(ctx, beacon.Head, beacon.StateOptions{})
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 404, ae.StatusCode)
	assert.Equal(t, "NOT_FOUND: route not found", ae.Message)
	assert.ErrorIs(t, err, beacon.ErrDebugDisabled)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound) // the route's 404, which ErrDebugDisabled explains
	testkit.AssertErrNoKey(t, testKey, err)
}

// The server's data: the rule for the named ids, pins, replacing and
// removing states, the client's preset.
func TestNamedIDsAndSetters(t *testing.T) {
	p := beacon.MinimalPreset() // 8 slots per epoch
	oldest := smallState(beacon.Deneb, 10, 0, 0, 1)
	fin := smallState(beacon.Deneb, 80, 8, 9, 2)    // epoch 10
	mid := smallState(beacon.Electra, 88, 9, 10, 3) // epoch 11
	head := smallState(beacon.Electra, 100, 10, 11, 4)
	srv := start(t, beacontest.WithStates(mid), beacontest.WithStates(head), beacontest.WithStates(oldest), beacontest.WithStates(fin))
	c := client(t, srv) // the head state's preset: minimal
	st, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, p, st.Preset)

	slotOf := func(id beacon.StateID) beacon.Slot {
		t.Helper()
		info, ok := srv.Lookup(id)
		require.True(t, ok, id)
		return info.Slot
	}
	// head: newest; genesis: oldest; finalized: newest at or before the
	// first slot of head's finalized epoch (10·8 = 80); justified: of its
	// current justified epoch (11·8 = 88).
	assert.Equal(t, beacon.Slot(100), slotOf(beacon.Head))
	assert.Equal(t, beacon.Slot(10), slotOf(beacon.Genesis))
	assert.Equal(t, beacon.Slot(80), slotOf(beacon.Finalized))
	assert.Equal(t, beacon.Slot(88), slotOf(beacon.Justified))
	info, _ := srv.Lookup(beacon.Justified)
	midRoot, err := beacon.HashTreeRoot(mid)
	require.NoError(t, err)
	assert.Equal(t, beacontest.Info{Slot: 88, Root: midRoot, Version: beacon.Electra, Preset: p, Validators: 16}, info)

	var slots []beacon.Slot
	for _, i := range srv.States() {
		slots = append(slots, i.Slot)
	}
	assert.Equal(t, []beacon.Slot{10, 80, 88, 100}, slots)

	// Without the state at 80, finalized is the newest one before it.
	assert.True(t, srv.RemoveState(80))
	assert.False(t, srv.RemoveState(80))
	assert.Equal(t, beacon.Slot(10), slotOf(beacon.Finalized))
	_, _, err = c.State(context.Background(), beacon.SlotID(80), beacon.StateOptions{})
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)

	// Pinned: finalized names 88; its state is then finalized in JSON.
	require.NoError(t, srv.Pin(beacon.Finalized, 88))
	assert.Equal(t, beacon.Slot(88), slotOf(beacon.Finalized))
	info, _ = srv.Lookup(beacon.Justified)
	assert.True(t, info.Flags.Finalized)
	cj := client(t, srv, beacon.WithEncoding(beacon.EncodingJSON))
	res, body, err := cj.State(context.Background(), beacon.Finalized, beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, beacon.Slot(88), res.Slot)
	assert.Equal(t, &beacon.Flags{Finalized: true}, body.Flags)

	assert.ErrorContains(t, srv.Pin(beacon.Finalized, 81), "beacontest: Pin: finalized: no state is held at slot 81")
	assert.ErrorContains(t, srv.Pin(beacon.SlotID(3), 88), `beacontest: Pin: "3" is not head, genesis, finalized or justified`)

	// A pinned state removed: the name answers 404 until unpinned.
	require.NoError(t, srv.Pin(beacon.Head, 10))
	assert.Equal(t, beacon.Slot(10), slotOf(beacon.Head))
	require.True(t, srv.RemoveState(10))
	_, ok := srv.Lookup(beacon.Head)
	assert.False(t, ok)
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	var ae *nodeaccess.HTTPError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "NOT_FOUND: no head state is held", ae.Message)
	srv.Unpin(beacon.Head)
	assert.Equal(t, beacon.Slot(100), slotOf(beacon.Head))

	// A state at a held slot replaces it, and its old root is gone.
	headRoot, err := beacon.HashTreeRoot(head)
	require.NoError(t, err)
	head2 := smallState(beacon.Fulu, 100, 10, 11, 5)
	root2, err := srv.AddState(head2)
	require.NoError(t, err)
	_, ok = srv.Lookup(beacon.RootID(headRoot))
	assert.False(t, ok)
	res, body, err = c.State(context.Background(), beacon.RootID(root2), beacon.StateOptions{})
	require.NoError(t, err)
	assert.Equal(t, beacon.Fulu, res.Version)

	// Invalid states are refused and change nothing.
	bad := smallState(beacon.Fulu, 200, 0, 0, 6)
	bad.BlockRoots = bad.BlockRoots[:3]
	_, err = srv.AddState(bad)
	assert.ErrorContains(t, err, "beacontest: state at slot 200: ")
	_, err = srv.AddState(nil)
	assert.EqualError(t, err, "beacontest: nil state")
	assert.Len(t, srv.States(), 2) // 88 and 100
}

// New's options are checked.
func TestNewOptions(t *testing.T) {
	_, err := beacontest.New(beacontest.WithKey("has space"))
	assert.ErrorContains(t, err, "beacontest: nodeaccesstest: the access key may hold only")
	_, err = beacontest.New(beacontest.WithKey(""))
	assert.EqualError(t, err, "beacontest: WithKey: empty key (leave WithKey out for a random one)")
	_, err = beacontest.New(beacontest.WithStates(nil))
	assert.EqualError(t, err, "beacontest: WithStates: nil state")
	st := smallState(beacon.Deneb, 10, 0, 0, 1)
	srv := start(t, beacontest.WithStates(st))
	assert.EqualError(t, srv.Pin(beacon.Finalized, 11), "beacontest: Pin: finalized: no state is held at slot 11")
	srv.SetExecutionOptimistic(true)
	require.NoError(t, srv.Pin(beacon.Finalized, 10))
	info, ok := srv.Lookup(beacon.Head)
	require.True(t, ok)
	assert.Equal(t, beacon.Flags{Finalized: true}, info.Flags) // the one state is the finalized one
	_, err = srv.Body(beacon.SlotID(11), beacon.EncodingSSZ)
	assert.ErrorIs(t, err, nodeaccess.ErrNotFound)
	_, err = srv.Body(beacon.Head, beacon.EncodingAuto)
	assert.EqualError(t, err, "beacontest: Body: auto is not a body encoding (want EncodingSSZ or EncodingJSON)")

	// A random key: 32 hex characters.
	srv2, err := beacontest.New(beacontest.WithStates(st))
	require.NoError(t, err)
	defer srv2.Close()
	assert.Regexp(t, `^[0-9a-f]{32}$`, srv2.Key())
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, srv2.URL)
}

// A file saved by DownloadState holds the server's SSZ bytes exactly.
func TestDownloadToFile(t *testing.T) {
	srv := start(t)
	c := client(t, srv)
	path := filepath.Join(t.TempDir(), "state.ssz")
	f, err := os.Create(path)
	require.NoError(t, err)
	d, err := c.DownloadState(context.Background(), beacon.Finalized, f, beacon.DownloadOptions{})
	require.NoError(t, err)
	require.NoError(t, f.Close())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	want, err := srv.Body(beacon.Finalized, beacon.EncodingSSZ)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got))
	assert.Equal(t, int64(len(want)), d.Bytes)
}

// Requests and setters at the same time (run with -race): every answer is
// a whole, verified state or a 404 for a state removed meanwhile.
func TestConcurrentUse(t *testing.T) {
	a := smallState(beacon.Deneb, 8, 0, 0, 1)
	b := smallState(beacon.Fulu, 16, 1, 1, 2)
	srv := start(t, beacontest.WithStates(a), beacontest.WithStates(b))
	rootB, err := beacon.HashTreeRoot(b)
	require.NoError(t, err)
	c := client(t, srv, nodeaccess.WithMaxAttempts(1))
	cj := client(t, srv, nodeaccess.WithMaxAttempts(1), beacon.WithEncoding(beacon.EncodingJSON))
	ctx := context.Background()
	done := make(chan error, 8)
	for i := range 8 {
		go func() {
			var err error
			for range 10 {
				cl := c
				if i%2 == 1 {
					cl = cj
				}
				_, _, err = cl.State(ctx, beacon.RootID(rootB), beacon.StateOptions{}) // verified: its root is rootB
				if err != nil {
					break
				}
				if _, _, err = cl.State(ctx, beacon.SlotID(24), beacon.StateOptions{}); err != nil && !errors.Is(err, nodeaccess.ErrNotFound) {
					break
				}
				err = nil
			}
			done <- err
		}()
	}
	for i := range 20 {
		if i%2 == 0 {
			_, err := srv.AddState(smallState(beacon.Electra, 24, 1, 2, uint64(i)))
			require.NoError(t, err)
		} else {
			srv.RemoveState(24)
		}
		require.NoError(t, srv.Pin(beacon.Finalized, 8))
		srv.SetExecutionOptimistic(i%3 == 0)
		srv.Unpin(beacon.Finalized)
		_ = srv.States()
	}
	for range 8 {
		assert.NoError(t, <-done)
	}
}

// The zero Option does nothing: the server starts with the other options'
// settings and the default states.
func TestZeroOption(t *testing.T) {
	srv, err := beacontest.New(beacontest.Option{}, beacontest.WithKey("k3y"), beacontest.Option{})
	require.NoError(t, err)
	defer srv.Close()
	assert.Len(t, srv.States(), len(beacontest.DefaultStates()))
	c, err := srv.Client()
	require.NoError(t, err)
	_, _, err = c.State(context.Background(), beacon.Head, beacon.StateOptions{})
	require.NoError(t, err)
}
