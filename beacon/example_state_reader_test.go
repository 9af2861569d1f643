package beacon_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// saveExampleState writes a generated state to a file, as DownloadState
// would have saved it, and returns its path and Body.
func saveExampleState(dir string, v beacon.Version, validators int) (string, beacon.Body) {
	st := beacontest.NewState(v, beacon.MainnetPreset(), validators, 1)
	path := filepath.Join(dir, "state.ssz")
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := beacon.WriteState(f, st, beacon.EncodingSSZ, nil); err != nil {
		log.Fatal(err)
	}
	return path, beacon.Body{Encoding: beacon.EncodingSSZ, Fork: v.String()}
}

// A validator, its balance and a field of a saved state, each read from
// its own bytes of the file: the state is never decoded whole.
func ExampleOpenState() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path, body := saveExampleState(dir, beacon.Fulu, 1000) // from DownloadState in real use

	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sr, err := beacon.OpenState(f, body, beacon.MainnetPreset()) // reads the offsets only
	if err != nil {
		log.Fatal(err)
	}
	n, err := sr.Len("validators")
	if err != nil {
		log.Fatal(err)
	}
	v, err := sr.Validators(700, 701) // 121 bytes
	if err != nil {
		log.Fatal(err)
	}
	b, err := sr.Balances(700, 701) // 8 bytes
	if err != nil {
		log.Fatal(err)
	}
	fin, err := sr.Fields("slot", "finalized_checkpoint")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("validators:", n)
	fmt.Println("validator 700 exits at epoch:", v[0].ExitEpoch == beacon.FarFutureEpoch, "balance:", b[0] > 0)
	fmt.Println("finalized epoch below the slot's:", uint64(fin.FinalizedCheckpoint.Epoch) < uint64(fin.Slot)/32)
	// Output:
	// validators: 1000
	// validator 700 exits at epoch: true balance: true
	// finalized epoch below the slot's: true
}

// A validator proven from a saved state with a Prover that kept only the
// upper levels of the state's trees: ReadProver hashed the file as it
// streamed by, and the proof reads the 16 validators it needs back from
// it. DownloadState with DownloadOptions{Prover: &p} does the same while
// it saves the body, in one pass.
func ExampleReadProver() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path, body := saveExampleState(dir, beacon.Gloas, 1000)

	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	p, err := beacon.ReadProver(f, body, f, beacon.ReadOptions{}) // streams from f, reads back from f
	if err != nil {
		log.Fatal(err)
	}
	g, err := p.GIndexOf("validators", 700, "withdrawal_credentials")
	if err != nil {
		log.Fatal(err)
	}
	pr, err := p.Prove(g)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("verifies against the state root:", pr.Verify(p.StateRoot()))
	fmt.Println("siblings:", len(pr.Branch))
	// Output:
	// verifies against the state root: true
	// siblings: 28
}

// DownloadState saves the body to a file and, with DownloadOptions.Prover,
// builds its Prover from the same bytes as they arrive.
func ExampleDownloadOptions() {
	srv, err := beacontest.New() // a local beacon node; a provider's URL in real use
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := srv.Client(beacon.WithEncoding(beacon.EncodingSSZ))
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.CreateTemp("", "state-*.ssz")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	var p beacon.Prover
	d, err := c.DownloadState(context.Background(), beacon.Finalized, f, beacon.DownloadOptions{Prover: &p})
	if err != nil {
		log.Fatal(err)
	}
	info, _ := srv.Lookup(beacon.Finalized)
	fmt.Println("saved:", d.Fork, d.Bytes > 0)
	fmt.Println("the Prover's root is the state's:", p.StateRoot() == info.Root)
	pr, balance, err := p.ProveBalance(12) // read back from the file
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("balance:", balance, "gwei, proven:", pr.Verify(p.StateRoot()))
	// Output:
	// saved: fulu true
	// the Prover's root is the state's: true
	// balance: 31361875786 gwei, proven: true
}
