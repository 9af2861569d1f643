package beacon_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
)

// The expected JSON below is written by hand from the beacon API's schema
// (compact, keys in the consensus specs' order, integers as decimal
// strings, bytes as lower-case 0x-hex), with long zero vectors spelled by
// helpers.

var (
	jz32 = `"0x` + strings.Repeat("00", 32) + `"`
	jz48 = `"0x` + strings.Repeat("00", 48) + `"`
)

func jrep(s string, n int) string { return "[" + strings.Repeat(s+",", n-1) + s + "]" }

func jroot(first, last byte) beacon.Root {
	var r beacon.Root
	r[0], r[31] = first, last
	return r
}

// jgoldenPhase0 is a minimal-preset phase0 state with one validator and
// one pending attestation.
func jgoldenPhase0() *beacon.State {
	p := beacon.MinimalPreset()
	s := &beacon.State{Version: beacon.Phase0, Preset: p}
	s.GenesisTime = 1606824023
	s.GenesisValidatorsRoot = jroot(0x4b, 0x95)
	s.Slot = 1234
	s.Fork = beacon.Fork{PreviousVersion: beacon.ForkVersion{0, 0, 0, 0}, CurrentVersion: beacon.ForkVersion{0, 0, 0, 1}, Epoch: 154}
	s.LatestBlockHeader = beacon.BeaconBlockHeader{Slot: 1234, ProposerIndex: 0, BodyRoot: jroot(0xff, 0x01)}
	s.BlockRoots = make([]beacon.Root, 64)
	s.StateRoots = make([]beacon.Root, 64)
	s.HistoricalRoots = []beacon.Root{}
	s.Eth1Data = beacon.Eth1Data{DepositCount: 7}
	s.Eth1DataVotes = []beacon.Eth1Data{}
	s.Eth1DepositIndex = 7
	var pk beacon.BLSPubKey
	pk[0], pk[47] = 0xa1, 0xB2
	s.Validators = []beacon.Validator{{
		PublicKey: pk, WithdrawalCredentials: jroot(0x01, 0xef), EffectiveBalance: 32_000_000_000, Slashed: true,
		ActivationEligibilityEpoch: 0, ActivationEpoch: 1, ExitEpoch: beacon.FarFutureEpoch, WithdrawableEpoch: beacon.FarFutureEpoch,
	}}
	s.Balances = []beacon.Gwei{32_000_000_001}
	s.RandaoMixes = make([]beacon.Root, 64)
	s.Slashings = make([]beacon.Gwei, 64)
	s.Slashings[63] = 5
	s.PreviousEpochAttestations = []beacon.PendingAttestation{{
		AggregationBits: beacon.Bitlist{0x0b}, // bits 1,1,0 and the length bit
		Data:            beacon.AttestationData{Slot: 1233, Index: 2, Source: beacon.Checkpoint{Epoch: 152}, Target: beacon.Checkpoint{Epoch: 153}},
		InclusionDelay:  1, ProposerIndex: 0,
	}}
	s.CurrentEpochAttestations = []beacon.PendingAttestation{}
	s.JustificationBits = 0x0f
	s.PreviousJustifiedCheckpoint = beacon.Checkpoint{Epoch: 152}
	s.CurrentJustifiedCheckpoint = beacon.Checkpoint{Epoch: 153, Root: jroot(0xaa, 0xbb)}
	s.FinalizedCheckpoint = beacon.Checkpoint{Epoch: 151}
	return s
}

