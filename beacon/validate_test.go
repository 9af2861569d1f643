package beacon_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// tinyPreset is the minimal preset with list limits small enough that a
// test can build a list one over each of them.
func tinyPreset() beacon.Preset {
	p := beacon.MinimalPreset()
	p.Name = "tiny"
	p.HistoricalRootsLimit = 32
	p.ValidatorRegistryLimit = 16
	p.PendingDepositsLimit = 33
	p.PendingPartialWithdrawalsLimit = 17
	p.PendingConsolidationsLimit = 17
	p.MaxAttestations = 2 // epoch attestations: 2 * 8
	return p
}

// jsonName is the consensus specs' name of a State field
// (PreviousEpochParticipation: previous_epoch_participation); a run of
// capitals is one word (PTCWindow: ptc_window).
func jsonName(goName string) string {
	var b strings.Builder
	rs := []rune(goName)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			// A capital starts a word after a lower-case letter, or
			// when it ends a run of capitals ("PTC|Window").
			if i > 0 && (!unicode.IsUpper(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestJSONNameOfEveryStateField checks jsonName against EncodeJSON: the
// name of every State field (but Version and Preset) is a member of some
// fork's state object, so the tests that find fields by it find them all.
func TestJSONNameOfEveryStateField(t *testing.T) {
	all := map[string]bool{}
	for _, v := range allForks() {
		for k := range forkFields(t, v) {
			all[k] = true
		}
	}
	st := reflect.TypeFor[beacon.State]()
	for i := range st.NumField() {
		if n := st.Field(i).Name; n != "Version" && n != "Preset" && !all[jsonName(n)] {
			t.Errorf("State.%s: %q is no fork's JSON member", n, jsonName(n))
		}
	}
}

// forkFields returns the names of the members of v's state object, as
// EncodeJSON writes them.
func forkFields(t *testing.T, v beacon.Version) map[string]bool {
	t.Helper()
	var b bytes.Buffer
	if err := encodeJSONData(&b, beacontest.NewState(v, tinyPreset(), 3, 1)); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// mutation makes a valid state invalid; field is the name the error must
// contain.
type mutation struct {
	name, field string
	apply       func(*beacon.State)
}

// resize sets the slice at ptr (a pointer to a slice field) to n
// elements, copies of its first (or zero values when it has none).
func resize(ptr any, n int) {
	s := reflect.ValueOf(ptr).Elem()
	out := reflect.MakeSlice(s.Type(), n, n)
	for i := range n {
		if s.Len() > 0 {
			out.Index(i).Set(s.Index(i % s.Len()))
		}
	}
	s.Set(out)
}

// invalidMutations lists, for a state of fork v with preset p, every way
// this test knows to break a rule the encoders and HashTreeRoot depend on:
// each vector one too long, one too short and nil; each list one over its
// limit; each bitfield with a bit beyond its length; the extra data over
// its limit; every field of another fork set, top-level and in the
// execution payload header; an unknown version and a broken preset.
func invalidMutations(t *testing.T, v beacon.Version, p beacon.Preset) []mutation {
	has := forkFields(t, v)
	var ms []mutation
	vector := func(name string, n uint64, ptr func(*beacon.State) any) {
		for _, d := range []int{-1, 1} {
			ms = append(ms, mutation{name + " length off by one", name, func(s *beacon.State) { resize(ptr(s), int(n)+d) }})
		}
		ms = append(ms, mutation{name + " nil", name, func(s *beacon.State) { reflect.ValueOf(ptr(s)).Elem().SetZero() }})
	}
	list := func(name string, limit uint64, ptr func(*beacon.State) any) {
		ms = append(ms, mutation{name + " over its limit", name, func(s *beacon.State) { resize(ptr(s), int(limit)+1) }})
	}
	vector("block_roots", p.SlotsPerHistoricalRoot, func(s *beacon.State) any { return &s.BlockRoots })
	vector("state_roots", p.SlotsPerHistoricalRoot, func(s *beacon.State) any { return &s.StateRoots })
	vector("randao_mixes", p.EpochsPerHistoricalVector, func(s *beacon.State) any { return &s.RandaoMixes })
	vector("slashings", p.EpochsPerSlashingsVector, func(s *beacon.State) any { return &s.Slashings })
	list("historical_roots", p.HistoricalRootsLimit, func(s *beacon.State) any { return &s.HistoricalRoots })
	list("eth1_data_votes", p.EpochsPerEth1VotingPeriod*p.SlotsPerEpoch, func(s *beacon.State) any { return &s.Eth1DataVotes })
	list("validators", p.ValidatorRegistryLimit, func(s *beacon.State) any { return &s.Validators })
	list("balances", p.ValidatorRegistryLimit, func(s *beacon.State) any { return &s.Balances })
	for _, j := range []uint8{0x10, 0x20, 0x80, 0xff} {
		ms = append(ms, mutation{"justification_bits beyond 4", "justification_bits", func(s *beacon.State) { s.JustificationBits = j }})
	}
	if v == beacon.Phase0 {
		list("previous_epoch_attestations", p.MaxAttestations*p.SlotsPerEpoch, func(s *beacon.State) any { return &s.PreviousEpochAttestations })
		list("current_epoch_attestations", p.MaxAttestations*p.SlotsPerEpoch, func(s *beacon.State) any { return &s.CurrentEpochAttestations })
		over := make(beacon.Bitlist, p.MaxValidatorsPerCommittee/8+1)
		over[len(over)-1] = 1 << (p.MaxValidatorsPerCommittee%8 + 1)
		for name, bl := range map[string]beacon.Bitlist{"empty": {}, "nil": nil, "no length bit": {0xff, 0}, "over the limit": over} {
			ms = append(ms, mutation{"aggregation_bits " + name, "previous_epoch_attestations: [0].aggregation_bits", func(s *beacon.State) {
				s.PreviousEpochAttestations[0].AggregationBits = bl
			}})
		}
	} else {
		list("previous_epoch_participation", p.ValidatorRegistryLimit, func(s *beacon.State) any { return &s.PreviousEpochParticipation })
		list("current_epoch_participation", p.ValidatorRegistryLimit, func(s *beacon.State) any { return &s.CurrentEpochParticipation })
		list("inactivity_scores", p.ValidatorRegistryLimit, func(s *beacon.State) any { return &s.InactivityScores })
		vector("current_sync_committee", p.SyncCommitteeSize, func(s *beacon.State) any { return &s.CurrentSyncCommittee.PublicKeys })
		vector("next_sync_committee", p.SyncCommitteeSize, func(s *beacon.State) any { return &s.NextSyncCommittee.PublicKeys })
	}
	if has["latest_execution_payload_header"] {
		ms = append(ms, mutation{"extra_data over its limit", "extra_data", func(s *beacon.State) {
			s.LatestExecutionPayloadHeader.ExtraData = make([]byte, p.MaxExtraDataBytes+1)
		}})
	}
	if v >= beacon.Capella {
		list("historical_summaries", p.HistoricalRootsLimit, func(s *beacon.State) any { return &s.HistoricalSummaries })
	}
	if v >= beacon.Electra {
		list("pending_deposits", p.PendingDepositsLimit, func(s *beacon.State) any { return &s.PendingDeposits })
		list("pending_partial_withdrawals", p.PendingPartialWithdrawalsLimit, func(s *beacon.State) any { return &s.PendingPartialWithdrawals })
		list("pending_consolidations", p.PendingConsolidationsLimit, func(s *beacon.State) any { return &s.PendingConsolidations })
	}
	if v >= beacon.Fulu {
		vector("proposer_lookahead", (p.MinSeedLookahead+1)*p.SlotsPerEpoch, func(s *beacon.State) any { return &s.ProposerLookahead })
	}
	if v >= beacon.Gloas {
		vector("execution_payload_availability", p.SlotsPerHistoricalRoot/8, func(s *beacon.State) any { return &s.ExecutionPayloadAvailability })
		vector("builder_pending_payments", 2*p.SlotsPerEpoch, func(s *beacon.State) any { return &s.BuilderPendingPayments })
		vector("ptc_window", (2+p.MinSeedLookahead)*p.SlotsPerEpoch, func(s *beacon.State) any { return &s.PTCWindow })
		list("builders", p.ValidatorRegistryLimit, func(s *beacon.State) any { return &s.Builders })
		list("builder_pending_withdrawals", p.ValidatorRegistryLimit, func(s *beacon.State) any { return &s.BuilderPendingWithdrawals })
		list("payload_expected_withdrawals", p.MaxWithdrawalsPerPayload, func(s *beacon.State) any { return &s.PayloadExpectedWithdrawals })
		list("latest_execution_payload_bid", p.MaxBlobCommitmentsPerBlock, func(s *beacon.State) any { return &s.LatestExecutionPayloadBid.BlobKZGCommitments })
		ms = append(ms,
			mutation{"execution_payload_availability bit beyond its length", "execution_payload_availability", func(s *beacon.State) {
				s.ExecutionPayloadAvailability = make([]byte, (p.SlotsPerHistoricalRoot+7)/8+1)
			}},
			mutation{"ptc_window element one index short", "ptc_window", func(s *beacon.State) { s.PTCWindow[1] = s.PTCWindow[1][1:] }},
		)
	}
	// Every field of another fork, copied from the oldest fork's state
	// that has it.
	st := reflect.TypeFor[beacon.State]()
	for i := range st.NumField() {
		f := st.Field(i)
		name := jsonName(f.Name)
		if f.Name == "Version" || f.Name == "Preset" || has[name] {
			continue
		}
		var from *beacon.State
		for _, w := range allForks() {
			if forkFields(t, w)[name] {
				from = beacontest.NewState(w, p, 3, 5)
				break
			}
		}
		if from == nil {
			t.Fatalf("State.%s (%s) is no fork's field", f.Name, name)
		}
		ms = append(ms, mutation{name + " of another fork", name, func(s *beacon.State) {
			f := reflect.ValueOf(s).Elem().Field(i)
			f.Set(reflect.ValueOf(from).Elem().Field(i))
			if f.Kind() == reflect.Uint64 && f.Uint() == 0 {
				f.SetUint(1) // a zero is "not set"
			}
		}})
	}
	if v >= beacon.Bellatrix && v < beacon.Capella {
		ms = append(ms, mutation{"withdrawals_root in a " + v.String() + " header", "withdrawals_root", func(s *beacon.State) {
			s.LatestExecutionPayloadHeader.WithdrawalsRoot = beacon.Root{1}
		}})
	}
	if v >= beacon.Bellatrix && v < beacon.Deneb {
		ms = append(ms,
			mutation{"blob_gas_used in a " + v.String() + " header", "blob_gas_used", func(s *beacon.State) { s.LatestExecutionPayloadHeader.BlobGasUsed = 1 }},
			mutation{"excess_blob_gas in a " + v.String() + " header", "excess_blob_gas", func(s *beacon.State) { s.LatestExecutionPayloadHeader.ExcessBlobGas = 1 }})
	}
	ms = append(ms,
		mutation{"unknown version", "Version(99)", func(s *beacon.State) { s.Version = 99 }},
		mutation{"broken preset", "SlotsPerEpoch", func(s *beacon.State) { s.Preset.SlotsPerEpoch = 0 }},
	)
	return ms
}

// encodeAll runs every encoder and HashTreeRoot on s and returns their
// errors by name.
func encodeAll(s *beacon.State) map[string]error {
	errs := map[string]error{}
	errs["EncodeSSZ"] = beacon.WriteState(io.Discard, s, beacon.EncodingSSZ, nil)
	_, errs["MarshalSSZ"] = marshalSSZ(s)
	_, errs["SizeSSZ"] = sizeSSZ(s)
	errs["EncodeJSON"] = encodeJSONData(io.Discard, s)
	errs["EncodeJSONResponse"] = beacon.WriteState(io.Discard, s, beacon.EncodingJSON, &beacon.Flags{})
	_, errs["HashTreeRoot"] = beacon.HashTreeRoot(s)
	return errs
}

// checkValidateAgrees checks the promise of Validate on s: when it passes,
// every encoder and HashTreeRoot succeeds; when it fails, each of them
// fails with its error.
func checkValidateAgrees(t *testing.T, what string, s *beacon.State) error {
	t.Helper()
	verr := validateState(s)
	for name, err := range encodeAll(s) {
		switch {
		case verr == nil && err != nil:
			t.Fatalf("%s: Validate passed, %s failed: %v", what, name, err)
		case verr != nil && err == nil:
			t.Fatalf("%s: Validate failed (%v), %s succeeded", what, verr, name)
		case verr != nil && !strings.Contains(err.Error(), verr.Error()):
			t.Fatalf("%s: Validate failed with %q, %s with %q", what, verr, name, err)
		}
	}
	return verr
}

// TestValidateRefusesWhatEncodersRefuse breaks every rule of every fork's
// state, one at a time: Validate refuses each with an error naming the
// field, and the encoders and HashTreeRoot refuse it with that error.
func TestValidateRefusesWhatEncodersRefuse(t *testing.T) {
	p := tinyPreset()
	for _, v := range allForks() {
		t.Run(v.String(), func(t *testing.T) {
			if err := checkValidateAgrees(t, "the valid state", beacontest.NewState(v, p, 3, 5)); err != nil {
				t.Fatalf("the generated state is invalid: %v", err)
			}
			for _, m := range invalidMutations(t, v, p) {
				s := beacontest.NewState(v, p, 3, 5)
				m.apply(s)
				err := checkValidateAgrees(t, m.name, s)
				if err == nil {
					t.Fatalf("%s: Validate passed", m.name)
				}
				if !strings.Contains(err.Error(), m.field) {
					t.Errorf("%s: %q does not name %s", m.name, err, m.field)
				}
			}
		})
	}
}

// TestValidateAgreesOnRandomStates applies random sets of mutations,
// invalid ones and valid ones (lists shortened or emptied or nil, values
// changed), to every fork's state: whatever comes out, Validate passes
// exactly when every encoder and HashTreeRoot succeeds.
func TestValidateAgreesOnRandomStates(t *testing.T) {
	p := tinyPreset()
	rng := rand.New(rand.NewPCG(11, 8))
	for _, v := range allForks() {
		invalid := invalidMutations(t, v, p)
		valid := []func(*beacon.State){
			func(s *beacon.State) { s.HistoricalRoots = nil },
			func(s *beacon.State) { s.Validators, s.Balances = s.Validators[:1], s.Balances[:0] },
			func(s *beacon.State) { s.Eth1DataVotes = s.Eth1DataVotes[:0] },
			func(s *beacon.State) { s.JustificationBits = 0x0f },
			func(s *beacon.State) { s.Slot++ },
			func(s *beacon.State) { s.Preset = beacon.Preset{} }, // mainnet: the vectors no longer fit
		}
		if v == beacon.Phase0 {
			valid = append(valid, func(s *beacon.State) { s.CurrentEpochAttestations = nil })
		} else {
			valid = append(valid, func(s *beacon.State) { s.InactivityScores = nil })
		}
		if v >= beacon.Bellatrix {
			valid = append(valid, func(s *beacon.State) { s.LatestExecutionPayloadHeader.ExtraData = nil })
		}
		for range 60 {
			s := beacontest.NewState(v, p, 3, rng.Uint64())
			for range rng.IntN(3) {
				invalid[rng.IntN(len(invalid))].apply(s)
			}
			for range rng.IntN(4) {
				valid[rng.IntN(len(valid))](s)
			}
			checkValidateAgrees(t, "random "+v.String()+" state", s)
		}
	}
}
