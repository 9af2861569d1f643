package beacon_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
)

const followKey = "follow-K3y"

// hostileHeader is a header and the root an answer names for it.
type hostileHeader struct {
	h    beacon.BeaconBlockHeader
	root beacon.Root
}

// goodHeader is a header at slot with its true root.
func goodHeader(t *testing.T, slot beacon.Slot, parent beacon.Root) hostileHeader {
	t.Helper()
	h := beacon.BeaconBlockHeader{Slot: slot, ProposerIndex: 7, ParentRoot: parent, StateRoot: beacon.Root{1}, BodyRoot: beacon.Root{2}}
	r, err := beacon.HashTreeRoot(h)
	require.NoError(t, err)
	return hostileHeader{h, r}
}

// headerJSON is the answer for hh, with the data members as given (the
// default ones when nil).
func headerJSON(hh hostileHeader, data map[string]string) string {
	h := hh.h
	msg := fmt.Sprintf(`{"slot":"%d","proposer_index":"%d","parent_root":"%s","state_root":"%s","body_root":"%s"}`,
		h.Slot, h.ProposerIndex, h.ParentRoot.Hex(), h.StateRoot.Hex(), h.BodyRoot.Hex())
	members := map[string]string{
		"root":      `"` + hh.root.Hex() + `"`,
		"canonical": "true",
		"header":    `{"message":` + msg + `,"signature":"0x` + strings.Repeat("00", 96) + `"}`,
	}
	for k, v := range data {
		if v == "" {
			delete(members, k)
		} else {
			members[k] = v
		}
	}
	var parts []string
	for _, k := range []string{"root", "canonical", "header"} {
		if v, ok := members[k]; ok {
			parts = append(parts, fmt.Sprintf("%q:%s", k, v))
		}
	}
	return `{"execution_optimistic":false,"finalized":false,"data":{` + strings.Join(parts, ",") + `}}`
}

const finalityJSON = `{"execution_optimistic":false,"finalized":false,"data":{"previous_justified":{"epoch":"0","root":"0x` +
	"0000000000000000000000000000000000000000000000000000000000000000" + `"},"current_justified":{"epoch":"0","root":"0x` +
	"0000000000000000000000000000000000000000000000000000000000000000" + `"},"finalized":{"epoch":"0","root":"0x` +
	"0000000000000000000000000000000000000000000000000000000000000000" + `"}}}`