var jgoldenPhase0JSON = `{"genesis_time":"1606824023",` +
	`"genesis_validators_root":"0x4b` + strings.Repeat("00", 30) + `95",` +
	`"slot":"1234",` +
	`"fork":{"previous_version":"0x00000000","current_version":"0x00000001","epoch":"154"},` +
	`"latest_block_header":{"slot":"1234","proposer_index":"0","parent_root":` + jz32 + `,"state_root":` + jz32 +
	`,"body_root":"0xff` + strings.Repeat("00", 30) + `01"},` +
	`"block_roots":` + jrep(jz32, 64) + `,` +
	`"state_roots":` + jrep(jz32, 64) + `,` +
	`"historical_roots":[],` +
	`"eth1_data":{"deposit_root":` + jz32 + `,"deposit_count":"7","block_hash":` + jz32 + `},` +
	`"eth1_data_votes":[],` +
	`"eth1_deposit_index":"7",` +
	`"validators":[{"pubkey":"0xa1` + strings.Repeat("00", 46) + `b2","withdrawal_credentials":"0x01` + strings.Repeat("00", 30) + `ef",` +
	`"effective_balance":"32000000000","slashed":true,"activation_eligibility_epoch":"0","activation_epoch":"1",` +
	`"exit_epoch":"18446744073709551615","withdrawable_epoch":"18446744073709551615"}],` +
	`"balances":["32000000001"],` +
	`"randao_mixes":` + jrep(jz32, 64) + `,` +
	`"slashings":[` + strings.Repeat(`"0",`, 63) + `"5"],` +
	`"previous_epoch_attestations":[{"aggregation_bits":"0x0b","data":{"slot":"1233","index":"2","beacon_block_root":` + jz32 +
	`,"source":{"epoch":"152","root":` + jz32 + `},"target":{"epoch":"153","root":` + jz32 + `}},"inclusion_delay":"1","proposer_index":"0"}],` +
	`"current_epoch_attestations":[],` +
	`"justification_bits":"0x0f",` +
	`"previous_justified_checkpoint":{"epoch":"152","root":` + jz32 + `},` +
	`"current_justified_checkpoint":{"epoch":"153","root":"0xaa` + strings.Repeat("00", 30) + `bb"},` +
	`"finalized_checkpoint":{"epoch":"151","root":` + jz32 + `}}`

// jgoldenFulu is a minimal-preset fulu state with one validator and one
// element in every list.
func jgoldenFulu() *beacon.State {
	s := jgoldenPhase0()
	s.Version = beacon.Fulu
	s.Fork = beacon.Fork{PreviousVersion: beacon.ForkVersion{5, 0, 0, 1}, CurrentVersion: beacon.ForkVersion{6, 0, 0, 1}, Epoch: 154}
	s.PreviousEpochAttestations, s.CurrentEpochAttestations = nil, nil
	s.PreviousEpochParticipation = []uint8{7}
	s.CurrentEpochParticipation = []uint8{255}
	s.InactivityScores = []uint64{42}
	s.CurrentSyncCommittee = beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 32)}
	s.NextSyncCommittee = beacon.SyncCommittee{PublicKeys: make([]beacon.BLSPubKey, 32)}
	s.NextSyncCommittee.AggregatePublicKey[47] = 0x10
	h := &s.LatestExecutionPayloadHeader
	h.FeeRecipient[19] = 0xfe
	h.LogsBloom[255] = 0x80
	h.BlockNumber, h.GasLimit, h.GasUsed, h.Timestamp = 21000000, 36000000, 12345, 1606824023+1234*12
	h.ExtraData = []byte("nodeaccess")
	h.BaseFeePerGas.SetUint64(1 << 63)
	h.BaseFeePerGas.Lsh(&h.BaseFeePerGas, 1) // 2^64, beyond uint64
	h.BlobGasUsed, h.ExcessBlobGas = 131072, 0
	s.NextWithdrawalIndex, s.NextWithdrawalValidatorIndex = 99, 0
	s.HistoricalSummaries = []beacon.HistoricalSummary{{BlockSummaryRoot: jroot(1, 2)}}
	s.DepositRequestsStartIndex = 1<<64 - 1
	s.DepositBalanceToConsume, s.ExitBalanceToConsume = 1, 2
	s.EarliestExitEpoch, s.ConsolidationBalanceToConsume, s.EarliestConsolidationEpoch = 3, 4, 5
	s.PendingDeposits = []beacon.PendingDeposit{{Amount: 32_000_000_000, Slot: 1200}}
	s.PendingDeposits[0].Signature[95] = 0x0c
	s.PendingPartialWithdrawals = []beacon.PendingPartialWithdrawal{{ValidatorIndex: 0, Amount: 1_000_000_000, WithdrawableEpoch: 170}}
	s.PendingConsolidations = []beacon.PendingConsolidation{{SourceIndex: 0, TargetIndex: 0}}
	s.ProposerLookahead = make([]beacon.ValidatorIndex, 16)
	return s
}

