package beacon_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// fakeBeaconNode stands in for a provider's beacon node in these examples:
// it serves one generated minimal-preset deneb state (64 validators) by any
// state id, as SSZ or JSON as the Accept header prefers, and answers 404
// for slot 1.
func fakeBeaconNode() *httptest.Server {
	st := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 64, 1)
	ssz, err := marshalSSZ(st)
	if err != nil {
		log.Fatal(err)
	}
	var js bytes.Buffer
	if err := beacon.WriteState(&js, st, beacon.EncodingJSON, &beacon.Flags{Finalized: true}); err != nil {
		log.Fatal(err)
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/states/1") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"code":404,"message":"NOT_FOUND: beacon state at slot 1","stacktraces":[]}`)
			return
		}
		w.Header().Set("Eth-Consensus-Version", "deneb")
		if strings.HasPrefix(r.Header.Get("Accept"), "application/octet-stream") {
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = w.Write(ssz)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(js.Bytes())
	}))
}

// exampleRoot is the hash tree root of the fake node's state.
func exampleRoot() beacon.Root {
	r, err := beacon.HashTreeRoot(beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 64, 1))
	if err != nil {
		log.Fatal(err)
	}
	return r
}

// Fetch a state by its root: it is decoded as it streams in and checked
// against the root.
func Example() {
	node := fakeBeaconNode() // your provider's base URL in real use
	defer node.Close()

	c, err := beacon.New(node.URL, "YOUR-ACCESS-KEY", beacon.WithPreset(beacon.MinimalPreset()))
	if err != nil {
		log.Fatal(err)
	}
	st, body, err := c.State(context.Background(), beacon.RootID(exampleRoot())) // verified: its root is the one asked for
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("fork:", st.Version, "encoding:", body.Encoding)
	fmt.Println("validators:", len(st.Validators), "balances:", len(st.Balances))
	fmt.Println("flags with SSZ:", body.Flags)
	// Output:
	// fork: deneb encoding: ssz
	// validators: 64 balances: 64
	// flags with SSZ: <nil>
}

