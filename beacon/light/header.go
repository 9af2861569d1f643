package light

import (
	"context"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// maxHeaderWalk is the farthest Header walks back from a verified header,
// in slots (one request a block): a sync committee period of mainnet, a
// bit over a day.
const maxHeaderWalk = 8192

// routeHeaders is the beacon API's block header route, by block id.
const routeHeaders = "/eth/v1/beacon/headers/"

// Header returns a verified header of the block at slot, or of the newest
// block before it when slot is empty (no block was proposed there; the
// header's Beacon.Slot says which). It walks back from the verified
// finalized header when slot is at or before it, else from the verified
// optimistic header, fetching each parent by its root (GET
// /eth/v1/beacon/headers/{block_root}, one request a block) and checking
// that it hashes to its child's parent_root: the header returned is then
// as final as the header the walk started from (a slot after the
// finalized header's is only as final as the optimistic head). A Sync is
// made first when the client has none yet.
//
// A header the walk found carries no execution data (Execution nil,
// ExecutionBlockHash zero; the finalized or optimistic header itself, when
// slot is its slot, carries its own): it is an anchor for CheckState,
// which accepts it. A slot after
// the optimistic header's, or more than 8192 slots before the verified
// header the walk would start from, is a *nodeaccess.InputError naming
// the slot, and nothing is sent. A header that does not hash to the
// parent_root it was asked for fails with a *VerifyError of check
// "parent root" (matching nodeaccess.ErrUnverified).
func (lc *Client) Header(ctx context.Context, slot beacon.Slot) (Header, error) {
	lc.mu.Lock()
	if lc.s == nil {
		if err := lc.sync(ctx); err != nil {
			lc.mu.Unlock()
			return Header{}, err
		}
	}
	fin, opt := lc.s.finalized, lc.s.optimistic
	lc.mu.Unlock()
	from := opt
	if slot <= fin.Beacon.Slot {
		from = fin
	}
	switch {
	case slot > opt.Beacon.Slot:
		return Header{}, errInput("slot", "%d is after the verified optimistic header's slot %d", slot, opt.Beacon.Slot)
	case slot == from.Beacon.Slot:
		from.verified = true
		return from, nil
	case from.Beacon.Slot-slot > maxHeaderWalk:
		return Header{}, errInput("slot", "%d is %d slots before the verified header at slot %d: at most %d are walked", slot, from.Beacon.Slot-slot, from.Beacon.Slot, maxHeaderWalk)
	}
	cur := from.Beacon
	for cur.Slot > slot {
		var out struct {
			Data struct {
				Header struct {
					Message beacon.BeaconBlockHeader `json:"message"`
				} `json:"header"`
			} `json:"data"`
		}
		want := cur.ParentRoot
		if err := lc.bc.Get(ctx, &out, routeHeaders+want.Hex(), nil); err != nil {
			return Header{}, err
		}
		got := out.Data.Header.Message
		if r, _ := beacon.HashTreeRoot(got); r != want {
			return Header{}, mismatch("parent root", want, r, "the header served as the parent of the block at slot %d is another block's", cur.Slot)
		}
		cur = got
	}
	return Header{Beacon: cur, verified: true}, nil
}
