package bench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/beacon/light"
)

// Issue 32's light-client numbers against beacontest: a sync committee of
// interop keys signing its chain, the minimal preset (committees of 32,
// periods of 64 slots). The CPU time of one update's verification with
// mainnet's 512-member committee is beacon/light's BenchmarkVerifyUpdate
// (bench/RESULTS.md, "Verified reads"); the verified eth_call's round trips,
// request units and latency are evm/verified's BenchmarkCall.

// lightChain is a beacontest chain of periods sync committee periods,
// finalizing two epochs behind its head, and the root of its first block.
func lightChain(tb testing.TB, periods int) (*beacontest.Server, beacon.Root) {
	tb.Helper()
	srv, err := beacontest.New(beacontest.WithStates(beacontest.NewState(beacon.Electra, beacon.MinimalPreset(), 64, 1)))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	for epoch := beacon.Epoch(1); epoch <= beacon.Epoch(periods*8); epoch++ {
		if err := srv.Advance(8); err != nil {
			tb.Fatal(err)
		}
		if epoch >= 2 {
			if err := srv.Finalize(epoch - 2); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := srv.Advance(2); err != nil {
		tb.Fatal(err)
	}
	bc, err := srv.Client()
	if err != nil {
		tb.Fatal(err)
	}
	var g struct {
		Data struct {
			Root beacon.Root `json:"root"`
		} `json:"data"`
	}
	if err := bc.Get(context.Background(), &g, "/eth/v1/beacon/headers/genesis", nil); err != nil {
		tb.Fatal(err)
	}
	return srv, g.Data.Root
}

// updateRequests counts the updates requests a server received.
func updateRequests(srv *beacontest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/light_client/updates") {
			n++
		}
	}
	return n
}

// TestLightClientCatchUpYear: a light client catching up a year of sync
// committee periods (320) from its checkpoint asks for updates at most 3
// times (128 periods an answer), in JSON and in SSZ.
func TestLightClientCatchUpYear(t *testing.T) {
	srv, trusted := lightChain(t, 320)
	for _, enc := range []beacon.Encoding{beacon.EncodingJSON, beacon.EncodingSSZ} {
		before := updateRequests(srv)
		all := srv.RequestCount()
		bc, err := srv.Client(beacon.WithEncoding(enc))
		if err != nil {
			t.Fatal(err)
		}
		lc, err := light.New(bc, srv.LightConfig(), trusted)
		if err != nil {
			t.Fatal(err)
		}
		if err := lc.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		fin, _ := lc.Finalized()
		if want := beacon.Slot(320*64 - 16); fin.Beacon.Slot != want {
			t.Fatalf("%s: finalized slot %d, want %d", enc, fin.Beacon.Slot, want)
		}
		n := updateRequests(srv) - before
		t.Logf("%s: 320 periods in %d updates requests (%d requests in all: bootstrap, updates, finality and optimistic updates)", enc, n, srv.RequestCount()-all)
		if n > 3 {
			t.Errorf("%s: %d updates requests, want at most 3", enc, n)
		}
	}
}

// BenchmarkLightClientCatchUpYear: the time and CPU of a Sync from the
// checkpoint through 320 periods (each period's committee of 32 keys
// decompressed and checked, each update's signature verified), SSZ.
func BenchmarkLightClientCatchUpYear(b *testing.B) {
	srv, trusted := lightChain(b, 320)
	bc, err := srv.Client(beacon.WithEncoding(beacon.EncodingSSZ))
	if err != nil {
		b.Fatal(err)
	}
	lc, err := light.New(bc, srv.LightConfig(), trusted)
	if err != nil {
		b.Fatal(err)
	}
	if err := lc.Sync(context.Background()); err != nil { // the server's answers made once
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		lc, _ := light.New(bc, srv.LightConfig(), trusted)
		if err := lc.Sync(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if cpu0 >= 0 {
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// BenchmarkLightClientHead: what following the head costs once caught up:
// a Sync from a client already at the head (the finality and optimistic
// updates: 2 requests, two signatures verified), the extra a verified read
// pays over an unverified one besides its proofs; then CheckState of a
// Prover, whose root is already known (a comparison).
func BenchmarkLightClientHead(b *testing.B) {
	srv, trusted := lightChain(b, 2)
	bc, err := srv.Client(beacon.WithEncoding(beacon.EncodingSSZ))
	if err != nil {
		b.Fatal(err)
	}
	lc, err := light.New(bc, srv.LightConfig(), trusted)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := lc.Sync(ctx); err != nil {
		b.Fatal(err)
	}
	b.Run("Sync", func(b *testing.B) {
		b.ReportAllocs()
		before := srv.RequestCount()
		cpu0 := cpuTime()
		for b.Loop() {
			if err := lc.Sync(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(srv.RequestCount()-before)/float64(b.N), "requests/op")
		if cpu0 >= 0 {
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		}
	})
	fin, _ := lc.Finalized()
	st, _, err := bc.State(ctx, beacon.RootID(fin.Beacon.StateRoot), beacon.StateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	p, err := beacon.NewProver(st)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("CheckStateProver", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := light.CheckState(p, fin); err != nil {
				b.Fatal(err)
			}
		}
	})
}
