package nodeaccess_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the stale-name check reads, and how (TestNoStaleNames):
//
//   - the doc comments of docPackages, and the error texts of the module's
//     non-test packages outside examples/: every string literal inside the
//     arguments of a function whose name holds "err" (errors.New,
//     fmt.Errorf, a decoder's errAt), and inside the value of a composite
//     literal's Reason field (InputError, DecodeError);
//   - the CHANGELOG's current section (## [Unreleased]), in its code spans
//     (backticks) only.
//
// A name is code, not English, when it is qualified by one of the module's
// package names ("beacon.Proof") or by one of the module's exported types
// ("Proof.Leaf"); when it starts with an upper-case letter and has, after
// it, another upper-case letter and a lower-case one ("BalanceProof",
// "HTTPError"; prose cannot spell such a word, but for an acronym's plural,
// "APIs", and an exported name's plural, "InputErrors"); when it is called
// ("Verify(") or a doc link ("[Verify]"); and, in a code span, when it is
// the whole span ("`Code`", "`SizeHint(n)`"). A one-letter name (a type
// parameter), a name in capitals only (a spec's constant, an environment
// variable), a test's name (TestX), an example's own declaration ("func
// X") and a value cut short ("EQBb…") are not read as the module's names.
// Each must be something the module exports now: a package's exported name,
// a member (field or method, promoted ones too) of the exported type it
// qualifies, or for a bare name either of those anywhere in the module.
// Names of other projects and proper nouns that look like code are listed
// in foreignNames.
//
// The CHANGELOG's **Breaking** entries name what went away: in them only
// the code they tell users to write is checked (from "write" to the next
// " for " or " where you ", or to the end of its clause), and a name whose
// last word (Validate, of beacon.State.Validate) they name elsewhere may
// appear in the section's other entries, written before it went away. A
// name that went away without a **Breaking** entry saying so fails.

// apiPackages are the module's packages whose exported names are the API,
// by the import path the export data is read from.
var apiPackages = []string{
	"github.com/nodeaccess/nodeaccess",
	"github.com/nodeaccess/nodeaccess/beacon",
	"github.com/nodeaccess/nodeaccess/beacon/beacontest",
	"github.com/nodeaccess/nodeaccess/beacon/light",
	"github.com/nodeaccess/nodeaccess/evm",
	"github.com/nodeaccess/nodeaccess/evm/evmtest",
	"github.com/nodeaccess/nodeaccess/evm/verified",
	"github.com/nodeaccess/nodeaccess/hyper",
	"github.com/nodeaccess/nodeaccess/hyper/hypercore",
	"github.com/nodeaccess/nodeaccess/hyper/hypertest",
	"github.com/nodeaccess/nodeaccess/nodeaccesstest",
	"github.com/nodeaccess/nodeaccess/ton",
	"github.com/nodeaccess/nodeaccess/ton/tontest",
}

// foreignNames are words that read as code but name no identifier of this
// module: other projects' identifiers (go-ethereum's, the standard
// library's, the specs' containers), products and units. A name the module
// exports needs no entry; a name it no longer exports must not get one.
var foreignNames = map[string]bool{
	// Units and products.
	"KiB": true, "MiB": true, "GiB": true, "HyperEVM": true, "HyperCore": true, "JavaScript": true, "FastAPI": true,
	// The standard library's (net/http, context, time) and HTTP's.
	"CheckRedirect": true, "CloseIdleConnections": true, "RoundTripper": true, "ServeMux": true, "Referer": true,
	"Done": true, "IsZero": true,
	// go-ethereum's (ethereum.CallMsg, ethereum.FilterQuery, abigen) and
	// the execution APIs' (eth_simulateV1).
	"GasFeeCap": true, "GasTipCap": true, "BlobGasFeeCap": true, "FromBlock": true, "ToBlock": true,
	"NewXxxCaller": true, "EthSimulatePayload": true, "BlockOverrides": true,
	// Solidity's Panic(uint256), and hyper-evm-lib's.
	"Panic": true, "PrecompileLib": true, "PrecompileError": true,
	// The consensus specs' containers and TL-B's types.
	"BeaconState": true, "BeaconBlockBody": true, "CommitteeIndex": true, "VarUInteger": true,
}

