// Command beaconstate downloads a full beacon state with a progress bar,
// saves it to disk as SSZ, hashes it as it arrives, and proves a validator
// from the saved file with a small memory footprint, which it reports.
//
//	go run ./examples/beaconstate
//	go run ./examples/beaconstate -out state.ssz
//
// With no configuration it starts a local beacon node in-process
// (beacontest, serving a generated mainnet-preset fulu state of about 5 MB)
// and says so in its first line. Any fork the beacon package decodes, gloas
// (Sepolia's current fork) included, is read the same way; a newer one is
// refused as beacon.ErrUnsupportedVersion (the body cannot be hashed). To
// read a state from a real node-access service instead, set:
//
//	NODEACCESS_BEACON_URL    the beacon node's base URL (https://host), or the
//	                         whole endpoint https://host/beacon/<KEY>
//	NODEACCESS_BEACON_KEY    the access key (leave unset when the URL carries
//	                         it; refused without NODEACCESS_BEACON_URL)
//	NODEACCESS_BEACON_STATE  the state id: head (default), genesis, finalized,
//	                         justified, a slot, or a 0x state root
//	NODEACCESS_BEACON_OUT    where to save the SSZ file (or -out; default:
//	                         none kept: a new file in the temporary directory,
//	                         removed when the program ends)
//	NODEACCESS_BEACON_VALIDATOR  the index of the validator to prove (0)
//
// What it shows:
//
//   - beacon.Client.DownloadState writes the body to a file as it arrives,
//     through a 256 KiB buffer (a mainnet state is about 300 MB of SSZ; the
//     download never holds it in memory), with beacon.WithProgress drawing
//     the bar from the Content-Length; when the body breaks off,
//     beacon.WithRestart lets the client empty the new file and fetch it
//     again, and the bar says so and starts again on a new line;
//   - beacon.WithProver builds a beacon.Prover from the same bytes as they
//     are written, in the same pass: it hashes the state and keeps only the
//     upper levels of its lists' trees, about 17 MB for a mainnet state
//     instead of the 320 MB the decoded state takes, and reads the rest
//     back from the file when a proof needs it;
//   - beacon.OpenState reads the slot, the validator count, the validator
//     and its balance from the file in place, a few hundred bytes;
//   - the Prover proves the validator against the state root, and the
//     proof is checked as a verifier (a contract) would, with nothing but
//     the proof and the root; the last line says how far the Go heap grew
//     (sampled every millisecond through runtime/metrics);
//   - asked for by its root (NODEACCESS_BEACON_STATE=0x…), the state is
//     verified: its hash tree root must be the root asked for. A state asked
//     for by name or slot has no root to check against; the program prints
//     the root, which you can compare with one from a source you trust (and
//     then ask for the state by that root: beacon.Client.State verifies it
//     by itself).
//
// The file at the output path is written only when all of that succeeded:
// the body goes to a new hidden file beside it (.beacon-state-*), which is
// renamed over the path once the download is complete, the state hashed,
// (asked for by root) its root verified and the validator proven. After any failure or an interrupt,
// only that new file is removed, and the path holds what it held before. A
// new file gets mode 0644 (a state is public data); a file that is replaced
// keeps its permission bits. An existing path that is not itself a regular
// file (a directory, a device, a symbolic link such as /dev/stdout) is
// refused before anything is sent.
//
// A mainnet download takes minutes; interrupt it with Ctrl-C.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

