package beacon

import "fmt"

// Preset holds the consensus-specs preset values that shape a BeaconState:
// the lengths of its vectors and the limits of its lists. They change the
// SSZ layout and the hash tree root, so a state must be decoded, encoded and
// hashed with the preset of the chain it came from. Mainnet, Sepolia, Holesky
// and Hoodi use the mainnet preset; devnets and the consensus-specs test
// vectors often use the minimal one.
//
// Build one with MainnetPreset or MinimalPreset; a custom preset is checked
// when it is first used (WithPreset, ReadState, WriteState, HashTreeRoot):
// a zero length, or a limit that does not fit the SSZ layout, is an error
// naming it. The zero Preset means MainnetPreset in State.Preset,
// WithPreset, ReadOptions and OpenState; in StateOptions and
// DownloadOptions it means the client's preset.
type Preset struct {
	// Name is "mainnet", "minimal", or a custom name.
	Name string

	SlotsPerEpoch                  uint64 // SLOTS_PER_EPOCH
	MinSeedLookahead               uint64 // MIN_SEED_LOOKAHEAD
	EpochsPerEth1VotingPeriod      uint64 // EPOCHS_PER_ETH1_VOTING_PERIOD
	SlotsPerHistoricalRoot         uint64 // SLOTS_PER_HISTORICAL_ROOT
	EpochsPerHistoricalVector      uint64 // EPOCHS_PER_HISTORICAL_VECTOR
	EpochsPerSlashingsVector       uint64 // EPOCHS_PER_SLASHINGS_VECTOR
	HistoricalRootsLimit           uint64 // HISTORICAL_ROOTS_LIMIT
	ValidatorRegistryLimit         uint64 // VALIDATOR_REGISTRY_LIMIT
	MaxAttestations                uint64 // MAX_ATTESTATIONS (phase0)
	MaxValidatorsPerCommittee      uint64 // MAX_VALIDATORS_PER_COMMITTEE
	SyncCommitteeSize              uint64 // SYNC_COMMITTEE_SIZE (altair)
	MaxExtraDataBytes              uint64 // MAX_EXTRA_DATA_BYTES (bellatrix)
	PendingDepositsLimit           uint64 // PENDING_DEPOSITS_LIMIT (electra)
	PendingPartialWithdrawalsLimit uint64 // PENDING_PARTIAL_WITHDRAWALS_LIMIT (electra)
	PendingConsolidationsLimit     uint64 // PENDING_CONSOLIDATIONS_LIMIT (electra)

	// The Gloas values: a custom preset may leave them zero when it
	// describes no Gloas state (a Gloas state with one of them zero is
	// refused).

	MaxWithdrawalsPerPayload   uint64 // MAX_WITHDRAWALS_PER_PAYLOAD (capella; bounds gloas's payload_expected_withdrawals)
	MaxBlobCommitmentsPerBlock uint64 // MAX_BLOB_COMMITMENTS_PER_BLOCK (deneb; bounds the gloas bid's blob_kzg_commitments)
	PTCSize                    uint64 // PTC_SIZE (gloas)
}

// MainnetPreset returns the consensus-specs mainnet preset.
func MainnetPreset() Preset {
	return Preset{
		Name:                           "mainnet",
		SlotsPerEpoch:                  32,
		MinSeedLookahead:               1,
		EpochsPerEth1VotingPeriod:      64,
		SlotsPerHistoricalRoot:         8192,
		EpochsPerHistoricalVector:      65536,
		EpochsPerSlashingsVector:       8192,
		HistoricalRootsLimit:           1 << 24,
		ValidatorRegistryLimit:         1 << 40,
		MaxAttestations:                128,
		MaxValidatorsPerCommittee:      2048,
		SyncCommitteeSize:              512,
		MaxExtraDataBytes:              32,
		PendingDepositsLimit:           1 << 27,
		PendingPartialWithdrawalsLimit: 1 << 27,
		PendingConsolidationsLimit:     1 << 18,
		MaxWithdrawalsPerPayload:       16,
		MaxBlobCommitmentsPerBlock:     4096,
		PTCSize:                        512,
	}
}