// moduleAPI is what the module exports now, read by go/types from the
// packages' export data.
type moduleAPI struct {
	pkgs    map[string]*types.Package    // by package name
	types   map[string][]*types.TypeName // exported types, by name, of every package
	names   map[string]bool              // exported top-level names of every package
	members map[string]bool              // exported fields and methods of every exported type
}

func loadModuleAPI(t *testing.T) moduleAPI {
	t.Helper()
	imp := readmeImporter(t)
	api := moduleAPI{pkgs: map[string]*types.Package{}, types: map[string][]*types.TypeName{}, names: map[string]bool{}, members: map[string]bool{}}
	for _, path := range apiPackages {
		p, err := imp.Import(path)
		require.NoError(t, err, path)
		api.pkgs[p.Name()] = p
		for _, n := range p.Scope().Names() {
			obj := p.Scope().Lookup(n)
			if !obj.Exported() {
				continue
			}
			api.names[n] = true
			tn, ok := obj.(*types.TypeName)
			if !ok {
				continue
			}
			api.types[n] = append(api.types[n], tn)
			for _, m := range memberNames(tn.Type()) {
				api.members[m] = true
			}
		}
	}
	return api
}

// memberNames lists the exported fields and methods of T and *T, promoted
// ones included.
func memberNames(typ types.Type) []string {
	var out []string
	seen := map[types.Type]bool{}
	var fields func(types.Type)
	fields = func(typ types.Type) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		st, ok := typ.Underlying().(*types.Struct)
		if !ok {
			return
		}
		for f := range st.Fields() {
			if f.Exported() {
				out = append(out, f.Name())
			}
			if f.Embedded() {
				e := f.Type()
				if p, ok := e.(*types.Pointer); ok {
					e = p.Elem()
				}
				fields(e)
			}
		}
	}
	fields(typ)
	ms := types.NewMethodSet(typ)
	if _, isIface := typ.Underlying().(*types.Interface); !isIface {
		ms = types.NewMethodSet(types.NewPointer(typ))
	}
	for sel := range ms.Methods() {
		if sel.Obj().Exported() {
			out = append(out, sel.Obj().Name())
		}
	}
	return out
}

// hasMember reports whether some exported type of the module named typ
// has an exported field or method named member; home, when it has a type
// of that name, is asked alone.
func (api moduleAPI) hasMember(home *types.Package, typ, member string) bool {
	cands := api.types[typ]
	if home != nil {
		if tn, ok := home.Scope().Lookup(typ).(*types.TypeName); ok {
			cands = []*types.TypeName{tn}
		}
	}
	for _, tn := range cands {
		obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, tn.Pkg(), member)
		if obj != nil && obj.Exported() {
			return true
		}
	}
	return false
}

// nameRef is one name found in a text: Qual.Name, or Name alone, with
// Member when a package-qualified name is followed by one
// (beacon.Proof.Leaf).
type nameRef struct {
	qual, name, member string
}

func (r nameRef) String() string {
	s := r.name
	if r.qual != "" {
		s = r.qual + "." + s
	}
	if r.member != "" {
		s += "." + r.member
	}
	return s
}

// exported reports whether r names something the module exports now; home
// is the package whose text it is (nil for the CHANGELOG).
func (api moduleAPI) exported(home *types.Package, r nameRef) bool {
	if r.qual == "" {
		return api.names[r.name] || api.members[r.name] || foreignNames[r.name]
	}
	if p, ok := api.pkgs[r.qual]; ok {
		obj := p.Scope().Lookup(r.name)
		if obj == nil || !obj.Exported() {
			return false
		}
		return r.member == "" || api.hasMember(p, r.name, r.member)
	}
	return api.hasMember(home, r.qual, r.name) || foreignNames[r.qual+"."+r.name]
}

