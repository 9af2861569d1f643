package beacon_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// lodestarRoots are the hash tree roots Lodestar computed for the states
// of testdata/lodestar (see testdata/SOURCES.md).
var lodestarRoots = map[beacon.Version]string{
	beacon.Phase0:    "05dfe39d802f780723b9760a50099d21bc3143a9be9d0522a995b40c7026d709",
	beacon.Altair:    "54905123bfd7f112f82f8c35311d598c8d2f018ef5b3a8f8c6780bdf23e5d6da",
	beacon.Bellatrix: "2d50e12536d4d8efd555895e955449cc57dbcb133403e2fa284f4622c49313ab",
	beacon.Capella:   "1fcaa49a1c9726ae1bdbe828d511e835fca2aeb844cf0402855a7bdc7c3d83bb",
	beacon.Deneb:     "89cc0dd8d254e32d521bf6e89bdde6064f18122389cc43afc80aa032359c9a53",
	beacon.Electra:   "a70c231539b39fa9d21f354f2c2b1bd2397b50c7d0946270af5d9fb997017a29",
	beacon.Fulu:      "7fdcdfd4016f0107bd9f21bcdf6ec10472b8152afcab46aede1306642581b874",
	beacon.Gloas:     "f0d5007b832dd75a52814a4cb1e5da7e3b5ccc2f9c16e5794cc255774ec00bdf",
}

// TestLodestarJSON decodes JSON responses that Lodestar's codec wrote, in
// Lodestar's order (data before version), with no fork given: each is the
// state Lodestar was given, its flags come through, and its hash tree
// root is the one Lodestar computed.
// readJSON reads a JSON state body as a user would: ReadState with the
// fork when it is known, from the envelope when it is not ("").
func readJSON(r io.Reader, fork string, p beacon.Preset) (*beacon.State, *beacon.Flags, error) {
	return beacon.ReadState(r, beacon.Body{Encoding: beacon.EncodingJSON, Fork: fork}, beacon.ReadOptions{Preset: p})
}

func TestLodestarJSON(t *testing.T) {
	p := beacon.MinimalPreset()
	for _, v := range allForks() {
		body, err := os.ReadFile("testdata/lodestar/" + v.String() + "-minimal.json")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(body, []byte(`{"data":{`)) {
			t.Fatalf("%s: not in Lodestar's order: %.40s", v, body)
		}
		for _, fork := range []string{"", v.String()} {
			got, flags, err := readJSON(bytes.NewReader(body), fork, p)
			if err != nil {
				t.Fatalf("%s (fork %q): %v", v, fork, err)
			}
			if got.Version != v || flags == nil || *flags != (beacon.Flags{Finalized: true}) {
				t.Fatalf("%s: version %s flags %+v", v, got.Version, flags)
			}
			root, err := beacon.HashTreeRoot(got)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%x", root) != lodestarRoots[v] {
				t.Fatalf("%s: root %x, Lodestar's is %s", v, root, lodestarRoots[v])
			}
			if !jsonSameState(got, lodestarState(v, p)) {
				t.Fatalf("%s: the state differs from the one Lodestar was given", v)
			}
		}
	}
}

// lodestarState is the state of fork v that Lodestar was given. Lodestar
// holds a builder's balance as a JavaScript number (exact below 2^53, as
// every real balance in Gwei is), so the gloas state's builder balances
// were cut below 2^53 before Lodestar read them.
func lodestarState(v beacon.Version, p beacon.Preset) *beacon.State {
	s := beacontest.NewState(v, p, 4, 1000+uint64(v))
	for i := range s.Builders {
		s.Builders[i].Balance %= 1 << 53
	}
	return s
}
