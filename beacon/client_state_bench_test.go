package beacon_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// BenchmarkClientState: State end to end from a local HTTP server, SSZ and
// JSON, at growing validator counts. Bytes per op is the body size; the
// allocations show what the client adds on top of the decoder (it should be
// a constant).
func BenchmarkClientState(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		st := beacontest.NewState(beacon.Fulu, beacon.MainnetPreset(), n, 3)
		ssz, err := marshalSSZ(st)
		if err != nil {
			b.Fatal(err)
		}
		var js bytes.Buffer
		if err := beacon.WriteState(&js, st, beacon.EncodingJSON, &beacon.Flags{}); err != nil {
			b.Fatal(err)
		}
		for _, enc := range []struct {
			name, ctype string
			body        []byte
		}{{"ssz", "application/octet-stream", ssz}, {"json", "application/json", js.Bytes()}} {
			b.Run(fmt.Sprintf("%s/validators=%d", enc.name, n), func(b *testing.B) {
				srv, _ := serve(b, stateHandler(enc.body, enc.ctype, "fulu"))
				c := newClient(b, srv.URL)
				b.SetBytes(int64(len(enc.body)))
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					res, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
					if err != nil {
						b.Fatal(err)
					}
					if len(res.Validators) != n {
						b.Fatal(len(res.Validators))
					}
				}
			})
		}
	}
}

// BenchmarkClientDownload: DownloadState to io.Discard; its allocations do
// not grow with the body.
func BenchmarkClientDownload(b *testing.B) {
	for _, size := range []int{1 << 20, 16 << 20} {
		body := patternBody(size)
		b.Run(fmt.Sprintf("bytes=%d", size), func(b *testing.B) {
			srv, _ := serve(b, sszHandler(body, "fulu", false))
			c := newClient(b, srv.URL)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := c.DownloadState(context.Background(), beacon.Head, io.Discard, beacon.DownloadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
