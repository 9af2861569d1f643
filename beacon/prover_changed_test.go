package beacon_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/stretchr/testify/require"
)

// No exported method of a Prover panics, whatever its arguments and
// whatever became of its state after NewProver (issue 20, point 6: a
// version changed to an older fork made GIndexOf index past its field
// list). The tests drive every exported method (proverProbes; a method
// added without a probe fails TestProverProbesCoverMethods) with
// adversarial arguments, over every fork, after every change of the state
// that stateChanges can make: each other version, another preset, each
// list, vector and byte list grown, shrunk and cleared (the fork's fields,
// the fields of other forks, the lists inside its containers and inside
// their first elements), the latest block header rewritten.
//
// A change of what NewProver prepared (the version, the preset, the length
// of a list or vector of the fork's schema) makes every method but
// StateRoot fail with a *nodeaccess.InputError that says so. Any other
// change (a field of another fork, the contents of an element) leaves the
// Prover proving the state it prepared: every proof it returns verifies
// against StateRoot (or BlockRoot), and neither root moves.

// probeResult is what one probe got: the proof a method returned, if any,
// and its error.
type probeResult struct {
	proof   *beacon.Proof
	toBlock bool // the proof is against the block root, not the state root
	err     error
}

// proverProbe is one call of an exported method of *Prover.
type proverProbe struct {
	method, args string
	call         func(p *beacon.Prover) probeResult
}

func proofResult(pr beacon.Proof, err error) probeResult {
	if err != nil {
		return probeResult{err: err}
	}
	return probeResult{proof: &pr}
}

func gindexResult(_ beacon.GIndex, err error) probeResult { return probeResult{err: err} }

// probeArgs are the arguments the probes pass: adversarial ones and ones
// taken from the state as it was prepared.
type probeArgs struct {
	validators uint64          // the registry's length when prepared
	indices    []uint64        // validator indices beside those around it
	names      []string        // field names: of every fork, and none
	paths      [][]any         // GIndexOf paths
	gindices   []beacon.GIndex // for Prove
	proofs     []beacon.Proof  // for ToBlockRoot
	slots      []beacon.Slot   // for ProveBlockRoot and ProveStateRoot, beside fixed ones
	past       []beacon.Root   // a HistoricalBatch vector of the preset's length
}

