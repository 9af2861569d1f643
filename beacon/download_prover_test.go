package beacon_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// TestDownloadProver saves a state and builds its Prover in one pass,
// with and without a Content-Length, and with a body that broke off and
// was fetched again: the file holds the body, and the Prover has
// NewProver's root and proofs.
func TestDownloadProver(t *testing.T) {
	st := beacontest.NewState(beacon.Gloas, beacon.MinimalPreset(), 300, 5)
	data, err := marshalSSZ(st)
	require.NoError(t, err)
	want, err := beacon.NewProver(st)
	require.NoError(t, err)
	for _, mode := range []string{"sized", "chunked", "restarted"} {
		t.Run(mode, func(t *testing.T) {
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if mode == "restarted" && n == 1 {
					brokenBody(t, w, r, "application/octet-stream", "gloas", data, len(data)/2)
					return
				}
				sszHandler(data, "gloas", mode == "chunked")(w, r, n)
			})
			c := newClient(t, srv.URL, fast, beacon.WithPreset(beacon.MinimalPreset()))
			f, err := os.Create(filepath.Join(t.TempDir(), "state.ssz"))
			require.NoError(t, err)
			defer f.Close()
			var p beacon.Prover
			d, err := c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Prover: &p, Restart: func() error {
				if err := f.Truncate(0); err != nil {
					return err
				}
				_, err := f.Seek(0, io.SeekStart)
				return err
			}})
			require.NoError(t, err)
			require.Equal(t, int64(len(data)), d.Bytes)
			saved, err := os.ReadFile(f.Name())
			require.NoError(t, err)
			require.Equal(t, data, saved)
			require.Equal(t, want.StateRoot(), p.StateRoot())
			for _, i := range []int{0, 150, 299} {
				g, err := p.GIndexOf("validators", i, "withdrawal_credentials")
				require.NoError(t, err)
				got, err := p.Prove(g)
				require.NoError(t, err)
				exp, err := want.Prove(g)
				require.NoError(t, err)
				require.Equal(t, exp, got)
			}
		})
	}
}

// TestDownloadProverRefuses: a writer that cannot be read back, or a
// client that asks for JSON, is refused before anything is sent; a JSON
// answer, an unknown fork or an invalid state fails the call, and the
// Prover stays zero.
func TestDownloadProverRefuses(t *testing.T) {
	st := beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 4, 5)
	data, err := marshalSSZ(st)
	require.NoError(t, err)
	srv, cnt := serve(t, sszHandler(data, "fulu", false))
	c := newClient(t, srv.URL, fast, beacon.WithPreset(beacon.MinimalPreset()))
	var p beacon.Prover
	_, err = c.DownloadState(context.Background(), beacon.Head, &bytes.Buffer{}, beacon.DownloadOptions{Prover: &p})
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	cj := newClient(t, srv.URL, fast, beacon.WithEncoding(beacon.EncodingJSON))
	f, err := os.Create(filepath.Join(t.TempDir(), "state.ssz"))
	require.NoError(t, err)
	defer f.Close()
	_, err = cj.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Prover: &p})
	require.ErrorAs(t, err, new(*nodeaccess.InputError))
	require.Equal(t, 0, cnt.Get(), "nothing sent")

	for name, h := range map[string]func(http.ResponseWriter, *http.Request, int){
		"unknown fork": sszHandler(data, "heze", false),
		"invalid":      sszHandler(data[:len(data)-3], "fulu", false),
		"json": func(w http.ResponseWriter, _ *http.Request, _ int) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"version":"fulu","data":{}}`))
		},
	} {
		srv, _ := serve(t, h)
		c := newClient(t, srv.URL, fast, beacon.WithPreset(beacon.MinimalPreset()))
		_, err := c.DownloadState(context.Background(), beacon.Head, f, beacon.DownloadOptions{Prover: &p})
		require.ErrorIs(t, err, nodeaccess.ErrInvalidResponse, name)
		require.Equal(t, beacon.Root{}, p.StateRoot(), name)
	}
}
