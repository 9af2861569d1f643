package bench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attestantio/go-eth2-client/spec/fulu"
	"github.com/nodeaccess/nodeaccess/beacon"
)

// beaconClientEnv makes the test binary fetch one state from the URL in it
// and report its peak RSS, instead of running tests; beaconPeerEnv chooses
// the go-eth2-client way of reading it.
const (
	beaconClientEnv = "NODEACCESS_BENCH_BEACON_URL"
	beaconPeerEnv   = "NODEACCESS_BENCH_BEACON_PEER"
	beaconBenchKey  = "bench-beacon-key"
)

// e2eResult is what a client process reports.
type e2eResult struct {
	Validators int     `json:"validators"`
	Seconds    float64 `json:"seconds"`
	PeakRSS    int64   `json:"peak_rss"` // VmHWM, bytes
}

// beaconClientChild fetches the head state from base and prints an
// e2eResult as JSON on stdout.
func beaconClientChild(base string) {
	start := time.Now()
	var n int
	if os.Getenv(beaconPeerEnv) == "1" {
		// What go-eth2-client's HTTP client does with a state: read the
		// whole body, then unmarshal it.
		resp, err := http.Get(base + "/beacon/" + beaconBenchKey + "/eth/v2/debug/beacon/states/head")
		if err != nil {
			fail(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			fail(err)
		}
		st := new(fulu.BeaconState)
		if err := st.UnmarshalSSZ(body); err != nil {
			fail(err)
		}
		n = len(st.Validators)
	} else {
		c, err := beacon.New(base, beaconBenchKey)
		if err != nil {
			fail(err)
		}
		st, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{})
		if err != nil {
			fail(err)
		}
		n = len(st.Validators)
	}
	secs := time.Since(start).Seconds()
	out, _ := json.Marshal(e2eResult{Validators: n, Seconds: secs, PeakRSS: vmHWM()})
	fmt.Println(string(out))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench client:", err)
	os.Exit(1)
}

// vmHWM returns the process's peak resident set size from /proc (Linux).
func vmHWM() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// BenchmarkBeaconEndToEnd fetches a mainnet-size fulu state in SSZ from a
// local HTTP server, in a fresh process per iteration so that the process's
// peak RSS (VmHWM) measures the client alone: nodeaccess's Client.State,
// which decodes while the body streams in, against reading the whole body
// and then decoding it with go-eth2-client (what its HTTP client does).
// Reported: peak-rss-B and rss/ssz (peak RSS over the SSZ size).
func BenchmarkBeaconEndToEnd(b *testing.B) {
	f := bigState()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/beacon/"+beaconBenchKey+"/eth/v2/debug/beacon/states/head" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Eth-Consensus-Version", "fulu")
		w.Header().Set("Content-Length", strconv.Itoa(len(f.ssz)))
		_, _ = io.Copy(w, bytes.NewReader(f.ssz))
	}))
	defer srv.Close()
	for _, peer := range []bool{false, true} {
		name := "nodeaccess"
		if peer {
			name = "go-eth2-client"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(f.ssz)))
			var peak int64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), beaconClientEnv+"="+srv.URL)
				if peer {
					cmd.Env = append(cmd.Env, beaconPeerEnv+"=1")
				}
				cmd.Stderr = os.Stderr
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("client process: %v", err)
				}
				var res e2eResult
				if err := json.Unmarshal(out, &res); err != nil {
					b.Fatalf("client process printed %q: %v", out, err)
				}
				if res.Validators != mainnetValidators {
					b.Fatalf("decoded %d validators", res.Validators)
				}
				peak = max(peak, res.PeakRSS)
			}
			b.ReportMetric(float64(peak), "peak-rss-B")
			b.ReportMetric(float64(peak)/float64(len(f.ssz)), "rss/ssz")
		})
	}
}