// hostileFollow serves answer(id) for the headers route and finality for
// the checkpoints, and returns the first error Follow yields.
func hostileFollow(t *testing.T, q beacon.FollowQuery, answer func(id string) (int, string), finality string) error {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		prefix := "/beacon/" + followKey
		switch {
		case r.URL.Path == prefix+"/eth/v1/beacon/states/head/finality_checkpoints":
			_, _ = w.Write([]byte(finality))
		case strings.HasPrefix(r.URL.Path, prefix+"/eth/v1/beacon/headers/"):
			status, body := answer(strings.TrimPrefix(r.URL.Path, prefix+"/eth/v1/beacon/headers/"))
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := beacon.New(srv.URL, followKey, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	q.Poll = time.Millisecond
	for h, err := range c.Follow(ctx, q) {
		require.NoError(t, ctx.Err(), "no error from Follow")
		if err != nil {
			require.NotContains(t, err.Error(), followKey)
			return err
		}
		require.Failf(t, "a block yielded", "%+v", h)
	}
	return nil
}

// TestFollowRefusesHostileAnswers: an answer whose root is not its
// header's, one that is not the block asked for, and a missing or
// malformed member end the walk with ErrInvalidResponse naming it; none
// is yielded.
func TestFollowRefusesHostileAnswers(t *testing.T) {
	b10 := goodHeader(t, 10, beacon.Root{9})
	b11 := goodHeader(t, 11, b10.root)
	wrongRoot := b10
	wrongRoot.root[0] ^= 1
	cases := []struct {
		name     string
		q        beacon.FollowQuery
		answer   func(id string) (int, string)
		finality string
		want     string
	}{
		{"root not the header's", beacon.FollowQuery{}, func(string) (int, string) {
			return 200, headerJSON(wrongRoot, nil)
		}, finalityJSON, "is not the root of the header"},
		{"header changed under its root", beacon.FollowQuery{}, func(string) (int, string) {
			return 200, headerJSON(hostileHeader{b11.h, b10.root}, nil)
		}, finalityJSON, "is not the root of the header"},
		{"missing canonical", beacon.FollowQuery{}, func(string) (int, string) {
			return 200, headerJSON(b10, map[string]string{"canonical": ""})
		}, finalityJSON, "data.canonical: missing field"},
		{"missing header", beacon.FollowQuery{}, func(string) (int, string) {
			return 200, headerJSON(b10, map[string]string{"header": ""})
		}, finalityJSON, "data.header: missing field"},
		{"malformed slot", beacon.FollowQuery{}, func(string) (int, string) {
			return 200, strings.Replace(headerJSON(b10, nil), `"slot":"10"`, `"slot":"ten"`, 1)
		}, finalityJSON, "data.header.message.slot"},
		{"malformed root", beacon.FollowQuery{}, func(string) (int, string) {
			return 200, headerJSON(b10, map[string]string{"root": `"0x12"`})
		}, finalityJSON, "data.root"},
		{"null", beacon.FollowQuery{}, func(string) (int, string) { return 200, "null" }, finalityJSON, "ErrInvalidResponse"},
		{"finality without finalized", beacon.FollowQuery{}, func(string) (int, string) {
			return 200, headerJSON(b10, nil)
		}, `{"data":{"previous_justified":{"epoch":"0","root":"0x` + strings.Repeat("00", 32) + `"}}}`, "data.finalized: missing field"},
		{"another slot", beacon.FollowQuery{From: beacon.FollowCursor{Slot: 5}}, func(id string) (int, string) {
			if id == "head" {
				return 200, headerJSON(goodHeader(t, 500, beacon.Root{3}), nil)
			}
			return 200, headerJSON(b10, nil)
		}, finalityJSON, "asked for the block at slot 5, got slot 10"},
		{"another root", beacon.FollowQuery{From: beacon.FollowCursor{Slot: 10}}, func(id string) (int, string) {
			if id == "head" {
				return 200, headerJSON(b11, nil)
			}
			return 200, headerJSON(goodHeader(t, 3, beacon.Root{4}), nil) // asked for b10 by its root
		}, finalityJSON, "asked for block " + b10.root.Hex()},
		{"parent not older", beacon.FollowQuery{From: beacon.FollowCursor{Slot: 10}}, func(id string) (int, string) {
			p := goodHeader(t, 12, beacon.Root{5})
			if id == "head" {
				return 200, headerJSON(goodHeader(t, 11, p.root), nil)
			}
			return 200, headerJSON(p, nil)
		}, finalityJSON, "at slot 12 is the parent of block"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := hostileFollow(t, tc.q, tc.answer, tc.finality)
			require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse)
			if tc.want != "ErrInvalidResponse" {
				require.Contains(t, err.Error(), tc.want)
			}
		})
	}
}

