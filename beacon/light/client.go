package light

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/internal/bridge"
)

// staleSlots is how far behind the clock the optimistic header may be
// before ExecutionBlocks syncs.
const staleSlots = 2

// maxRequestUpdates is MAX_REQUEST_LIGHT_CLIENT_UPDATES: the most updates
// one request may ask for.
const maxRequestUpdates = 128

// Client is a light client of the beacon chain: it starts from a block
// root the caller trusts, and from there believes only what the chain's
// sync committees sign. It asks its node (through a beacon.Client, with
// its key, retries, hooks and budget) for the light-client data, verifies
// it as the consensus specs' sync protocol says and keeps the verified
// finalized and optimistic headers. It is safe for concurrent use.
type Client struct {
	bc      *beacon.Client
	cfg     Config
	trusted beacon.Root
	now     func() time.Time

	mu sync.Mutex
	s  *store // nil until the first Sync or UnmarshalBinary
}

// New returns a light client that reads from c, on the chain cfg
// describes, starting from the block whose root is trusted (a finalized
// block root from a source the caller trusts: their own node, a
// checkpoint-sync provider; the bootstrap that c's node serves for it must
// hash to it). Nothing is fetched until Sync. A store saved by
// MarshalBinary is taken up with UnmarshalBinary instead of bootstrapping
// again.
func New(c *beacon.Client, cfg Config, trusted beacon.Root) (*Client, error) {
	if c == nil {
		return nil, errInput("c", "nil *beacon.Client")
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if trusted == (beacon.Root{}) {
		return nil, errInput("trusted", "the zero root is no block's")
	}
	cfg.BlobSchedule = append(cfg.BlobSchedule[:0:0], cfg.BlobSchedule...)
	return &Client{bc: c, cfg: cfg, trusted: trusted, now: time.Now}, nil
}

// Sync brings the client up to its node's head: it bootstraps from the
// trusted root the first time, then fetches the updates of the sync
// committee periods it has not verified (MAX_REQUEST_LIGHT_CLIENT_UPDATES,
// 128, per request: a year of periods in 3 requests), then the latest
// finality update and optimistic update, and applies each that verifies.
//
// When the chain has not finalized for UPDATE_TIMEOUT slots (a sync
// committee period: 8192 slots on mainnet) by the chain's clock, the best
// update verified since the finalized header last moved is forced, as
// process_light_client_store_force_update says: its attested header is
// taken as finalized, and the client moves on into the next period. A
// forced update is only ever one whose signature verified, but what it
// takes as finalized was signed, not finalized.
//
// An update that does not verify ends the call with a *VerifyError; the
// updates verified before it are kept, and nothing of the failing one is.
// A finality or optimistic update that brings nothing new (check "stale")
// is not an error.
func (lc *Client) Sync(ctx context.Context) error {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	return lc.sync(ctx)
}

func (lc *Client) sync(ctx context.Context) error {
	cfg := &lc.cfg
	if lc.s == nil {
		b, err := lc.Bootstrap(ctx, lc.trusted)
		if err != nil {
			return err
		}
		s, err := cfg.bootstrap(lc.trusted, b)
		if err != nil {
			return err
		}
		lc.s = s
	}
	now := cfg.currentSlot(lc.now())
	for {
		// Updates are needed while the store has no committee for the
		// current period's signatures (its next committee unknown, or its
		// finalized period more than one behind), and when finality has
		// stalled: the best update of the next period is the one to force.
		start, cur := cfg.period(lc.s.finalized.Beacon.Slot), cfg.period(now)
		if lc.s.next != nil {
			start++
			if start > cur || start == cur && !cfg.stalled(lc.s, now) {
				break
			}
		}
		if start > cur {
			break
		}
		count := min(cur-start+1, maxRequestUpdates)
		ups, err := lc.Updates(ctx, start, count)
		if errors.Is(err, nodeaccess.ErrNotFound) {
			// Nodes answer 404 for a range that holds no update yet (the
			// current period's first slots, a node behind the clock):
			// nothing newer.
			break
		}
		if err != nil {
			return err
		}
		before, knew := lc.s.finalized.Beacon.Slot, lc.s.next != nil
		for _, u := range ups {
			if err := lc.apply(u, now); err != nil {
				return err
			}
		}
		// Finality stalled for UPDATE_TIMEOUT slots: the best update
		// verified moves the store on (its attested header taken as
		// finalized), into the next period and its committee.
		s, err := lc.cfg.force(lc.s, now)
		if err != nil {
			return err
		}
		lc.s = s
		if lc.s.finalized.Beacon.Slot == before && (lc.s.next != nil) == knew {
			break // the node has nothing newer
		}
		if uint64(len(ups)) < count {
			break // the node's answer reached its newest period
		}
	}
	for _, k := range []kind{kindFinality, kindOptimistic} {
		u, err := lc.latest(ctx, k)
		if err != nil {
			return err
		}
		if err := lc.apply(u, now); err != nil {
			return err
		}
	}
	return nil
}

// apply processes u into the store. A stale update, and one signed in a
// period the store has no committee for yet (the chain has not finalized
// into the period before it: the sync protocol then waits), change nothing
// and are no error: nothing of them is taken.
func (lc *Client) apply(u *Update, now beacon.Slot) error {
	ns, err := lc.cfg.process(lc.s, u, now)
	var ve *VerifyError
	if errors.As(err, &ve) && (ve.Check == "stale" || ve.Check == "period") {
		return nil
	}
	if err != nil {
		return err
	}
	lc.s = ns
	return nil
}

// Finalized returns the newest verified finalized header; false before
// the first Sync (or UnmarshalBinary).
func (lc *Client) Finalized() (Header, bool) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.s == nil {
		return Header{}, false
	}
	h := lc.s.finalized
	h.verified = true
	return h, true
}

