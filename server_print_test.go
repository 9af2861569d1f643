package nodeaccess_test

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/nodeaccesstest"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
	"github.com/stretchr/testify/require"
)

// busyKey is TestServersPrintWhileServing's access key.
const busyKey = "sEcReT-k3y"

// busyServer is a local server for TestServersPrintWhileServing, with one
// step of what a test does with it while it runs: real requests, whose
// answers step checks, and the server's own calls that change its state.
type busyServer struct {
	srv  interface{ Key() string }
	step func(i int) error
}

// Printing a local server while it serves and its state changes reads
// nothing the serving goroutines or its methods write: a goroutine sends
// requests and changes the server (evmtest mines blocks, hypertest sets
// mids, tontest's chain grows on its clock and by Advance, beacontest pins
// states, nodeaccesstest queues faults) while the test prints the server
// with every verb, dereferenced and inside structs (exported and unexported
// fields), and walks what fmt can reach. Under -race it fails wherever fmt
// can read (at the top level, through the one pointer it opens under %s,
// or by copying the dereferenced server) a field that is written while
// the server runs, as users' t.Logf("%v", srv) and testify's messages do.
func TestServersPrintWhileServing(t *testing.T) {
	const key = busyKey
	hc := &http.Client{Timeout: 30 * time.Second}
	servers := map[string]func(t *testing.T) busyServer{
		"nodeaccesstest": func(t *testing.T) busyServer {
			s, err := nodeaccesstest.Start(key, nil)
			require.NoError(t, err)
			t.Cleanup(s.Close)
			s.HandleFunc("GET /{key}/ok", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
			return busyServer{s, func(int) error {
				s.FailNext(1, nodeaccesstest.ServerError(http.StatusBadGateway))
				if err := expect(hc, http.MethodGet, s.URL+"/"+key+"/ok", "", http.StatusBadGateway, ""); err != nil {
					return err
				}
				return expect(hc, http.MethodGet, s.URL+"/"+key+"/ok", "", http.StatusOK, "ok")
			}}
		},
		"evmtest": func(t *testing.T) busyServer {
			s := evmtest.NewT(t, evmtest.WithKey(key), evmtest.WithoutScenario())
			return busyServer{s, func(int) error {
				s.Commit()
				block, err := s.EthClient().BlockNumber(t.Context())
				if err != nil {
					return err
				}
				return expect(hc, http.MethodPost, s.Endpoint(), `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`,
					http.StatusOK, fmt.Sprintf(`"result":"0x%x"`, block))
			}}
		},
		"hypertest": func(t *testing.T) busyServer {
			s := hypertest.NewT(t, hypertest.WithKey(key))
			return busyServer{s, func(i int) error {
				price := strconv.Itoa(i + 1)
				if err := s.SetMids("", map[string]string{"BTC": price}); err != nil {
					return err
				}
				if err := expect(hc, http.MethodPost, s.Public.URL+"/info", `{"type":"allMids"}`, http.StatusOK, `{"BTC":"`+price+`"}`); err != nil {
					return err
				}
				return expect(hc, http.MethodPost, s.URL+"/"+key+"/info",
					`{"type":"userVaultEquities","user":"`+hypertest.DefaultUser().Hex()+`"}`, http.StatusOK, `"vaultAddress"`)
			}}
		},
		"tontest": func(t *testing.T) busyServer {
			s := tontest.NewT(t, tontest.WithKey(key), tontest.WithChain(time.Millisecond))
			return busyServer{s, func(int) error {
				if err := s.Advance(1); err != nil {
					return err
				}
				return expect(hc, http.MethodGet, s.URL+"/api/v2/"+key+"/getMasterchainInfo", "", http.StatusOK, `"ok":true`)
			}}
		},
		"beacontest": func(t *testing.T) busyServer {
			s := beacontest.NewT(t, beacontest.WithKey(key))
			head := s.URL + "/beacon/" + key + "/eth/v2/debug/beacon/states/"
			return busyServer{s, func(i int) error {
				s.SetExecutionOptimistic(i%2 == 0)
				if i%2 == 0 {
					if err := s.Pin(beacon.Head, 0); err != nil {
						return err
					}
				} else {
					s.Unpin(beacon.Head)
				}
				if err := expect(hc, http.MethodHead, head+"head", "", http.StatusOK, ""); err != nil {
					return err
				}
				return expect(hc, http.MethodGet, head+"5", "", http.StatusNotFound, "NOT_FOUND")
			}}
		},
	}
	for name, start := range servers {
		t.Run(name, func(t *testing.T) {
			b := start(t)
			var steps atomic.Int64
			stop, done := make(chan struct{}), make(chan struct{})
			var stepErr error
			var wg sync.WaitGroup
			wg.Go(func() {
				defer close(done)
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					if stepErr = b.step(i); stepErr != nil {
						return
					}
					steps.Add(1)
				}
			})
			running := func() bool {
				select {
				case <-done:
					return false
				default:
					return true
				}
			}
			for i := 0; running() && (i < 20 || steps.Load() < 10); i++ {
				testkit.AssertFormatNoKey(t, key, b.srv)
				testkit.AssertUnprintable(t, key, b.srv)
			}
			close(stop)
			wg.Wait()
			require.NoError(t, stepErr)
			require.GreaterOrEqual(t, steps.Load(), int64(10), "the server served while it was printed")
		})
	}
}

// expect sends a request and checks the answer's status and that its body
// holds want.
func expect(hc *http.Client, method, url, body string, status int, want string) error {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if method == http.MethodHead {
		req.Header.Set("Accept", "application/octet-stream")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != status || !strings.Contains(string(got), want) {
		return fmt.Errorf("%s %s: %d %q, want %d with %q", method, strings.ReplaceAll(url, busyKey, "{key}"), resp.StatusCode, got, status, want)
	}
	return nil
}