// TestFollowFinalizedBlockLeavingIsRefused: at Finalized, a node whose
// finalized checkpoint moves to a chain without the blocks yielded ends the
// walk with ErrInvalidResponse: a finalized block is never yielded as
// removed.
func TestFollowFinalizedBlockLeavingIsRefused(t *testing.T) {
	a := goodHeader(t, 10, beacon.Root{8})
	d := goodHeader(t, 9, beacon.Root{7})
	c11 := goodHeader(t, 11, d.root)
	b := goodHeader(t, 12, c11.root)
	byRoot := map[string]hostileHeader{a.root.Hex(): a, b.root.Hex(): b, c11.root.Hex(): c11, d.root.Hex(): d}
	var polls atomic.Int32
	checkpoint := func() string {
		root := a.root
		if polls.Add(1) > 2 {
			root = b.root
		}
		return `{"data":{"finalized":{"epoch":"` + fmt.Sprint(polls.Load()) + `","root":"` + root.Hex() + `"}}}`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		prefix := "/beacon/" + followKey + "/eth/v1/beacon/"
		if r.URL.Path == prefix+"states/head/finality_checkpoints" {
			_, _ = w.Write([]byte(checkpoint()))
			return
		}
		hh, ok := byRoot[strings.TrimPrefix(r.URL.Path, prefix+"headers/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(headerJSON(hh, nil)))
	}))
	t.Cleanup(srv.Close)
	c, err := beacon.New(srv.URL, followKey, nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got []beacon.FollowedHead
	var last error
	for h, err := range c.Follow(ctx, beacon.FollowQuery{Finality: beacon.Finalized, Poll: time.Millisecond}) {
		if err != nil {
			last = err
			break
		}
		got = append(got, h)
	}
	require.Len(t, got, 1)
	require.Equal(t, a.root, got[0].Root)
	require.ErrorIs(t, last, nodeaccess.ErrInvalidResponse)
	require.Contains(t, last.Error(), "the finalized block 10 "+a.root.Hex()+" left the canonical chain")
}

// TestFollowLyingEmptySlotLosesNothing: a node that answers 404 for a slot
// that has a block (one behind a load balancer that has not seen it) does
// not make Follow skip the block: the next block's parent_root names it,
// and it is read by root and yielded in its place.
func TestFollowLyingEmptySlotLosesNothing(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(100, 50))
	target, err := url.Parse(srv.URL)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target)
	lying := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, slot := range []string{"10", "11", "12", "99"} {
			if strings.HasSuffix(r.URL.Path, "/eth/v1/beacon/headers/"+slot) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"code":404,"message":"NOT_FOUND: beacon block at slot ` + slot + `"}`))
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(lying.Close)
	c, err := beacon.New(lying.URL, srv.Key(), nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond))
	require.NoError(t, err)
	want := canonical(t, followClient(t, srv), 1, 100)
	ch := startFollow(t, c, beacon.FollowQuery{From: beacon.FollowCursor{Slot: 1}, Poll: followPoll})
	got := heads(t, take(t, ch, len(want)))
	require.Equal(t, want, blocksOf(got))
	replay(t, nil, got)
	quiet(t, ch)
}

// TestFollowHeadGoingBackRemovesNothing: a node whose head goes back below
// a resumed cursor's block, which it still calls canonical (a node behind
// the one that made the cursor), makes Follow wait, not remove the block;
// once the head is back, the walk goes on after the cursor.
func TestFollowHeadGoingBackRemovesNothing(t *testing.T) {
	srv := followServer(t)
	require.NoError(t, srv.Advance(40))
	c := followClient(t, srv)
	old := canonical(t, c, 35, 35)[0]
	at := heads(t, take(t, startFollow(t, c, beacon.FollowQuery{Poll: followPoll}), 1))[0] // block 40

	target, err := url.Parse(srv.URL)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var behind atomic.Bool
	behind.Store(true)
	lagging := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if behind.Load() && strings.HasSuffix(r.URL.Path, "/eth/v1/beacon/headers/head") {
			r.URL.Path = strings.TrimSuffix(r.URL.Path, "head") + old.Root.Hex()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(lagging.Close)
	lc, err := beacon.New(lagging.URL, srv.Key(), nodeaccess.WithBackoff(time.Millisecond, 5*time.Millisecond))
	require.NoError(t, err)
	ch := startFollow(t, lc, beacon.FollowQuery{From: at.Cursor, Poll: time.Millisecond})
	items := take(t, ch, 2) // 30 tries a time, each yielded as an error
	for _, it := range items {
		require.ErrorIs(t, it.err, nodeaccess.ErrUnavailable, "the node's answers disagree: asked again")
		require.Contains(t, it.err.Error(), "is canonical, yet not an ancestor of the head 35")
	}
	require.NoError(t, srv.Advance(2))
	behind.Store(false)
	for {
		it := take(t, ch, 1)[0]
		if it.err != nil {
			continue // one more such error, yielded before the head came back
		}
		require.Equal(t, canonical(t, c, 41, 42), blocksOf(append(heads(t, []followed{it}), heads(t, take(t, ch, 1))...)))
		break
	}
}
