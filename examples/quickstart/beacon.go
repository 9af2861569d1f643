package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// beaconClient returns the client for NODEACCESS_BEACON_URL, or on a local
// beacontest server when it is unset, with the state to fetch.
func beaconClient(getenv func(string) string) (c *beacon.Client, where string, id beacon.StateID, stop func(), err error) {
	url, key := getenv("NODEACCESS_BEACON_URL"), getenv("NODEACCESS_BEACON_KEY")
	if url == "" {
		srv, err := beacontest.New()
		if err != nil {
			return nil, "", id, nil, fmt.Errorf("starting the local beacon server: %w", err)
		}
		if c, err = srv.Client(); err != nil {
			srv.Close()
			return nil, "", id, nil, err
		}
		return c, "local beacontest " + srv.URL, beacon.Head, srv.Close, nil
	}
	if key != "" {
		c, err = beacon.New(url, key)
	} else {
		c, err = beacon.NewFromURL(url)
	}
	if err != nil {
		return nil, "", id, nil, err
	}
	id = beacon.Head
	if s := getenv("NODEACCESS_BEACON_STATE"); s != "" {
		if id, err = beacon.ParseStateID(s); err != nil {
			return nil, "", id, nil, fmt.Errorf("NODEACCESS_BEACON_STATE: %w", err)
		}
	}
	return c, fmt.Sprint(c), id, func() {}, nil
}

// runBeacon fetches a whole beacon state, decodes it as it streams in and
// computes its hash tree root.
func runBeacon(ctx context.Context, out io.Writer, getenv func(string) string) error {
	c, where, id, stop, err := beaconClient(getenv)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintf(out, "\n== Beacon (%s)\n", where)
	st, body, err := c.State(ctx, id, beacon.StateOptions{})
	if err != nil {
		return err
	}
	root, err := beacon.HashTreeRoot(st)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "beacon state %s: %s, slot %d, %s, %s of %s\n",
		id, st.Version, st.Slot, count(len(st.Validators), "validator"), count(int(body.Bytes), "byte"), body.Encoding)
	fmt.Fprintf(out, "  hash tree root %s\n", root)
	fmt.Fprintf(out, "  finalized checkpoint: epoch %d, root %s\n", st.FinalizedCheckpoint.Epoch, st.FinalizedCheckpoint.Root)
	return nil
}
