package hyper_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper"
)

// benchClient returns a client whose node and public API answer body to
// every request, from a local server, with the public budget off (the
// benchmarks measure the client, not the weight limit).
func benchClient(b *testing.B, body []byte) *hyper.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	c, err := hyper.New(srv.URL, testKey, hyper.WithPublicURL(srv.URL), hyper.WithPublicBudget(nil), nodeaccess.WithMaxAttempts(1))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// The typed calls end to end against a local server: request, transport,
// decoding of the recorded bodies.
func BenchmarkUserVaultEquities(b *testing.B) {
	c := benchClient(b, []byte(fixture(b, "userVaultEquities_2025-08.json")))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.UserVaultEquities(ctx, recordedUser); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAllMids(b *testing.B) {
	c := benchClient(b, []byte(fixture(b, "allMids_2025-12.json")))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.AllMids(ctx, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// The generic call on the same body, decoded into a map.
func BenchmarkPublicInfo(b *testing.B) {
	c := benchClient(b, []byte(fixture(b, "allMids_2025-12.json")))
	ctx := context.Background()
	req := map[string]string{"type": "allMids"}
	b.ReportAllocs()
	for b.Loop() {
		var mids map[string]string
		if err := c.PublicInfo(ctx, &mids, req); err != nil {
			b.Fatal(err)
		}
	}
}
