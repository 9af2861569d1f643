package light

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// Config is what a light client must know of its chain: the genesis
// validators root and time, the fork schedule (a version and first epoch
// per fork) and the few preset values the sync protocol uses. Chain
// returns the configuration of a public network; a local or test network
// (a beacontest server, a devnet) fills one in.
type Config struct {
	// Name names the chain in errors and in a saved store.
	Name string
	// GenesisValidatorsRoot is the state's genesis_validators_root; it is
	// part of every signature's domain.
	GenesisValidatorsRoot beacon.Root
	// GenesisTime is the chain's genesis in Unix seconds, and
	// SecondsPerSlot the slot time: together they give the current slot,
	// past which no signature is accepted.
	GenesisTime, SecondsPerSlot uint64
	// SlotsPerEpoch (SLOTS_PER_EPOCH), EpochsPerSyncCommitteePeriod
	// (EPOCHS_PER_SYNC_COMMITTEE_PERIOD) and SyncCommitteeSize
	// (SYNC_COMMITTEE_SIZE) are the preset's: 32, 256 and 512 on
	// mainnet's preset, 8, 8 and 32 on the minimal one.
	SlotsPerEpoch, EpochsPerSyncCommitteePeriod, SyncCommitteeSize uint64
	// ForkVersions and ForkEpochs are the fork schedule, indexed by
	// beacon.Version (Phase0 holds the genesis fork version, epoch 0). A
	// fork not scheduled has beacon.FarFutureEpoch. Epochs never go down.
	ForkVersions [beacon.Gloas + 1]beacon.ForkVersion
	ForkEpochs   [beacon.Gloas + 1]beacon.Epoch
	// BlobSchedule is the chain's BLOB_SCHEDULE (from Fulu on, the fork
	// digests that name an SSZ update's fork mix in the blob parameters of
	// its epoch), and MaxBlobsPerBlockElectra MAX_BLOBS_PER_BLOCK_ELECTRA,
	// the parameters before the schedule's first entry.
	BlobSchedule []struct {
		Epoch            beacon.Epoch
		MaxBlobsPerBlock uint64
	}
	MaxBlobsPerBlockElectra uint64
	// Clock, when set, gives the current slot, for a chain whose slots do
	// not follow the wall clock (a local or test chain, such as
	// beacontest's); nil reads it from GenesisTime and SecondsPerSlot. No
	// signature of a later slot is accepted, and the sync protocol's
	// forced update counts its timeout on it.
	Clock func() beacon.Slot
}

// Chain returns the configuration of "mainnet", "sepolia" or "hoodi" (any
// case). Other names are an error.
func Chain(name string) (Config, error) {
	far := beacon.FarFutureEpoch
	mk := func(n, gvr string, genesis uint64, epochs [8]beacon.Epoch, sched ...uint64) Config {
		c := Config{Name: n, GenesisValidatorsRoot: beacon.Root(hexRoot(gvr)), GenesisTime: genesis, SecondsPerSlot: 12,
			SlotsPerEpoch: 32, EpochsPerSyncCommitteePeriod: 256, SyncCommitteeSize: 512, ForkEpochs: epochs, MaxBlobsPerBlockElectra: 9}
		for i := range sched {
			if i%2 == 0 {
				c.BlobSchedule = append(c.BlobSchedule, struct {
					Epoch            beacon.Epoch
					MaxBlobsPerBlock uint64
				}{beacon.Epoch(sched[i]), sched[i+1]})
			}
		}
		return c
	}
	var c Config
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "mainnet":
		c = mk("mainnet", "4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95", 1606824023,
			[8]beacon.Epoch{0, 74240, 144896, 194048, 269568, 364032, 411392, far}, 412672, 15, 419072, 21)
		for v := range c.ForkVersions {
			c.ForkVersions[v] = beacon.ForkVersion{byte(v), 0, 0, 0}
		}
	case "sepolia":
		c = mk("sepolia", "d8ea171f3c94aea21ebc42a1ed61052acf3f9209c00e4efbaaddac09ed9b8078", 1655733600,
			[8]beacon.Epoch{0, 50, 100, 56832, 132608, 222464, 272640, 353024}, 274176, 15, 275712, 21)
		for v := range c.ForkVersions {
			c.ForkVersions[v] = beacon.ForkVersion{0x90, 0, 0, byte(0x6f + v)} // 0x90000070 altair … 0x90000076 gloas
		}
		c.ForkVersions[beacon.Phase0] = beacon.ForkVersion{0x90, 0, 0, 0x69}
	case "hoodi":
		c = mk("hoodi", "212f13fc4df078b6cb7db228f1c8307566dcecf900867401a92023d7ba99cb5f", 1742213400,
			[8]beacon.Epoch{0, 0, 0, 0, 0, 2048, 50688, far}, 52480, 15, 54016, 21)
		for v := range c.ForkVersions {
			c.ForkVersions[v] = beacon.ForkVersion{byte(v+1) << 4, 0, 0x09, 0x10}
		}
	default:
		return Config{}, errInput("name", "%q is not a chain this package knows (mainnet, sepolia, hoodi); fill in a Config", name)
	}
	return c, nil
}

