package beacontest

import (
	"github.com/nodeaccess/nodeaccess/beacon"
)

// The default chain: what a Server serves when New is given no state.
//
// Four mainnet-preset states of one made-up chain with mainnet's genesis
// time and genesis validators root: its genesis (phase0, slot 0) and three
// fulu states at the slots a node reports as finalized, justified and head,
// each with defaultValidators validators. The head state's checkpoints name
// the epochs and the block roots of the finalized and justified states, its
// block_roots and state_roots rings hold their block and state roots, and
// the justified state's current justified checkpoint is the finalized one,
// as on a real chain. Each fulu state is the post-state of the block at its
// slot: its latest block header's state_root is zero, as the specs leave it
// until the next slot.
//
// Sizes and times (measured on a 2-core amd64 machine): the head state is
// 5,021,637 bytes of SSZ and 12,798,603 bytes of JSON (the other fulu
// states within a few kB of it, the phase0 genesis 4,804,257 and
// 12,484,058); New takes about 0.15 s to generate and hash the four states;
// encoding a state takes about 3 ms as SSZ and 45 ms as JSON, once per state
// and encoding, on the first request that asks for it.
const (
	// defaultFork is the fork of the default finalized, justified and head
	// states (the genesis state is phase0).
	defaultFork = beacon.Fulu
	// defaultValidators is the number of validators in each default state.
	defaultValidators = 16384
	// defaultHeadSlot is the slot of the default head state: the last slot
	// of epoch 412500.
	defaultHeadSlot beacon.Slot = 13_200_031
	// defaultJustifiedSlot is the slot of the default justified state: the
	// first slot of epoch 412499, the head state's current justified
	// checkpoint.
	defaultJustifiedSlot beacon.Slot = 13_199_968
	// defaultFinalizedSlot is the slot of the default finalized state: the
	// first slot of epoch 412498, the head state's finalized checkpoint.
	defaultFinalizedSlot beacon.Slot = 13_199_936
	// defaultGenesisSlot is the slot of the default genesis state.
	defaultGenesisSlot beacon.Slot = 0
)

// Mainnet's genesis time, genesis validators root and fulu fork epoch, which
// the default states share.
const (
	mainnetGenesisTime = 1606824023
	mainnetFuluEpoch   = 411392
)

var mainnetGenesisValidatorsRoot = beacon.Root{
	0x4b, 0x36, 0x3d, 0xb9, 0x4e, 0x28, 0x61, 0x20, 0xd7, 0x6e, 0xb9, 0x05, 0x34, 0x0f, 0xdd, 0x4e,
	0x54, 0xbf, 0xe9, 0xf0, 0x6b, 0xf3, 0x3f, 0xf6, 0xcf, 0x5a, 0xd2, 0x7f, 0x51, 0x1b, 0xfe, 0x95,
}

// DefaultStates returns the default chain's four states, oldest first
// (genesis, finalized, justified, head), newly generated: the same values
// on every call, so a test can compare what a Server sent with them. Their
// slots are 0, 13,199,936 (the first of epoch 412498, the head state's
// finalized checkpoint), 13,199,968 (the first of epoch 412499, its
// current justified checkpoint) and 13,200,031 (the last of epoch 412500);
// each fulu state has 16384 validators. The later states refer to the
// earlier ones as a chain's do: the head's finalized and current justified
// checkpoints are the finalized and justified states' blocks (epoch and
// block root), and its block_roots and state_roots hold those blocks' and
// states' roots at their slots; the justified state's current justified
// checkpoint, and its rings, refer to the finalized state the same way.
func DefaultStates() []*beacon.State {
	p := beacon.MainnetPreset()
	genesis := NewState(beacon.Phase0, p, defaultValidators, 100)
	shape(genesis, defaultGenesisSlot)
	genesis.Fork = beacon.Fork{}
	genesis.PreviousJustifiedCheckpoint = beacon.Checkpoint{}
	genesis.CurrentJustifiedCheckpoint = beacon.Checkpoint{}
	genesis.FinalizedCheckpoint = beacon.Checkpoint{}

	finalized := NewState(defaultFork, p, defaultValidators, 101)
	shape(finalized, defaultFinalizedSlot)
	justified := NewState(defaultFork, p, defaultValidators, 102)
	shape(justified, defaultJustifiedSlot)
	head := NewState(defaultFork, p, defaultValidators, 103)
	shape(head, defaultHeadSlot)
	fin := link(finalized, justified, head)
	justified.CurrentJustifiedCheckpoint.Root = fin
	head.PreviousJustifiedCheckpoint.Root = fin
	head.FinalizedCheckpoint.Root = fin
	head.CurrentJustifiedCheckpoint.Root = link(justified, head)
	return []*beacon.State{genesis, finalized, justified, head}
}

// link puts the roots of st, a post-block state, into the rings of the
// later states and returns its block's root: the latest block header with
// its state_root filled in with st's root, as the next slot fills it.
func link(st *beacon.State, later ...*beacon.State) beacon.Root {
	root, err := beacon.HashTreeRoot(st)
	if err != nil {
		panic("beacontest: a default state does not hash: " + err.Error()) // generated states are valid
	}
	h := st.LatestBlockHeader
	h.StateRoot = root
	block, err := beacon.HashTreeRoot(h)
	if err != nil {
		panic("beacontest: a default block header does not hash: " + err.Error())
	}
	i := uint64(st.Slot) % st.Preset.SlotsPerHistoricalRoot
	for _, l := range later {
		l.StateRoots[i] = root
		l.BlockRoots[i] = block
	}
	return block
}

// shape moves a generated state to slot: the header, the fork epoch, the
// checkpoints (current justified one epoch back, previous justified and
// finalized two), the payload timestamp and the chain's genesis values.
func shape(st *beacon.State, slot beacon.Slot) {
	spe := st.Preset.SlotsPerEpoch
	if spe == 0 {
		spe = beacon.MainnetPreset().SlotsPerEpoch
	}
	epoch := beacon.Epoch(uint64(slot) / spe)
	st.Slot = slot
	st.LatestBlockHeader.Slot = slot
	if slot > 0 {
		st.LatestBlockHeader.StateRoot = beacon.Root{} // the post-state of the block at slot
	}
	st.GenesisTime = mainnetGenesisTime
	st.GenesisValidatorsRoot = mainnetGenesisValidatorsRoot
	if st.Version == beacon.Fulu {
		st.Fork.Epoch = mainnetFuluEpoch
	} else {
		st.Fork.Epoch = epoch
	}
	if epoch >= 2 {
		st.CurrentJustifiedCheckpoint.Epoch = epoch - 1
		st.PreviousJustifiedCheckpoint.Epoch = epoch - 2
		st.FinalizedCheckpoint.Epoch = epoch - 2
	}
	if st.Version >= beacon.Bellatrix && st.Version < beacon.Gloas {
		st.LatestExecutionPayloadHeader.Timestamp = st.GenesisTime + uint64(slot)*12
	}
}
