package nodeaccess_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The library's exported names are a budget (issue 31): fewer concepts
// beat more features, and a name added must be one that no existing name
// should have been. The count is the one the project's review counts by:
// every exported top-level function, method (on any receiver), type,
// constant and variable of a package's non-test files; internal packages,
// testdata, examples and bench are left out.

// maxLibraryNames is the most exported names the library packages
// (libraryPackages) may have together.
const maxLibraryNames = 400

// followerNames are the names issue 33 adds beyond the v1 surface that
// maxLibraryNames holds: the followers of every chain, which the issue
// asks for and no existing name could be (TON's Follow, FollowQuery,
// FollowedTransaction and FollowCursor were already counted). They are
// listed one by one so that the budget still holds everything else, and a
// follower that grows past this list fails like any other name.
var followerNames = map[string]bool{
	"evm.Client.Follow": true, "evm.Client.FollowBlocks": true,
	"evm.FollowQuery": true, "evm.FollowedLog": true, "evm.FollowedBlock": true,
	"evm.FollowCursor": true, "evm.FollowCursor.String": true,
	"evm.FollowCursor.MarshalText": true, "evm.FollowCursor.UnmarshalText": true,
	"beacon.Client.Follow": true, "beacon.FollowQuery": true, "beacon.FollowedHead": true,
	"beacon.FollowCursor": true, "beacon.FollowCursor.String": true,
	"beacon.FollowCursor.MarshalText": true, "beacon.FollowCursor.UnmarshalText": true,
}

// verifiedNames are the names issue 32 (verified reads) adds beyond the
// v1 surface, listed one by one as followerNames are: the typed
// eth_getProof and its result types, the one sentinel every failed
// verification matches, package evm/verified (the anchor it believes, the
// client, the proven account and the proven reads, a verified eth_call
// among them) and package beacon/light (the light client that verifies the
// anchor: its client, its chain configuration, the light-client data it
// fetches, the typed error of a failed check, the verified header of a
// slot the user names, the check of a state against a verified header, and
// Follow, beacon's follower through verified headers).
var verifiedNames = map[string]bool{
	"evm.Client.Proof": true, "evm.AccountProof": true,
	"evm.StorageProof": true, "nodeaccess.ErrUnverified": true,
	"verified.Anchor": true, "verified.Client": true, "verified.New": true, "verified.Account": true,
	"verified.Client.Account": true, "verified.Client.Balance": true, "verified.Client.StorageAt": true,
	"verified.Client.Code": true, "verified.Client.Call": true,
	"light.Client": true, "light.New": true, "light.Client.Sync": true, "light.Client.Finalized": true,
	"light.Client.Optimistic": true, "light.Client.ExecutionBlocks": true, "light.Client.Bootstrap": true,
	"light.Client.Updates": true, "light.Client.MarshalBinary": true, "light.Client.UnmarshalBinary": true,
	"light.Config": true, "light.Chain": true, "light.Header": true, "light.Bootstrap": true, "light.Update": true,
	"light.VerifyError": true, "light.VerifyError.Error": true, "light.VerifyError.Unwrap": true,
	"light.CheckState": true, "light.Client.Header": true, "light.Client.Follow": true,
}

// maxServerNames caps each local server package: they must not grow.
var maxServerNames = map[string]int{
	// Issue 33's followers: evmtest's MineEvery, Reorg, LimitLogs and
	// LogsLimit, beacontest's Advance, Reorg and Finalize (the chain of
	// block headers the beacon follower follows, moved by the tests).
	// Issue 32's verified reads: evmtest's and beacontest's Lie and
	// Server.Lie (each server lying on demand, in one shape).
	"beacon/beacontest": 19 + 3 + 4, // and WithExecution (its blocks an evmtest chain's), Server.LightConfig
	"evm/evmtest":       39 + 4 + 2,
	"hyper/hypertest":   15,
	"nodeaccesstest":    30,
	"ton/tontest":       24,
}

// exportedNames returns the exported top-level names of the package in
// dir, as "Name" or "Recv.Name" for methods.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv != nil {
					names = append(names, recvName(d.Recv.List[0].Type)+"."+d.Name.Name)
				} else {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, id := range s.Names {
							if id.IsExported() {
								names = append(names, id.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

// TestExportedNameBudget: the library packages have at most
// maxLibraryNames exported names together, and no local server has more
// than it has now.
func TestExportedNameBudget(t *testing.T) {
	total := 0
	followers := map[string]bool{}
	verified := map[string]bool{}
	for _, dir := range libraryPackages {
		names := exportedNames(t, dir)
		pkg := filepath.Base(dir)
		if dir == "." {
			pkg = "nodeaccess"
		}
		n := 0
		for _, name := range names {
			if followerNames[pkg+"."+name] {
				followers[pkg+"."+name] = true
				continue
			}
			if verifiedNames[pkg+"."+name] {
				verified[pkg+"."+name] = true
				continue
			}
			n++
		}
		t.Logf("%-16s %3d (and %d of issue 33's followers and issue 32's verified reads)", dir, n, len(names)-n)
		total += n
	}
	for name := range followerNames {
		if !followers[name] {
			t.Errorf("followerNames lists %s, which no library package exports: take it off the list", name)
		}
	}
	for name := range verifiedNames {
		if !verified[name] {
			t.Errorf("verifiedNames lists %s, which no library package exports: take it off the list", name)
		}
	}
	if total > maxLibraryNames {
		t.Errorf("the library packages export %d names, more than the budget of %d: before adding one, look for the existing name it should be", total, maxLibraryNames)
	}
	for dir, max := range maxServerNames {
		if n := len(exportedNames(t, dir)); n > max {
			t.Errorf("%s exports %d names, more than its %d: the local servers must not grow", dir, n, max)
		}
	}
}

// TestExportedNameCount counts what the review's tool counts: a package
// whose names it knows, down to a method of a generic type.
func TestExportedNameCount(t *testing.T) {
	dir := t.TempDir()
	src := `package p

const A, b = 1, 2

var (
	C = 3
	d = 4
)

type E struct{}
type f int

func G()     {}
func h()     {}
func (E) I() {}
func (f) J() {}
func (*f) k() {}

type L[T any] struct{}

func (*L[T]) M() {}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nfunc TestN() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(exportedNames(t, dir), " ")
	if want := "A C E E.I G L L.M f.J"; got != want {
		t.Fatalf("exported names %q, want %q", got, want)
	}
}
