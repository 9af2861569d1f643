package beacon_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// A validator's withdrawal credentials proven against the block root, the
// root that EIP-4788's beacon roots contract serves on the execution layer
// (what an EigenPod-style contract checks). The state is the post-state of
// its block, as a node serves it for the block's slot: its header's
// state_root is still zero.
func ExampleProver() {
	st := beacontest.NewState(beacon.Deneb, beacon.MainnetPreset(), 64, 1) // from Client.State in real use
	st.LatestBlockHeader.StateRoot = beacon.Root{}

	p, err := beacon.NewProver(st) // one hash of the state; then each proof is cheap
	if err != nil {
		log.Fatal(err)
	}
	// A path names any node, as the specs' get_generalized_index does:
	// field names, list indices, "__len__".
	g, err := p.GIndexOf("validators", 5, "withdrawal_credentials")
	if err != nil {
		log.Fatal(err)
	}
	pr, err := p.Prove(g)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("leaf is the credentials:", pr.Leaf == st.Validators[5].WithdrawalCredentials)
	// (43 is validators in a deneb state, 2*43 its contents, then 2^40
	// slots, then 8 fields: (86 * 2^40 + 5) * 8 + 1.)
	fmt.Println("state gindex:", pr.GIndex, "siblings:", len(pr.Branch))
	fmt.Println("verifies against the state root:", pr.Verify(p.StateRoot()))

	// Through the latest block header's state_root up to the block root,
	// the root a contract gets from EIP-4788.
	blockProof, err := p.ToBlockRoot(pr)
	if err != nil {
		log.Fatal(err)
	}
	blockRoot, err := p.BlockRoot()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("block gindex:", blockProof.GIndex, "siblings:", len(blockProof.Branch))
	fmt.Println("verifies against the block root:", blockProof.Verify(blockRoot))

	// Balances are packed four to a chunk: ProveBalance proves validator
	// 5's chunk and returns its balance, read from its place in the leaf.
	bp, balance, err := p.ProveBalance(5)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("balance:", balance == st.Balances[5], bp.Verify(p.StateRoot()))
	// Output:
	// leaf is the credentials: true
	// state gindex: 756463999909929 siblings: 49
	// verifies against the state root: true
	// block gindex: 6385963534123049 siblings: 52
	// verifies against the block root: true
	// balance: true true
}

// The state's containers and byte types marshal as the beacon API writes
// them, and HashTreeRoot hashes any of them.
func ExampleCheckpoint() {
	var root beacon.Root
	if err := root.UnmarshalText([]byte("0xcf8e0d4e9587369b2301d0790347320302cc0943d5a1884560367e8208d920f2")); err != nil {
		log.Fatal(err)
	}
	cp := beacon.Checkpoint{Epoch: 1, Root: root}
	b, _ := json.Marshal(cp)
	fmt.Println(string(b))
	fmt.Printf("%v %s\n", cp.Root, beacon.ForkVersion{5, 0, 0, 0})
	fmt.Println(beacon.HashTreeRoot(cp))

	var k beacon.BLSPubKey
	fmt.Println(k.UnmarshalText([]byte("0x1234")))
	// Output:
	// {"epoch":"1","root":"0xcf8e0d4e9587369b2301d0790347320302cc0943d5a1884560367e8208d920f2"}
	// 0xcf8e0d4e9587369b2301d0790347320302cc0943d5a1884560367e8208d920f2 0x05000000
	// 0x000b46022f2c2cce012897769e1aa694978b6871dcc0d1cf73acc29af1e7a407 <nil>
	// invalid input: BLS public key: "0x1234" has 4 hex digits, want 96 (48 bytes)
}