// Optimistic returns the newest verified header (signed by more than half
// the participation the store has seen, not yet finalized); false before
// the first Sync.
func (lc *Client) Optimistic() (Header, bool) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.s == nil {
		return Header{}, false
	}
	h := lc.s.optimistic
	h.verified = true
	return h, true
}

// ExecutionBlocks returns the hashes of the execution blocks of the
// verified optimistic header (head) and finalized header (finalized),
// after a Sync when the client has none yet or its optimistic header is
// more than two slots behind the chain's clock (a head is one slot behind
// at best: its signature comes in the next slot's block). A header of a fork before Capella
// carries no execution block: that is an error matching
// nodeaccess.ErrUnverified (check "header").
func (lc *Client) ExecutionBlocks(ctx context.Context) (head, finalized common.Hash, err error) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.s == nil || lc.s.optimistic.Beacon.Slot+staleSlots < lc.cfg.currentSlot(lc.now()) {
		if err := lc.sync(ctx); err != nil {
			return common.Hash{}, common.Hash{}, err
		}
	}
	head, finalized = lc.s.optimistic.ExecutionBlockHash, lc.s.finalized.ExecutionBlockHash
	if head == (common.Hash{}) || finalized == (common.Hash{}) {
		return common.Hash{}, common.Hash{}, unverified("header", "the verified headers (slots %d and %d) carry no execution block hash", lc.s.optimistic.Beacon.Slot, lc.s.finalized.Beacon.Slot)
	}
	return head, finalized, nil
}

// The light-client routes of the beacon API.
const (
	routeBootstrap  = "/eth/v1/beacon/light_client/bootstrap/"
	routeUpdates    = "/eth/v1/beacon/light_client/updates"
	routeFinality   = "/eth/v1/beacon/light_client/finality_update"
	routeOptimistic = "/eth/v1/beacon/light_client/optimistic_update"
)

// Bootstrap fetches and decodes the bootstrap of the block root (GET
// /eth/v1/beacon/light_client/bootstrap/{block_root}), in the encoding of
// the beacon.Client (WithEncoding). It is not verified: Sync verifies the
// bootstrap of the trusted root.
func (lc *Client) Bootstrap(ctx context.Context, root beacon.Root) (*Bootstrap, error) {
	r, err := bridge.Fetch(ctx, lc.bc, routeBootstrap+root.Hex(), nil)
	if err != nil {
		return nil, err
	}
	var b *Bootstrap
	if !r.SSZ {
		b, err = lc.cfg.decodeBootstrapJSON(r.Body, r.Version)
	} else {
		var v beacon.Version
		if v, err = sszVersion(r.Version); err == nil {
			b, err = lc.cfg.decodeBootstrapSSZ(r.Body, v)
		}
	}
	return b, masked(err, r.Mask)
}

// masked replaces the access key in the detail of a decoding error, which
// may quote the body.
func masked(err error, mask func(string) string) error {
	var ve *VerifyError
	if errors.As(err, &ve) && mask != nil {
		ve.Detail = mask(ve.Detail)
	}
	return err
}

// Updates fetches and decodes the best updates of count sync committee
// periods from start (GET /eth/v1/beacon/light_client/updates); count is at
// most 128 (MAX_REQUEST_LIGHT_CLIENT_UPDATES), and an answer with more
// than count updates is refused. They are not verified: Sync verifies them.
func (lc *Client) Updates(ctx context.Context, start, count uint64) ([]*Update, error) {
	if count == 0 || count > maxRequestUpdates {
		return nil, errInput("count", "%d, want 1 to %d", count, maxRequestUpdates)
	}
	q := url.Values{"start_period": {strconv.FormatUint(start, 10)}, "count": {strconv.FormatUint(count, 10)}}
	r, err := bridge.Fetch(ctx, lc.bc, routeUpdates, q)
	if err != nil {
		return nil, err
	}
	var us []*Update
	if r.SSZ {
		us, err = lc.cfg.decodeUpdatesSSZ(r.Body, int(count))
	} else {
		us, err = lc.cfg.decodeUpdatesJSON(r.Body, int(count))
	}
	return us, masked(err, r.Mask)
}

// latest fetches the finality or optimistic update.
func (lc *Client) latest(ctx context.Context, k kind) (*Update, error) {
	route := routeFinality
	if k == kindOptimistic {
		route = routeOptimistic
	}
	r, err := bridge.Fetch(ctx, lc.bc, route, nil)
	if err != nil {
		return nil, err
	}
	var u *Update
	if !r.SSZ {
		u, err = lc.cfg.decodeUpdateJSON(r.Body, r.Version, k)
	} else {
		var v beacon.Version
		if v, err = sszVersion(r.Version); err == nil {
			u, err = lc.cfg.decodeUpdateSSZ(r.Body, v, k)
		}
	}
	return u, masked(err, r.Mask)
}

// sszVersion parses the Eth-Consensus-Version of an SSZ body, which names
// its fork nowhere else.
func sszVersion(h string) (beacon.Version, error) {
	if h == "" {
		return 0, encodingError("an SSZ body without an Eth-Consensus-Version header names no fork")
	}
	v, err := beacon.ParseVersion(h)
	if err != nil {
		return 0, encodingError("Eth-Consensus-Version %q is not a fork this package decodes", cut(h))
	}
	return v, lightFork(v)
}