// hexRoot decodes 64 hex digits of a constant.
func hexRoot(s string) (r [32]byte) {
	for i := range r {
		var b byte
		for _, ch := range s[2*i : 2*i+2] {
			b <<= 4
			switch {
			case ch >= '0' && ch <= '9':
				b |= byte(ch - '0')
			default:
				b |= byte(ch-'a') + 10
			}
		}
		r[i] = b
	}
	return r
}

// check refuses a configuration the protocol cannot run with.
func (c *Config) check() error {
	switch {
	case c.SlotsPerEpoch == 0 || c.EpochsPerSyncCommitteePeriod == 0 || c.SecondsPerSlot == 0:
		return errInput("config", "SlotsPerEpoch, EpochsPerSyncCommitteePeriod and SecondsPerSlot must not be zero")
	case c.SyncCommitteeSize == 0 || c.SyncCommitteeSize%8 != 0 || c.SyncCommitteeSize > 1<<16:
		return errInput("config", "SyncCommitteeSize %d is not a positive multiple of 8 up to 65536", c.SyncCommitteeSize)
	case c.ForkEpochs[beacon.Phase0] != 0:
		return errInput("config", "ForkEpochs[Phase0] is %d, want 0", c.ForkEpochs[beacon.Phase0])
	case c.ForkEpochs[beacon.Altair] == beacon.FarFutureEpoch:
		return errInput("config", "Altair is not scheduled: the chain has no sync committee")
	}
	for v := beacon.Altair; v <= beacon.Gloas; v++ {
		if c.ForkEpochs[v] < c.ForkEpochs[v-1] {
			return errInput("config", "ForkEpochs[%s] %d is before ForkEpochs[%s] %d", v, c.ForkEpochs[v], v-1, c.ForkEpochs[v-1])
		}
	}
	return nil
}

// epochFork returns the fork of epoch e (compute_fork_version's fork).
func (c *Config) epochFork(e beacon.Epoch) beacon.Version {
	v := beacon.Phase0
	for f := beacon.Altair; f <= beacon.Gloas; f++ {
		if e >= c.ForkEpochs[f] {
			v = f
		}
	}
	return v
}

// slotFork returns the fork of slot s.
func (c *Config) slotFork(s beacon.Slot) beacon.Version {
	return c.epochFork(beacon.Epoch(uint64(s) / c.SlotsPerEpoch))
}

// period returns compute_sync_committee_period_at_slot(s).
func (c *Config) period(s beacon.Slot) uint64 {
	return uint64(s) / c.SlotsPerEpoch / c.EpochsPerSyncCommitteePeriod
}

// forkDataRoot is compute_fork_data_root(version, genesis_validators_root).
func (c *Config) forkDataRoot(v beacon.ForkVersion) [32]byte {
	var b [64]byte
	copy(b[:4], v[:])
	copy(b[32:], c.GenesisValidatorsRoot[:])
	return sha256.Sum256(b[:])
}

// domainSyncCommittee is DOMAIN_SYNC_COMMITTEE.
var domainSyncCommittee = [4]byte{7, 0, 0, 0}

// signingRoot is compute_signing_root(header, compute_domain(
// DOMAIN_SYNC_COMMITTEE, fork_version, genesis_validators_root)).
func (c *Config) signingRoot(headerRoot beacon.Root, fork beacon.ForkVersion) [32]byte {
	fdr := c.forkDataRoot(fork)
	var b [64]byte
	copy(b[:32], headerRoot[:])
	copy(b[32:36], domainSyncCommittee[:])
	copy(b[36:], fdr[:28])
	return sha256.Sum256(b[:])
}

// forkDigest is compute_fork_digest at epoch e (Fulu's, with the blob
// parameters mixed in from Fulu on).
func (c *Config) forkDigest(e beacon.Epoch) [4]byte {
	v := c.epochFork(e)
	base := c.forkDataRoot(c.ForkVersions[v])
	if v < beacon.Fulu {
		return [4]byte(base[:4])
	}
	pe, pm, found := c.ForkEpochs[beacon.Electra], c.MaxBlobsPerBlockElectra, false
	for _, b := range c.BlobSchedule {
		if e >= b.Epoch && (!found || b.Epoch >= pe) {
			pe, pm, found = b.Epoch, b.MaxBlobsPerBlock, true
		}
	}
	var in [16]byte
	binary.LittleEndian.PutUint64(in[:8], uint64(pe))
	binary.LittleEndian.PutUint64(in[8:], pm)
	h := sha256.Sum256(in[:])
	return [4]byte{base[0] ^ h[0], base[1] ^ h[1], base[2] ^ h[2], base[3] ^ h[3]}
}

// digestFork returns the fork whose digest d is: one of the forks' first
// epochs, or the first epoch of a blob schedule entry.
func (c *Config) digestFork(d [4]byte) (beacon.Version, error) {
	try := func(e beacon.Epoch) bool { return e != beacon.FarFutureEpoch && c.forkDigest(e) == d }
	for v := beacon.Altair; v <= beacon.Gloas; v++ {
		if try(c.ForkEpochs[v]) {
			return c.epochFork(c.ForkEpochs[v]), nil
		}
	}
	for _, b := range c.BlobSchedule {
		if try(b.Epoch) {
			return c.epochFork(b.Epoch), nil
		}
	}
	return 0, encodingError("context bytes %x are no fork digest of %s", d, c.Name)
}