// proverProbes returns the probes of every exported method of *Prover but
// StateRoot (which has no error to return; checkChanged checks it).
func proverProbes(a probeArgs) []proverProbe {
	var probes []proverProbe
	add := func(method, args string, call func(p *beacon.Prover) probeResult) {
		probes = append(probes, proverProbe{method: method, args: args, call: call})
	}
	n := a.validators
	idx := append([]uint64{0, n / 2, n, n + 1, 1 << 38, 1 << 63, math.MaxUint64}, a.indices...)
	if n > 0 {
		idx = append(idx, n-1)
	}
	for _, g := range a.gindices {
		add("Prove", fmt.Sprint(uint64(g)), func(p *beacon.Prover) probeResult { return proofResult(p.Prove(g)) })
	}
	for _, name := range a.names {
		add("GIndexOf", name, func(p *beacon.Prover) probeResult { return gindexResult(fieldGIndex(p, name)) })
		add("Prove", name, func(p *beacon.Prover) probeResult { return proofResult(proveField(p, name)) })
	}
	add("Prove", "latest_block_header", func(p *beacon.Prover) probeResult { return proofResult(proveLatestBlockHeader(p)) })
	for _, path := range a.paths {
		add("GIndexOf", fmt.Sprint(path), func(p *beacon.Prover) probeResult { return gindexResult(p.GIndexOf(path...)) })
	}
	for _, i := range idx {
		vi := beacon.ValidatorIndex(i)
		add("GIndexOf", fmt.Sprint("validators ", i), func(p *beacon.Prover) probeResult { return gindexResult(validatorGIndex(p, vi)) })
		add("Prove", fmt.Sprint("validators ", i), func(p *beacon.Prover) probeResult { return proofResult(proveValidator(p, vi)) })
		add("GIndexOf", fmt.Sprint("balances ", i), func(p *beacon.Prover) probeResult { return gindexResult(balanceGIndex(p, vi)) })
		add("Prove", fmt.Sprint("balances ", i), func(p *beacon.Prover) probeResult {
			bp, err := proveBalance(p, vi)
			return proofResult(bp, err)
		})
		add("ProveBalance", fmt.Sprint(i), func(p *beacon.Prover) probeResult {
			bp, _, err := p.ProveBalance(vi)
			return proofResult(bp, err)
		})
		for _, f := range []string{"", "pubkey", "withdrawable_epoch", "nope", "__len__"} {
			add("Prove", fmt.Sprint("validators ", i, " ", f), func(p *beacon.Prover) probeResult { return proofResult(proveValidatorField(p, vi, f)) })
		}
	}
	add("BlockRoot", "", func(p *beacon.Prover) probeResult {
		_, err := p.BlockRoot()
		return probeResult{err: err}
	})
	pasts := []*beacon.HistoricalBatch{nil, {}, {BlockRoots: a.past, StateRoots: a.past}, {BlockRoots: a.past[:len(a.past)/2]}}
	for _, slot := range append([]beacon.Slot{0, 1, 1 << 40, math.MaxUint64}, a.slots...) {
		for k, past := range pasts {
			add("ProveBlockRoot", fmt.Sprint(slot, " past ", k), func(p *beacon.Prover) probeResult { return proofResult(p.ProveBlockRoot(slot, past)) })
			add("ProveStateRoot", fmt.Sprint(slot, " past ", k), func(p *beacon.Prover) probeResult { return proofResult(p.ProveStateRoot(slot, past)) })
		}
	}
	for k, pr := range a.proofs {
		add("ToBlockRoot", fmt.Sprint("proof ", k, " ", pr.GIndex, " of ", len(pr.Branch)), func(p *beacon.Prover) probeResult {
			r := proofResult(p.ToBlockRoot(pr))
			r.toBlock = true
			return r
		})
	}
	return probes
}

// TestProverProbesCoverMethods: the probes call every exported method of
// *Prover (StateRoot, which returns no error, is checked apart).
func TestProverProbesCoverMethods(t *testing.T) {
	probes := proverProbes(probeArgs{past: make([]beacon.Root, 64), names: []string{"slot"}, paths: [][]any{{"slot"}}, gindices: []beacon.GIndex{1}, proofs: []beacon.Proof{{}}})
	have := map[string]bool{"StateRoot": true}
	for _, pr := range probes {
		have[pr.method] = true
	}
	typ := reflect.TypeFor[*beacon.Prover]()
	for i := range typ.NumMethod() {
		m := typ.Method(i).Name
		require.True(t, have[m], "no probe calls Prover.%s", m)
		delete(have, m)
	}
	require.Empty(t, have, "probes of methods that do not exist")
}