// The node's endpoint URL as providers show it, in the one shape
// NewFromURL takes. Any other path is refused without a guess at the key;
// New takes a base URL with a path of its own.
func ExampleNewFromURL() {
	c, err := beacon.NewFromURL("https://eth-beacon.node.example/beacon/YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)

	_, err = beacon.NewFromURL("https://eth-beacon.node.example/v1/beacon/YOUR-ACCESS-KEY")
	fmt.Println(err)
	c, err = beacon.New("https://eth-beacon.node.example/v1", "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c)
	// Output:
	// beacon.Client{https://eth-beacon.node.example/beacon/REDACTED}
	// beacon: invalid input: endpoint: the endpoint URL's path is not a form beacon.NewFromURL takes (https://host/beacon/<KEY>, with no other path segment); for a base URL with a path of its own, use beacon.New(baseURL, key)
	// beacon.Client{https://eth-beacon.node.example/v1/beacon/REDACTED}
}

// Ask for JSON to get the execution_optimistic and finalized flags.
func ExampleClient_State_json() {
	node := fakeBeaconNode()
	defer node.Close()

	c, err := beacon.New(node.URL, "YOUR-ACCESS-KEY",
		beacon.WithPreset(beacon.MinimalPreset()), beacon.WithEncoding(beacon.EncodingJSON))
	if err != nil {
		log.Fatal(err)
	}
	_, body, err := c.State(context.Background(), beacon.Finalized)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("encoding:", body.Encoding, "finalized:", body.Flags.Finalized, "optimistic:", body.Flags.ExecutionOptimistic)
	// Output:
	// encoding: json finalized: true optimistic: false
}

// Save a state to a file as it arrives, then decode the file.
func ExampleClient_DownloadState() {
	node := fakeBeaconNode()
	defer node.Close()
	dir, err := os.MkdirTemp("", "beacon-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	c, err := beacon.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "state.ssz"))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	// A body that breaks off is fetched again only when the call may start
	// the file over: WithRestart says how.
	restart := beacon.WithRestart(func() error {
		if err := f.Truncate(0); err != nil {
			return err
		}
		_, err := f.Seek(0, io.SeekStart)
		return err
	})
	d, err := c.DownloadState(context.Background(), beacon.Head, f, restart,
		beacon.WithProgress(func(read, total int64) { /* update a progress bar */ }))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("saved:", d.Fork, d.Encoding, d.Bytes > 0)

	// Later: decode the file with the Body that came with it (kept as
	// JSON, say) and the preset of the chain it came from.
	if _, err := f.Seek(0, 0); err != nil {
		log.Fatal(err)
	}
	st, _, err := beacon.ReadState(f, d, beacon.MinimalPreset())
	if err != nil {
		log.Fatal(err)
	}
	root, _ := beacon.HashTreeRoot(st)
	fmt.Println("validators:", len(st.Validators), "root matches:", root == exampleRoot())
	// Output:
	// saved: deneb ssz true
	// validators: 64 root matches: true
}

// A state the node does not have, and the other errors to expect.
func ExampleErrDebugDisabled() {
	node := fakeBeaconNode()
	defer node.Close()

	c, err := beacon.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = c.State(context.Background(), beacon.SlotID(1))
	var he *nodeaccess.HTTPError
	switch {
	case errors.Is(err, beacon.ErrDebugDisabled): // before ErrNotFound, which a disabled route's 404 matches too
		fmt.Println("this node does not serve states")
	case errors.Is(err, nodeaccess.ErrNotFound) && errors.As(err, &he):
		fmt.Println("not there:", he.Message)
	case errors.Is(err, beacon.ErrIntegrity):
		fmt.Println("the node sent another state")
	}
	fmt.Println(err)
	// Output:
	// not there: NOT_FOUND: beacon state at slot 1
	// beacon: getStateV2: state 1: HTTP 404 Not Found: NOT_FOUND: beacon state at slot 1
}

// Parse a state id typed by a user.
func ExampleParseStateID() {
	for _, s := range []string{"finalized", "7340032", "0xfb9afe32150fa39f4b346be2519a67e2a4f5efcd50a1dc192c3f6b3d013d2798", "latest"} {
		id, err := beacon.ParseStateID(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(id) // in the form the API takes
	}
	// Output:
	// finalized
	// 7340032
	// 0xfb9afe32150fa39f4b346be2519a67e2a4f5efcd50a1dc192c3f6b3d013d2798
	// invalid input: stateID: "latest" is not head, genesis, finalized, justified, a decimal slot or a 0x state root
}

// Any GET of the beacon API the package has no typed call for goes through
// the same client: its key, retries, hooks and budget.
func ExampleClient_Get() {
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/beacon/YOUR-ACCESS-KEY/eth/v1/node/version":
			fmt.Fprint(w, `{"data":{"version":"Lighthouse/v7.0.0-054f2ef/x86_64-linux"}}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"code":404,"message":"NOT_FOUND: no such route"}`)
		}
	}))
	defer node.Close()

	c, err := beacon.New(node.URL, "YOUR-ACCESS-KEY")
	if err != nil {
		log.Fatal(err)
	}
	var version struct {
		Data struct {
			Version string `json:"version"`
		} `json:"data"`
	}
	if err := c.Get(context.Background(), &version, "/eth/v1/node/version", nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(version.Data.Version)

	err = c.Get(context.Background(), nil, "/eth/v1/node/peers", url.Values{"state": {"connected"}})
	var he *nodeaccess.HTTPError
	fmt.Println(errors.Is(err, nodeaccess.ErrNotFound), errors.As(err, &he) && he.Message == "NOT_FOUND: no such route")
	// Output:
	// Lighthouse/v7.0.0-054f2ef/x86_64-linux
	// true true
}

// Write a state as a node serves it, and read it back: SSZ needs the fork
// named beside it (the Body), JSON names its own.
func ExampleWriteState() {
	st := beacontest.NewState(beacon.Deneb, beacon.MinimalPreset(), 64, 1)

	var ssz bytes.Buffer
	if err := beacon.WriteState(&ssz, st, beacon.EncodingSSZ, nil); err != nil {
		log.Fatal(err)
	}
	back, _, err := beacon.ReadState(&ssz, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: "deneb"}, beacon.MinimalPreset())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("ssz:", back.Version, len(back.Validators))

	var js bytes.Buffer
	if err := beacon.WriteState(&js, st, beacon.EncodingJSON, &beacon.Flags{Finalized: true}); err != nil {
		log.Fatal(err)
	}
	back, flags, err := beacon.ReadState(&js, beacon.Body{Encoding: beacon.EncodingJSON}, beacon.MinimalPreset())
	if err != nil {
		log.Fatal(err)
	}
	r1, _ := beacon.HashTreeRoot(st)
	r2, _ := beacon.HashTreeRoot(back)
	fmt.Println("json:", back.Version, "finalized:", flags.Finalized, "same root:", r1 == r2)
	// Output:
	// ssz: deneb 64
	// json: deneb finalized: true same root: true
}