// wordRE finds identifiers and dotted chains of them ("beacon.Proof.Leaf").
var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*`)

// camel reports whether an exported-looking word cannot be English: it
// starts with an upper-case letter and has, after it, another upper-case
// letter and a lower-case one ("BalanceProof", "HTTPError", "GIndexOf");
// an acronym's plural ("APIs", "ANDed") is English.
func camel(w string) bool {
	if w == "" || !unicode.IsUpper(rune(w[0])) {
		return false
	}
	for _, suffix := range []string{"s", "ed"} { // an acronym's plural: "APIs", "ANDed"
		if acr, ok := strings.CutSuffix(w, suffix); ok && strings.ToUpper(acr) == acr {
			return false
		}
	}
	upper, lower := false, false
	for _, r := range w[1:] {
		upper = upper || unicode.IsUpper(r)
		lower = lower || unicode.IsLower(r)
	}
	return upper && lower
}

// codeRefs returns the names in text that read as code (see the rules
// above), for the module's exported names to check. whole is set for a
// code span: a span that is one name ("`Code`", "`SizeHint(n)`") names
// that name.
func (api moduleAPI) codeRefs(home *types.Package, text string, whole bool) []nameRef {
	var out []nameRef
	locs := wordRE.FindAllStringIndex(text, -1)
	for _, loc := range locs {
		w := text[loc[0]:loc[1]]
		if loc[0] > 0 && (text[loc[0]-1] == '.' || unicode.IsDigit(rune(text[loc[0]-1]))) {
			continue // inside something else: a path, a number, a host
		}
		after := text[loc[1]:]
		if strings.HasPrefix(after, "…") || strings.HasSuffix(text[:loc[0]], "func ") || strings.HasSuffix(text[:loc[0]], "type ") {
			continue // a value cut short ("EQBb…"), or an example's own declaration
		}
		parts := strings.Split(w, ".")
		called := strings.HasPrefix(after, "(")
		linked := loc[0] > 0 && text[loc[0]-1] == '[' && strings.HasPrefix(after, "]")
		switch {
		case len(parts) >= 2 && api.pkgs[parts[0]] != nil && ast.IsExported(parts[1]):
			r := nameRef{qual: parts[0], name: parts[1]}
			if len(parts) >= 3 && ast.IsExported(parts[2]) {
				r.member = parts[2]
			}
			out = append(out, r)
		case len(parts) >= 2 && ast.IsExported(parts[0]) && ast.IsExported(parts[1]):
			if len(api.types[parts[0]]) > 0 || (home != nil && home.Scope().Lookup(parts[0]) != nil) {
				out = append(out, nameRef{qual: parts[0], name: parts[1]})
			} else if camel(parts[0]) || foreignNames[parts[0]] {
				out = append(out, nameRef{name: parts[0]}) // a type the module does not have
			}
		case len(parts) == 1 && ast.IsExported(w) && len(w) > 1 && strings.ToUpper(w) != w && !testName(w):
			// Not a type parameter ("T"), a constant of a spec or an
			// environment variable (all capitals), or a test's name.
			span := whole && strings.Trim(text[:loc[0]], " *&") == "" && (strings.TrimSpace(after) == "" || called && strings.HasSuffix(after, ")"))
			if camel(w) && !plural(api, w) || called || linked || span {
				out = append(out, nameRef{name: w})
			}
		}
	}
	return out
}

// testName reports whether w is a test function's name, which names no
// API ("TestGodocHygiene").
func testName(w string) bool {
	for _, p := range []string{"Test", "Fuzz", "Benchmark", "Example"} {
		if rest, ok := strings.CutPrefix(w, p); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
			return true
		}
	}
	return false
}

// plural reports whether w is the plural of an exported name in prose
// ("BatchResults", "InputErrors").
func plural(api moduleAPI, w string) bool {
	one, ok := strings.CutSuffix(w, "s")
	return ok && (api.names[one] || api.members[one])
}

// staleNames lists every name the texts give that the module does not
// export, but in the CHANGELOG those whose last word (the member of
// beacon.State.Validate) a code span of gone names.
func (api moduleAPI) staleNames(texts []textSource, gone []string) []string {
	wentAway := map[string]bool{}
	for _, g := range gone {
		for _, w := range identRE.FindAllString(g, -1) {
			wentAway[w] = true
		}
	}
	var out []string
	for _, s := range texts {
		for _, r := range api.codeRefs(s.home, s.text, s.whole) {
			last := r.name
			if r.member != "" {
				last = r.member
			}
			if !api.exported(s.home, r) && !(s.home == nil && wentAway[last]) {
				out = append(out, fmt.Sprintf("%s names %s, which the module does not export", s.where, r))
			}
		}
	}
	return out
}

// TestNoStaleNames: no doc comment, error text or current CHANGELOG entry
// names an identifier the module does not export (the rules above), so
// that no user is sent to a function that was removed or renamed.
func TestNoStaleNames(t *testing.T) {
	api := loadModuleAPI(t)
	md, err := os.ReadFile("CHANGELOG.md")
	require.NoError(t, err)
	texts := append(api.godocTexts(t), api.errorTexts(t, ".")...)
	log, gone := changelogTexts(t, string(md))
	for _, p := range api.staleNames(append(texts, log...), gone) {
		t.Error(p)
	}
}

// TestNoStaleNamesCatches: the check finds a name that is gone in each
// place it reads, and passes what the rules let through.
func TestNoStaleNamesCatches(t *testing.T) {
	api := loadModuleAPI(t)
	beacon := api.pkgs["beacon"]
	dir := t.TempDir()
	src := `package p