func jgoldenFuluJSON() string {
	g := jgoldenPhase0JSON
	g = strings.Replace(g, `"previous_version":"0x00000000","current_version":"0x00000001"`, `"previous_version":"0x05000001","current_version":"0x06000001"`, 1)
	i := strings.Index(g, `"previous_epoch_attestations"`)
	j := strings.Index(g, `"justification_bits"`)
	g = g[:i] + `"previous_epoch_participation":["7"],"current_epoch_participation":["255"],` + g[j:]
	g = strings.TrimSuffix(g, "}") + `,` +
		`"inactivity_scores":["42"],` +
		`"current_sync_committee":{"pubkeys":` + jrep(jz48, 32) + `,"aggregate_pubkey":` + jz48 + `},` +
		`"next_sync_committee":{"pubkeys":` + jrep(jz48, 32) + `,"aggregate_pubkey":"0x` + strings.Repeat("00", 47) + `10"},` +
		`"latest_execution_payload_header":{"parent_hash":` + jz32 + `,"fee_recipient":"0x` + strings.Repeat("00", 19) + `fe",` +
		`"state_root":` + jz32 + `,"receipts_root":` + jz32 + `,"logs_bloom":"0x` + strings.Repeat("00", 255) + `80",` +
		`"prev_randao":` + jz32 + `,"block_number":"21000000","gas_limit":"36000000","gas_used":"12345","timestamp":"1606838831",` +
		`"extra_data":"0x6e6f6465616363657373","base_fee_per_gas":"18446744073709551616","block_hash":` + jz32 + `,` +
		`"transactions_root":` + jz32 + `,"withdrawals_root":` + jz32 + `,"blob_gas_used":"131072","excess_blob_gas":"0"},` +
		`"next_withdrawal_index":"99","next_withdrawal_validator_index":"0",` +
		`"historical_summaries":[{"block_summary_root":"0x01` + strings.Repeat("00", 30) + `02","state_summary_root":` + jz32 + `}],` +
		`"deposit_requests_start_index":"18446744073709551615","deposit_balance_to_consume":"1","exit_balance_to_consume":"2",` +
		`"earliest_exit_epoch":"3","consolidation_balance_to_consume":"4","earliest_consolidation_epoch":"5",` +
		`"pending_deposits":[{"pubkey":` + jz48 + `,"withdrawal_credentials":` + jz32 + `,"amount":"32000000000",` +
		`"signature":"0x` + strings.Repeat("00", 95) + `0c","slot":"1200"}],` +
		`"pending_partial_withdrawals":[{"validator_index":"0","amount":"1000000000","withdrawable_epoch":"170"}],` +
		`"pending_consolidations":[{"source_index":"0","target_index":"0"}],` +
		`"proposer_lookahead":` + jrep(`"0"`, 16) + `}`
	return g
}

func TestJSONGolden(t *testing.T) {
	for _, c := range []struct {
		name  string
		state *beacon.State
		want  string
	}{
		{"phase0", jgoldenPhase0(), jgoldenPhase0JSON},
		{"fulu", jgoldenFulu(), jgoldenFuluJSON()},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := string(jsonEncodeJSON(t, c.state))
			if got != c.want {
				i := 0
				for i < len(got) && i < len(c.want) && got[i] == c.want[i] {
					i++
				}
				t.Fatalf("EncodeJSON differs at byte %d:\n got …%.120s\nwant …%.120s", i, got[max(0, i-40):], c.want[max(0, i-40):])
			}
			resp := string(jsonEncodeResponse(t, c.state, beacon.Flags{ExecutionOptimistic: true}))
			wantResp := `{"version":"` + c.name + `","execution_optimistic":true,"finalized":false,"data":` + c.want + `}`
			if resp != wantResp {
				t.Fatalf("EncodeJSONResponse = %.200s…", resp)
			}
			// And back: decoded from the hand-written text, re-encoded to it.
			s, flags, err := decodeJSON(strings.NewReader(wantResp), jsonMinimal)
			if err != nil {
				t.Fatal(err)
			}
			if *flags != (beacon.Flags{ExecutionOptimistic: true}) {
				t.Fatalf("flags = %+v", *flags)
			}
			if s.Validators[0].PublicKey[47] != 0xb2 || s.Slot != 1234 || s.Slashings[63] != 5 || s.JustificationBits != 0x0f {
				t.Fatalf("decoded values: %x %d %d %x", s.Validators[0].PublicKey[47], s.Slot, s.Slashings[63], s.JustificationBits)
			}
			if again := jsonEncodeJSON(t, s); !bytes.Equal(again, []byte(c.want)) {
				t.Fatalf("decode → encode changed the bytes")
			}
		})
	}
}