// MinimalPreset returns the consensus-specs minimal preset.
func MinimalPreset() Preset {
	return Preset{
		Name:                           "minimal",
		SlotsPerEpoch:                  8,
		MinSeedLookahead:               1,
		EpochsPerEth1VotingPeriod:      4,
		SlotsPerHistoricalRoot:         64,
		EpochsPerHistoricalVector:      64,
		EpochsPerSlashingsVector:       64,
		HistoricalRootsLimit:           1 << 24,
		ValidatorRegistryLimit:         1 << 40,
		MaxAttestations:                128,
		MaxValidatorsPerCommittee:      2048,
		SyncCommitteeSize:              32,
		MaxExtraDataBytes:              32,
		PendingDepositsLimit:           1 << 27,
		PendingPartialWithdrawalsLimit: 64,
		PendingConsolidationsLimit:     64,
		MaxWithdrawalsPerPayload:       4,
		MaxBlobCommitmentsPerBlock:     4096,
		PTCSize:                        16,
	}
}

// eth1DataVotesLimit is the limit of the eth1_data_votes list:
// EPOCHS_PER_ETH1_VOTING_PERIOD * SLOTS_PER_EPOCH.
func (p Preset) eth1DataVotesLimit() uint64 { return p.EpochsPerEth1VotingPeriod * p.SlotsPerEpoch }

// epochAttestationsLimit is the limit of phase0's previous and current
// epoch attestation lists: MAX_ATTESTATIONS * SLOTS_PER_EPOCH.
func (p Preset) epochAttestationsLimit() uint64 { return p.MaxAttestations * p.SlotsPerEpoch }

// proposerLookaheadLength is the length of fulu's proposer_lookahead vector:
// (MIN_SEED_LOOKAHEAD + 1) * SLOTS_PER_EPOCH.
func (p Preset) proposerLookaheadLength() uint64 { return (p.MinSeedLookahead + 1) * p.SlotsPerEpoch }

// validate reports a preset that cannot describe a state: a zero length, or
// a vector or limit too large to address.
func (p Preset) validate() error {
	checks := []struct {
		name string
		v    uint64
		max  uint64
	}{
		{"SlotsPerEpoch", p.SlotsPerEpoch, 1 << 16},
		{"EpochsPerEth1VotingPeriod", p.EpochsPerEth1VotingPeriod, 1 << 16},
		{"SlotsPerHistoricalRoot", p.SlotsPerHistoricalRoot, 1 << 24},
		{"EpochsPerHistoricalVector", p.EpochsPerHistoricalVector, 1 << 24},
		{"EpochsPerSlashingsVector", p.EpochsPerSlashingsVector, 1 << 24},
		{"HistoricalRootsLimit", p.HistoricalRootsLimit, 1 << 40},
		{"ValidatorRegistryLimit", p.ValidatorRegistryLimit, 1 << 40},
		{"MaxAttestations", p.MaxAttestations, 1 << 16},
		{"MaxValidatorsPerCommittee", p.MaxValidatorsPerCommittee, 1 << 24},
		{"SyncCommitteeSize", p.SyncCommitteeSize, 1 << 16},
		{"MaxExtraDataBytes", p.MaxExtraDataBytes, 1 << 16},
		{"PendingDepositsLimit", p.PendingDepositsLimit, 1 << 40},
		{"PendingPartialWithdrawalsLimit", p.PendingPartialWithdrawalsLimit, 1 << 40},
		{"PendingConsolidationsLimit", p.PendingConsolidationsLimit, 1 << 40},
	}
	for _, c := range checks {
		if c.v == 0 || c.v > c.max {
			return fmt.Errorf("beacon: preset %q: %s = %d is out of range (1..%d)", p.Name, c.name, c.v, c.max)
		}
	}
	for _, c := range []struct {
		name string
		v    uint64
		max  uint64
	}{
		{"MaxWithdrawalsPerPayload", p.MaxWithdrawalsPerPayload, 1 << 16},
		{"MaxBlobCommitmentsPerBlock", p.MaxBlobCommitmentsPerBlock, 1 << 20},
		{"PTCSize", p.PTCSize, 1 << 16},
	} {
		if c.v > c.max {
			return fmt.Errorf("beacon: preset %q: %s = %d is out of range (0..%d)", p.Name, c.name, c.v, c.max)
		}
	}
	if p.MinSeedLookahead > 1<<8 {
		return fmt.Errorf("beacon: preset %q: MinSeedLookahead = %d is out of range (0..256)", p.Name, p.MinSeedLookahead)
	}
	return nil
}
