package nodeaccesstest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
)

// A chain server is a Server with its routes and its error body; the chain
// test packages (evmtest, hypertest, tontest, beacontest) are built this
// way. Here a one-route server shows the key check, an unknown path and two
// queued faults.
func Example() {
	errw := func(w http.ResponseWriter, _ *http.Request, status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":%q}`, msg)
	}
	srv, err := nodeaccesstest.Start("demo-key", errw)
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	srv.HandleFunc("POST /{key}/info", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `[]`)
	})

	post := func(path string) {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(`{"type":"userVaultEquities"}`))
		if err != nil {
			fmt.Println(path, "error:", err)
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		fmt.Println(path, resp.StatusCode, resp.Header.Get("Retry-After"), string(b))
	}
	post("/demo-key/info")
	post("/demo-key-2/info") // a longer key is a wrong key
	post("/demo-key/other")

	srv.FailNext(1, nodeaccesstest.RateLimited(2*time.Second))
	srv.FailNext(1, nodeaccesstest.ServerError(503))
	post("/demo-key/info")
	post("/demo-key/info")
	post("/demo-key/info")
	fmt.Println("requests:", srv.RequestCount())
	// Output:
	// /demo-key/info 200  []
	// /demo-key-2/info 403  {"error":"invalid access key"}
	// /demo-key/other 404  {"error":"not found"}
	// /demo-key/info 429 2 {"error":"rate limit exceeded"}
	// /demo-key/info 503  {"error":"service unavailable"}
	// /demo-key/info 200  []
	// requests: 6
}