func main() {
	out := flag.String("out", "", "the SSZ file to write (default: $NODEACCESS_BEACON_OUT, else none kept: a file in the temporary directory, removed at the end)")
	flag.Parse()
	// Ctrl-C, kill and a closed terminal end the program through ctx, so
	// that the new file is removed; SIGKILL cannot be caught.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	getenv := func(k string) string {
		if k == "NODEACCESS_BEACON_OUT" && *out != "" {
			return *out
		}
		return os.Getenv(k)
	}
	if err := run(ctx, os.Stdout, getenv); err != nil {
		log.Fatal(err)
	}
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	c, stopLocal, warm, err := connect(out, getenv)
	if err != nil {
		return err
	}
	defer stopLocal()

	idText := getenv("NODEACCESS_BEACON_STATE")
	if idText == "" {
		idText = "head"
	}
	id, err := beacon.ParseStateID(idText)
	if err != nil {
		return fmt.Errorf("NODEACCESS_BEACON_STATE: %w", err)
	}

	index, err := validatorIndex(getenv("NODEACCESS_BEACON_VALIDATOR"))
	if err != nil {
		return err
	}

	o, err := createOut(getenv("NODEACCESS_BEACON_OUT"))
	if err != nil {
		return err
	}
	// The new file only, unless it was put where the user asked.
	defer func() { _ = o.discard() }()
	warm(id) // a local server encodes the state before the heap is measured
	mem := startHeapWatch()
	defer mem.stop()
	fmt.Fprintf(out, "Downloading state %s as SSZ to %s\n", id, o.path)
	bar := &progressBar{w: out}
	start := time.Now()
	// The file is new and ours: a body that breaks off may start it over.
	restart := beacon.WithRestart(func() error {
		if err := o.f.Truncate(0); err != nil {
			return err
		}
		_, err := o.f.Seek(0, io.SeekStart)
		return err
	})
	// The Prover is built from the body as it is written: hashed as it
	// arrives, its lists' upper levels kept, the rest read back from the
	// file when a proof needs it.
	var p beacon.Prover
	d, err := c.DownloadState(ctx, id, o.f, restart, beacon.WithProgress(bar.update), beacon.WithProver(&p))
	bar.end()
	if err != nil {
		return o.nothingSaved(err)
	}
	fmt.Fprintf(out, "Downloaded %d bytes (%s) of %s %s in %s, hashed as it arrived.\n", d.Bytes, size(d.Bytes), d.Fork, strings.ToUpper(d.Encoding.String()), since(start))

	// Read what the summary needs from the file in place: a few bytes.
	if err := ctx.Err(); err != nil {
		return o.nothingSaved(err)
	}
	sr, err := beacon.OpenState(o.f, d)
	if err != nil {
		return o.nothingSaved(err)
	}
	head, err := sr.Fields("slot")
	if err != nil {
		return o.nothingSaved(err)
	}
	n, err := sr.Len("validators")
	if err != nil {
		return o.nothingSaved(err)
	}
	fmt.Fprintf(out, "Read the file in place: %s state at slot %d (epoch %d), %d validators.\n",
		head.Version, head.Slot, uint64(head.Slot)/head.Preset.SlotsPerEpoch, n)

	root := p.StateRoot()
	fmt.Fprintf(out, "Hash tree root: %s (hashed while downloading)\n", beacon.RootID(root))
	// A root id (ParseStateID's "0x" and 64 hex digits) names the root to
	// check against.
	var want beacon.Root
	if strings.HasPrefix(string(id), "0x") && want.UnmarshalText([]byte(id)) == nil {
		if root != want {
			return o.nothingSaved(fmt.Errorf("%w: asked for %s, got a state whose hash tree root is %s", beacon.ErrIntegrity, want, root))
		}
		fmt.Fprintln(out, "Verified: the hash tree root is the state root asked for.")
	} else {
		fmt.Fprintf(out, "Not verified: %s names no root to check against. Compare the root with one you trust, or ask for the state by its root (NODEACCESS_BEACON_STATE=0x…) to have it checked.\n", id)
	}
	if err := ctx.Err(); err != nil {
		return o.nothingSaved(err)
	}
	start = time.Now()
	line, err := proveValidator(&p, sr, index, n)
	if err != nil {
		return o.nothingSaved(err)
	}
	fmt.Fprintf(out, "%s in %s.\n", line, time.Since(start).Round(time.Microsecond))
	fmt.Fprintf(out, "Memory: the Go heap peaked at %s above its start, for a state of %s.\n", size(int64(mem.stop())), size(d.Bytes))
	if err := ctx.Err(); err != nil {
		return o.nothingSaved(err)
	}
	if err := o.commit(); err != nil {
		return o.nothingSaved(err)
	}
	if !o.keep {
		if err := o.discard(); err != nil {
			return fmt.Errorf("removing the scratch file: %w", err)
		}
		fmt.Fprintf(out, "State file: none kept (the %s in %s is removed; name a file with -out or NODEACCESS_BEACON_OUT to keep the state)\n", size(d.Bytes), o.path)
		return nil
	}
	fmt.Fprintf(out, "State file: %s (%s)\n", o.path, size(d.Bytes))
	return nil
}

// connect returns the client the environment asks for, or one for a local
// server started here (stop closes it), and prints the first line. warm
// makes a local server encode a state before it is asked for it.
func connect(out io.Writer, getenv func(string) string) (c *beacon.Client, stop func(), warm func(beacon.StateID), err error) {
	// SSZ: a third of JSON's size, what the saved file holds, and what a
	// Prover is made from.
	ssz := beacon.WithEncoding(beacon.EncodingSSZ)
	url, key := getenv("NODEACCESS_BEACON_URL"), getenv("NODEACCESS_BEACON_KEY")
	if url == "" && key != "" {
		return nil, nil, nil, errors.New("NODEACCESS_BEACON_KEY is set but NODEACCESS_BEACON_URL is not: set both, or neither to use a local server")
	}
	if url == "" {
		srv, err := beacontest.New()
		if err != nil {
			return nil, nil, nil, err
		}
		fmt.Fprintf(out, "No NODEACCESS_BEACON_URL set: using a local beacon server at %s (key REDACTED).\n", srv.URL)
		if c, err = srv.Client(ssz); err != nil {
			srv.Close()
			return nil, nil, nil, err
		}
		return c, srv.Close, func(id beacon.StateID) { _, _ = srv.Body(id, beacon.EncodingSSZ) }, nil
	}
	if key == "" {
		c, err = beacon.NewFromURL(url, ssz)
	} else {
		c, err = beacon.New(url, key, ssz)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	fmt.Fprintf(out, "Calling %s.\n", c)
	return c, func() {}, func(beacon.StateID) {}, nil
}

// since is the time since start, rounded for reading.
func since(start time.Time) time.Duration {
	d := time.Since(start)
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}
