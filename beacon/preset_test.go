package beacon_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// The zero Preset means mainnet everywhere: in a read, in a client, in a
// State.
func TestZeroPresetMeansMainnet(t *testing.T) {
	b, err := marshalSSZ(beacontest.NewState(beacon.Phase0, beacon.MainnetPreset(), 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	st, err := unmarshalSSZ(b, beacon.Phase0, beacon.Preset{})
	if err != nil {
		t.Fatalf("Preset{}: %v", err)
	}
	if st.Preset != beacon.MainnetPreset() {
		t.Fatalf("decoded with preset %+v", st.Preset)
	}
	srv := beacontest.NewT(t, beacontest.WithStates(beacontest.NewState(beacon.Phase0, beacon.MainnetPreset(), 3, 1)))
	c, err := beacon.New(srv.URL, srv.Key(), beacon.WithPreset(beacon.Preset{}))
	if err != nil {
		t.Fatalf("WithPreset(Preset{}): %v", err)
	}
	if st, _, err := c.State(context.Background(), beacon.Head, beacon.StateOptions{}); err != nil || st.Preset != beacon.MainnetPreset() {
		t.Fatalf("client preset: %v", err)
	}
	if _, err := beacon.New("https://node.example", "k3y", beacon.WithPreset(beacon.Preset{Name: "incomplete"})); !errors.Is(err, nodeaccess.ErrInvalidInput) {
		t.Fatalf("incomplete preset: err = %v", err)
	}
	zero := beacontest.NewState(beacon.Phase0, beacon.MainnetPreset(), 3, 1)
	zero.Preset = beacon.Preset{}
	r1, err := beacon.HashTreeRoot(zero)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := beacon.HashTreeRoot(st)
	if err != nil || r1 != r2 {
		t.Fatalf("a State with the zero Preset hashes as mainnet: %s, %s, %v", r1, r2, err)
	}
}