import ("errors"; "fmt"; "log")

type InputError struct{ Reason string }
type dec struct{}

func (dec) errAt(int, string) error { return nil }

var (
	e1 = errors.New("needs AssumeVersion")
	e2 = fmt.Errorf("call %s with SizeHint(n)", "x")
	e3 = dec{}.errAt(1, "a bare object needs AssumeVersion")
	e4 = &InputError{Reason: fmt.Sprintf("use beacon.DecodeSSZ %d", 1)}
)

func f() { log.Print("NotAnErrorText") }
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o600))
	texts := api.errorTexts(t, dir)
	texts = append(texts,
		textSource{where: "p.go:1: doc", home: beacon, text: "Leaf: a balance shares its chunk with three others; see BalanceProof, Proof.Nope, " +
			"beacon.Proof.Nope and [Gone]. Fine: Proof.Verify, beacon.Proof.Leaf, Prover.GIndexOf(...), HyperEVM, GiB, APIs, " +
			"\"EQBb…\", BatchResults (plural), T, the MAX_VALIDATORS constant, nodeaccess.ErrNotFound, big.Int, e.g.\n\tfunc TestDashboard(t *testing.T)"})
	md := "# Changelog\n\n## [Unreleased]\n\n### Added\n\n" +
		"- `beacon.Old` reads; `beacon.Missing` too; `NODEACCESS_URL`, `Read[T]`, `TestGodocHygiene`, `*nodeaccess.HTTPError`.\n" +
		"\n### Changed\n\n" +
		"- **Breaking:** `beacon.Old` is gone: write `beacon.NotThere(x)` for `beacon.Old(x)`, and\n" +
		"  `beacon.ReadState(r, b)` for `Older`; `OldSize` goes (write `1 << 20` where you used `OldSize`).\n" +
		"  - `Renamed` is now `beacon.Proof`.\n" +
		"- `Unchanged`: a `Proof.Verify` and a `Code`.\n" +
		"\n## [0.1.0] - 2026-11-21\n\n- `beacon.Ancient` was released.\n"
	log, gone := changelogTexts(t, md)
	var got []string
	for _, p := range api.staleNames(append(texts, log...), gone) {
		got = append(got, p[strings.LastIndex(p, ": ")+2:])
	}
	want := []string{
		"error text names AssumeVersion, which the module does not export",
		"error text names SizeHint, which the module does not export",
		"error text names AssumeVersion, which the module does not export",
		"error reason names beacon.DecodeSSZ, which the module does not export",
		"doc names BalanceProof, which the module does not export",
		"doc names Proof.Nope, which the module does not export",
		"doc names beacon.Proof.Nope, which the module does not export",
		"doc names Gone, which the module does not export",
		"entry names beacon.Missing, which the module does not export",
		"entry names beacon.NotThere, which the module does not export",
		"entry names Unchanged, which the module does not export",
	}
	slices.Sort(got)
	slices.Sort(want)
	assert.Equal(t, want, got)
}