// allFieldNames returns the state's top-level field names of every fork.
func allFieldNames(t testing.TB) []string {
	seen := map[string]bool{}
	for _, v := range allForks() {
		for name := range stateMembers(t, beacontest.NewState(v, beacon.MinimalPreset(), 1, 1)) {
			seen[name] = true
		}
	}
	names := []string{"", "__len__", "Validators", strings.Repeat("x", 300)}
	for name := range seen {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// makeProbeArgs returns the probes' arguments for p, a Prover of a state
// of n validators that has not changed: the GIndexOf paths below every
// field name, and the gindices and proofs of the ones that exist (so that
// Prove reaches into every field, every list's first element and a chunk
// of it), beside adversarial ones.
func makeProbeArgs(t testing.TB, p *beacon.Prover, n uint64, names []string) probeArgs {
	t.Helper()
	a := probeArgs{validators: n, names: names, past: make([]beacon.Root, 64)} // SLOTS_PER_HISTORICAL_ROOT of the minimal preset
	suffixes := [][]any{nil, {0}, {"__len__"}, {0, 0}, {0, "pubkey"}, {"pubkeys", 0}, {"blob_kzg_commitments", 0, 1},
		{0, "aggregation_bits", 0}, {int(n), "exit_epoch"}, {-1}, {uint64(math.MaxUint64)}, {0, 0, 0, 0}, {1.5}, {nil}}
	a.paths = [][]any{{}, {nil}, {0}, {"validators", n, "pubkey", 1}, {"validators", 0, "pubkey", 0, 0}}
	for _, name := range names {
		for _, s := range suffixes {
			a.paths = append(a.paths, append([]any{name}, s...))
		}
	}
	a.gindices = []beacon.GIndex{0, 1, 2, 3, 4, 5, 1 << 62, 1 << 63, math.MaxUint64}
	for _, path := range a.paths {
		if g, err := p.GIndexOf(path...); err == nil {
			a.gindices = append(a.gindices, g, g*2, g*2+1)
		}
	}
	pr, err := proveValidatorField(p, 0, "pubkey")
	if err != nil {
		pr, err = proveField(p, "slot")
	}
	require.NoError(t, err)
	short := pr
	short.Branch = pr.Branch[:len(pr.Branch)-1]
	long := pr
	long.Branch = append(slices.Clone(pr.Branch), beacon.Root{})
	zeroG := pr
	zeroG.GIndex = 0
	deep := beacon.Proof{GIndex: 1 << 62, Branch: make([]beacon.Root, 62)}
	a.proofs = []beacon.Proof{pr, {}, short, long, zeroG, deep, {GIndex: math.MaxUint64}}
	at, err := proveField(p, "slot")
	require.NoError(t, err)
	per := beacon.Slot(len(a.past))
	if now := beacon.Slot(binary.LittleEndian.Uint64(at.Leaf[:8])); now > per+1 {
		a.slots = []beacon.Slot{now - 1, now - per, now - per - 1, now, now + 1}
	}
	return a
}

// stateChange is one change of a state after NewProver.
type stateChange struct {
	name string
	// prepared: the change alters what NewProver prepared (the version,
	// the preset, a length of the fork's schema), which the Prover must
	// refuse.
	prepared bool
	apply    func(st *beacon.State)
}

// snake returns a Go field name as the specs spell it: PTCWindow as
// ptc_window, Eth1DataVotes as eth1_data_votes.
func snake(s string) string {
	var b strings.Builder
	r := []rune(s)
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) && (!unicode.IsUpper(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// sliceChanges returns the changes of the slice that at reaches in a state
// (its length l there): one element more, one less, none (nil).
func sliceChanges(name string, l int, prepared bool, at func(st *beacon.State) reflect.Value) []stateChange {
	c := []stateChange{{name: name + " grown", prepared: prepared, apply: func(st *beacon.State) {
		v := at(st)
		v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
	}}}
	if l > 0 {
		c = append(c,
			stateChange{name: name + " shrunk", prepared: prepared, apply: func(st *beacon.State) { v := at(st); v.Set(v.Slice(0, v.Len()-1)) }},
			stateChange{name: name + " cleared", prepared: prepared, apply: func(st *beacon.State) { v := at(st); v.Set(reflect.Zero(v.Type())) }},
		)
	}
	return c
}

// stateChanges returns the changes stateChanges can make to st, whose
// top-level field names (as the specs spell them) are members: each
// other version (and unknown ones), other presets, and the changes of
// every slice of the State (sliceChanges): its own, those inside its
// container fields, those inside the first element of its lists. A
// change is of what NewProver prepared when it sets another version or
// preset, or changes the length of a list or vector of st's schema,
// directly or inside a container field (a sync committee's keys, the
// payload header's extra data, the bid's commitments).
func stateChanges(st *beacon.State, members map[string]bool) []stateChange {
	var cs []stateChange
	for _, v := range append(allForks(), beacon.Version(len(allForks())), 255) {
		if v != st.Version {
			cs = append(cs, stateChange{name: "version " + v.String(), prepared: true, apply: func(st *beacon.State) { st.Version = v }})
		}
	}
	other := beacon.MainnetPreset()
	if st.Preset == other || st.Preset == (beacon.Preset{}) {
		other = beacon.MinimalPreset()
	}
	cs = append(cs,
		stateChange{name: "preset " + other.Name, prepared: true, apply: func(st *beacon.State) { st.Preset = other }},
		stateChange{name: "preset limit", prepared: true, apply: func(st *beacon.State) {
			if st.Preset == (beacon.Preset{}) {
				st.Preset = beacon.MainnetPreset()
			}
			st.Preset.ValidatorRegistryLimit /= 2
		}},
		stateChange{name: "header slot", apply: func(st *beacon.State) { st.LatestBlockHeader.Slot++ }},
		stateChange{name: "header state_root", apply: func(st *beacon.State) { st.LatestBlockHeader.StateRoot[5] ^= 1 }},
	)
	if st.Preset == beacon.MainnetPreset() {
		cs = append(cs, stateChange{name: "preset zero (mainnet)", apply: func(st *beacon.State) { st.Preset = beacon.Preset{} }})
	}
	sv := reflect.ValueOf(st).Elem()
	for i := range sv.NumField() {
		f := sv.Type().Field(i)
		fv := sv.Field(i)
		top := func(st *beacon.State) reflect.Value { return reflect.ValueOf(st).Elem().Field(i) }
		inSchema := members[snake(f.Name)]
		switch {
		case f.Name == "Preset":
		case fv.Kind() == reflect.Slice:
			cs = append(cs, sliceChanges(f.Name, fv.Len(), inSchema, top)...)
			if fv.Len() == 0 {
				break
			}
			// In place: the list the Prover holds is the state's.
			first := func(st *beacon.State) reflect.Value { return top(st).Index(0) }
			switch e := fv.Index(0); e.Kind() {
			case reflect.Slice:
				cs = append(cs, sliceChanges(f.Name+"[0]", e.Len(), false, first)...)
			case reflect.Struct:
				for j := range e.NumField() {
					if e.Field(j).Kind() == reflect.Slice {
						cs = append(cs, sliceChanges(f.Name+"[0]."+e.Type().Field(j).Name, e.Field(j).Len(), false,
							func(st *beacon.State) reflect.Value { return first(st).Field(j) })...)
					}
				}
			}
		case fv.Kind() == reflect.Struct:
			for j := range fv.NumField() {
				if fv.Field(j).Kind() == reflect.Slice {
					cs = append(cs, sliceChanges(f.Name+"."+fv.Type().Field(j).Name, fv.Field(j).Len(), inSchema,
						func(st *beacon.State) reflect.Value { return top(st).Field(j) })...)
				}
			}
		}
	}
	return cs
}

// proverRoots are the roots of a Prover before a change.
type proverRoots struct {
	state, block beacon.Root
	blockErr     error
}

// callProbe runs one probe, turning a panic into a test failure that names
// the probe.
func callProbe(t testing.TB, p *beacon.Prover, pr proverProbe, what string) (r probeResult) {
	t.Helper()
	defer func() {
		if e := recover(); e != nil {
			t.Fatalf("%s: %s(%s) panicked: %v", what, pr.method, pr.args, e)
		}
	}()
	return pr.call(p)
}

// checkChanged runs every probe on p after change (already applied to its
// state) and checks the outcome: a change of what was prepared is refused
// by every method; any other leaves the roots as before, and every proof
// verifies against them.
func checkChanged(t testing.TB, p *beacon.Prover, probes []proverProbe, change stateChange, before proverRoots) {
	t.Helper()
	what := change.name
	require.Equal(t, before.state, p.StateRoot(), "%s: StateRoot moved", what)
	if !change.prepared {
		blk, err := p.BlockRoot()
		require.Equal(t, before.blockErr == nil, err == nil, "%s: BlockRoot: %v, before %v", what, err, before.blockErr)
		require.Equal(t, before.block, blk, "%s: BlockRoot moved", what)
	}
	for _, pr := range probes {
		r := callProbe(t, p, pr, what)
		if change.prepared {
			require.Error(t, r.err, "%s: %s(%s) accepted a changed state", what, pr.method, pr.args)
			require.ErrorIs(t, r.err, nodeaccess.ErrInvalidInput, "%s: %s(%s)", what, pr.method, pr.args)
			require.ErrorContains(t, r.err, "since NewProver", "%s: %s(%s)", what, pr.method, pr.args)
			continue
		}
		if r.proof == nil {
			continue
		}
		root := before.state
		if r.toBlock {
			root = before.block
		}
		require.True(t, r.proof.Verify(root), "%s: %s(%s): the proof does not verify", what, pr.method, pr.args)
	}
}

// proverSource makes a fresh state to prepare and change.
type proverSource struct {
	name string
	make func(t *testing.T) *beacon.State
}

func proverSources() []proverSource {
	var src []proverSource
	for _, v := range allForks() {
		src = append(src, proverSource{v.String(), func(*testing.T) *beacon.State {
			st := beacontest.NewState(v, beacon.MinimalPreset(), 9, 20+uint64(v))
			st.LatestBlockHeader.StateRoot = beacon.Root{} // the post-state of its block
			return st
		}})
	}
	// A mainnet state (explicit preset, so that zeroing it is a change of
	// nothing), and Lodestar's gloas state.
	src = append(src, proverSource{"deneb-mainnet", func(*testing.T) *beacon.State {
		return beacontest.NewState(beacon.Deneb, beacon.MainnetPreset(), 5, 7)
	}}, proverSource{"gloas-lodestar", func(t *testing.T) *beacon.State {
		v := gloasVectors[0]
		st, err := unmarshalSSZ(readVector(t, v, ".ssz"), beacon.Gloas, v.preset)
		require.NoError(t, err)
		return st
	}})
	return src
}

// TestProverChangedState: see the top of the file. It fails (panics) on
// the old code with a version changed to an earlier fork, and accepted
// the other changes of what was prepared.
func TestProverChangedState(t *testing.T) {
	names := allFieldNames(t)
	for _, src := range proverSources() {
		t.Run(src.name, func(t *testing.T) {
			st := src.make(t)
			p, err := beacon.NewProver(st)
			require.NoError(t, err)
			args := makeProbeArgs(t, p, uint64(len(st.Validators)), names)
			probes := proverProbes(args)
			var before proverRoots
			before.state = p.StateRoot()
			before.block, before.blockErr = p.BlockRoot()
			// Unchanged: every proof verifies.
			checkChanged(t, p, probes, stateChange{name: "unchanged"}, before)
			members := map[string]bool{}
			for name := range stateMembers(t, st) {
				members[name] = true
			}
			changes := stateChanges(st, members)
			t.Logf("%d probes, %d changes", len(probes), len(changes))
			for _, c := range changes {
				st := src.make(t)
				p, err := beacon.NewProver(st)
				require.NoError(t, err)
				c.apply(st)
				checkChanged(t, p, probes, c, before)
			}
		})
	}
}

// TestProverZeroAndNil: a nil *Prover and a zero Prover (not made by
// NewProver) fail every method with an InputError (they dereferenced nil),
// StateRoot giving the zero root.
func TestProverZeroAndNil(t *testing.T) {
	st := beacontest.NewState(beacon.Electra, beacon.MinimalPreset(), 3, 1)
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	probes := proverProbes(makeProbeArgs(t, p, 3, allFieldNames(t)))
	for name, p := range map[string]*beacon.Prover{"nil": nil, "zero": {}} {
		require.Equal(t, beacon.Root{}, p.StateRoot(), name)
		for _, pr := range probes {
			r := callProbe(t, p, pr, name)
			require.ErrorIs(t, r.err, nodeaccess.ErrInvalidInput, "%s: %s(%s)", name, pr.method, pr.args)
			require.ErrorContains(t, r.err, "NewProver", "%s: %s(%s)", name, pr.method, pr.args)
		}
	}
}

// TestToBlockRootMalformedProof: ToBlockRoot refuses a proof whose branch
// is not as long as its gindex is deep, or whose gindex is 0, naming the
// lengths: it extended them into proofs that verify against nothing.
func TestToBlockRootMalformedProof(t *testing.T) {
	st := beacontest.NewState(beacon.Fulu, beacon.MinimalPreset(), 3, 1)
	st.LatestBlockHeader.StateRoot = beacon.Root{}
	p, err := beacon.NewProver(st)
	require.NoError(t, err)
	pr, err := proveValidator(p, 1)
	require.NoError(t, err)
	ok, err := p.ToBlockRoot(pr)
	require.NoError(t, err)
	blk, err := p.BlockRoot()
	require.NoError(t, err)
	require.True(t, ok.Verify(blk))
	for _, k := range []int{0, 1, len(pr.Branch) - 1, len(pr.Branch) + 1, 70} {
		bad := pr
		bad.Branch = make([]beacon.Root, k)
		copy(bad.Branch, pr.Branch)
		_, err := p.ToBlockRoot(bad)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "branch of %d: %v", k, err)
		require.Equal(t, "proof", ie.Arg)
		require.Contains(t, ie.Reason, fmt.Sprintf("%d roots", k))
	}
	_, err = p.ToBlockRoot(beacon.Proof{})
	require.ErrorIs(t, err, nodeaccess.ErrInvalidInput)
}

// TestProverChangedStateMessage: the error names the change, with the
// value now and the one prepared (the example first: a gloas state
// set to fulu).
func TestProverChangedStateMessage(t *testing.T) {
	for _, c := range []struct {
		v      beacon.Version
		change func(st *beacon.State)
		want   string
	}{
		{beacon.Gloas, func(st *beacon.State) { st.Version = beacon.Fulu }, "version fulu, prepared for gloas"},
		{beacon.Phase0, func(st *beacon.State) { st.Version = beacon.Gloas }, "version gloas, prepared for phase0"},
		{beacon.Fulu, func(st *beacon.State) { st.Preset = beacon.MainnetPreset() }, `preset "mainnet", prepared for "minimal"`},
		{beacon.Fulu, func(st *beacon.State) { st.Preset.PendingDepositsLimit++ }, `preset "minimal" with other values than when prepared`},
		{beacon.Fulu, func(st *beacon.State) { st.Validators = append(st.Validators, beacon.Validator{}) }, "validators has length 10, prepared with 9"},
		{beacon.Altair, func(st *beacon.State) { st.NextSyncCommittee.PublicKeys = nil }, "next_sync_committee.pubkeys has length 0, prepared with 32"},
		{beacon.Gloas, func(st *beacon.State) { st.ExecutionPayloadAvailability = st.ExecutionPayloadAvailability[:1] }, "execution_payload_availability has length 1, prepared with 8"},
	} {
		st := beacontest.NewState(c.v, beacon.MinimalPreset(), 9, 1)
		p, err := beacon.NewProver(st)
		require.NoError(t, err)
		c.change(st)
		_, err = p.GIndexOf("validators", 0)
		var ie *nodeaccess.InputError
		require.True(t, errors.As(err, &ie), "%s: %v", c.want, err)
		require.Equal(t, "state", ie.Arg)
		require.Equal(t, "changed since NewProver: "+c.want, ie.Reason)
	}
}
