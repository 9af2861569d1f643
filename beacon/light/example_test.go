package light_test

import (
	"context"
	"fmt"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/light"
)

// A light client that starts from a trusted checkpoint, follows the
// chain, and checks a downloaded state against the verified finalized
// header before proving anything from it.
func Example() {
	ctx := context.Background()
	bc, err := beacon.New("https://eth-beacon.node.example", "YOUR-KEY")
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := light.Chain("mainnet")
	if err != nil {
		return
	}
	trusted := beacon.Root{} // a finalized block root from a source you trust
	lc, err := light.New(bc, cfg, trusted)
	if err != nil {
		fmt.Println(err) // the zero root is refused
		return
	}
	if err := lc.Sync(ctx); err != nil {
		return
	}
	fin, _ := lc.Finalized()
	st, _, err := bc.State(ctx, beacon.RootID(fin.Beacon.StateRoot), beacon.StateOptions{})
	if err != nil {
		return
	}
	if err := light.CheckState(st, fin); err != nil {
		return // matches nodeaccess.ErrUnverified: not the verified state
	}
	p, _ := beacon.NewProver(st)
	_, _, _ = p.ProveBalance(0)
	// Output: invalid input: trusted: the zero root is no block's
}
