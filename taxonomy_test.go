package nodeaccess_test

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/beacon/light"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// The promise of docs/options-and-errors.md: every error an operation
// returns is an *OpError over one of the root package's sentinels or types
// (or the context's error). The chain packages and the local servers define
// errors of their own; each must also match a root, so that code written
// against the root taxonomy handles it.
//
// The errors are found in the sources with go/parser, not listed by hand:
// every exported package-level Err… variable and every exported type with
// an Error() string method, in every package of the module outside the
// root (whose sentinels and types are the roots), internal/, examples/ and
// bench/. Each must have a case below that produces it the way a user gets
// it (a real operation against a local server), so a new error added
// without a case, or without wiring to a root, fails this test.

// taxCase says how a user gets one error of a package, and checks it is
// that error.
type taxCase struct {
	// op: the error comes from an operation, so it is an *OpError.
	op bool
	// produce makes the error the way a user gets it.
	produce func(t *testing.T) error
	// is reports whether err is (or wraps) the package's error.
	is func(err error) bool
	// exempt, when set, is why the error matches no root; produce and is
	// are then unset.
	exempt string
}

func isErr(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

func asErr[T error]() func(error) bool {
	return func(err error) bool {
		var e T
		return errors.As(err, &e)
	}
}

// rootSentinels and matchesRoot are the root taxonomy.
var rootSentinels = []error{nodeaccess.ErrInvalidInput, nodeaccess.ErrRateLimited, nodeaccess.ErrUnauthorized,
	nodeaccess.ErrNotFound, nodeaccess.ErrUnavailable, nodeaccess.ErrInvalidResponse, nodeaccess.ErrResponseTooLarge,
	context.Canceled, context.DeadlineExceeded}

func matchesRoot(err error) bool {
	for _, s := range rootSentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	var he *nodeaccess.HTTPError
	var re *nodeaccess.RPCError
	var ie *nodeaccess.InputError
	return errors.As(err, &he) || errors.As(err, &re) || errors.As(err, &ie)
}

func taxonomyCases() map[string]taxCase {
	return map[string]taxCase{
		"beacon.ErrIntegrity": {op: true, produce: beaconIntegrity, is: isErr(beacon.ErrIntegrity)},
		"beacon.ErrDebugDisabled": {op: true, is: isErr(beacon.ErrDebugDisabled),
			produce: func(t *testing.T) error { return beaconAnswer(t, http.StatusMethodNotAllowed, "", "", nil) }},
		"beacon.ErrInvalidState":       {op: true, produce: beaconGarbage, is: isErr(beacon.ErrInvalidState)},
		"beacon.DecodeError":           {op: true, produce: beaconGarbage, is: asErr[*beacon.DecodeError]()},
		"beacon.ErrUnsupportedVersion": {op: true, produce: beaconUnknownFork, is: isErr(beacon.ErrUnsupportedVersion)},
		"beacon/light.VerifyError":     {produce: lightForgedSignature, is: asErr[*light.VerifyError]()},

		"evm.ErrReverted": {op: true, produce: evmRevert, is: isErr(evm.ErrReverted)},
		"evm.RevertError": {op: true, produce: evmRevert, is: asErr[*evm.RevertError]()},
		"evm.ErrMulticallNotDeployed": {op: true, produce: evmNoMulticall,
			is: isErr(evm.ErrMulticallNotDeployed)},
		"evm.MulticallError": {op: true, produce: evmMulticallFailed,
			is: asErr[*evm.MulticallError]()},
		"evm/evmtest.ErrClosed": {is: isErr(evmtest.ErrClosed), produce: func(t *testing.T) error {
			srv, err := evmtest.New()
			require.NoError(t, err)
			srv.Close()
			return srv.AdjustTime(0)
		}},
		"evm/evmtest.ErrTxFailed": {exempt: "a test's own transaction that was mined and failed (its receipt comes with it): " +
			"a result of the local chain's helper Transact, not of a call to a node-access service; no root sentinel means it"},

		"hyper/hypercore.ErrPrecompile": {op: true, is: isErr(hypercore.ErrPrecompile), produce: func(t *testing.T) error {
			// A read of a perp that does not exist: the local HyperEVM
			// answers as HyperEVM does, out of gas.
			srv := hypertest.NewT(t)
			c, err := hypercore.New(srv.URL, srv.Key())
			require.NoError(t, err)
			var b evm.Batch
			r := hypercore.Reads(&b).AssetInfo(9999)
			require.NoError(t, c.SendBatch(context.Background(), &b))
			_, err = r.Result()
			return err
		}},
		"hyper.ErrUnsupportedRequest": {op: true, is: isErr(hyper.ErrUnsupportedRequest), produce: func(t *testing.T) error {
			srv := answer(t, http.StatusUnprocessableEntity, "text/plain", "Failed to deserialize the JSON body into the target type")
			c, err := hyper.New(srv.URL, "k3y", hyper.WithPublicURL(srv.URL), nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			_, err = c.UserVaultEquities(context.Background(), hypertest.DefaultUser())
			return err
		}},

		"ton.ErrNotYetAvailable": {op: true, is: isErr(ton.ErrNotYetAvailable), produce: func(t *testing.T) error {
			// A lite server an hour behind the newest blocks.
			srv := tontest.NewT(t, tontest.WithLag(time.Hour))
			c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			_, err = c.BlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock().ID.BlockRef})
			return err
		}},
		"ton.ErrUnreadableTransaction": {op: true, is: isErr(ton.ErrUnreadableTransaction), produce: func(t *testing.T) error {
			// The recorded block with a transaction tonlib cannot read.
			b := tontest.DefaultBlock()
			b.Unreadable = []int{1}
			srv := tontest.NewT(t)
			require.NoError(t, srv.SetBlock(b))
			c, err := srv.Client()
			require.NoError(t, err)
			for _, err := range c.AllBlockTransactions(context.Background(), ton.BlockTransactionsQuery{Block: tontest.DefaultBlock().ID.BlockRef}) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		"ton.ErrRepeatedPage": {op: true, is: isErr(ton.ErrRepeatedPage), produce: func(t *testing.T) error {
			// The indexer ignores offset: a walk of pages of one state
			// gets the same full page again.
			srv := tontest.NewT(t, tontest.WithIndexer())
			c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			for _, err := range c.AllAccountStates(context.Background(), ton.AccountStatesQuery{Accounts: []string{tontest.DefaultAccount().String()}, Limit: 1}) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
	}
}

func TestEveryPackageErrorMatchesARoot(t *testing.T) {
	found := exportedErrors(t, ".")
	cases := taxonomyCases()
	var missing, stale []string
	for _, name := range found {
		if _, ok := cases[name]; !ok {
			missing = append(missing, name)
		}
	}
	for name := range cases {
		if !slices.Contains(found, name) {
			stale = append(stale, name)
		}
	}
	slices.Sort(stale)
	require.Empty(t, missing, "errors defined without a case here: wire each to a root sentinel or type and add a case that produces it")
	require.Empty(t, stale, "cases for errors the sources no longer define")
	for _, name := range found {
		c := cases[name]
		t.Run(name, func(t *testing.T) {
			if c.exempt != "" {
				t.Skipf("exempt: %s", c.exempt)
			}
			err := c.produce(t)
			require.Error(t, err)
			assert.True(t, c.is(err), "the case does not produce %s: %v", name, err)
			assert.True(t, matchesRoot(err), "%s matches no root sentinel or type: %v", name, err)
			if c.op {
				var op *nodeaccess.OpError
				assert.True(t, errors.As(err, &op), "an operation error that is not an *OpError: %v", err)
			}
		})
	}
}

// rootRefinementCases says how a user gets each root sentinel that refines
// another (a package-level fmt.Errorf wrap of one in the root package):
// each must have a case here, produced the way a user gets it, and match
// the sentinel it refines.
func rootRefinementCases() map[string]taxCase {
	return map[string]taxCase{
		"nodeaccess.ErrUnverified": {is: isErr(nodeaccess.ErrUnverified), produce: func(t *testing.T) error {
			// A provider that says Holder has more wei than the state
			// root commits to, read through package evm/verified.
			srv := evmtest.NewT(t, evmtest.WithoutScenario())
			srv.Lie(evmtest.Lie{Balance: true})
			c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
			require.NoError(t, err)
			ctx := context.Background()
			head, err := srv.EthClient().HeaderByNumber(ctx, nil)
			require.NoError(t, err)
			v, err := verified.New(c, headAnchor{head.Hash()})
			require.NoError(t, err)
			_, err = v.Balance(ctx, evmtest.Holder(), evm.Latest)
			return err
		}},
	}
}

// headAnchor backs one block, as its head and finalized block.
type headAnchor struct{ hash common.Hash }

func (a headAnchor) ExecutionBlocks(context.Context) (common.Hash, common.Hash, error) {
	return a.hash, a.hash, nil
}

// TestRootRefinementsMatchTheirRoot: every refining sentinel of the root
// package has a case, and what the case produces matches both it and the
// root sentinel it refines.
func TestRootRefinementsMatchTheirRoot(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var found []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.GenDecl)
			if !ok || d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !n.IsExported() || !strings.HasPrefix(n.Name, "Err") || i >= len(vs.Values) {
						continue
					}
					if call, ok := vs.Values[i].(*ast.CallExpr); ok {
						if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Errorf" {
							found = append(found, "nodeaccess."+n.Name)
						}
					}
				}
			}
		}
	}
	cases := rootRefinementCases()
	for _, name := range found {
		c, ok := cases[name]
		require.True(t, ok, "%s refines a root sentinel without a case in rootRefinementCases", name)
		t.Run(name, func(t *testing.T) {
			err := c.produce(t)
			require.Error(t, err)
			assert.True(t, c.is(err), "the case does not produce %s: %v", name, err)
			assert.True(t, matchesRoot(err), "%s matches no root sentinel or type: %v", name, err)
		})
	}
	assert.Len(t, cases, len(found), "cases for refinements the sources no longer define")
}

// exportedErrors lists "pkg.Name" (pkg the directory, such as "hyper" or
// "evm/evmtest") for every exported Err… variable and every exported type
// with an Error() string method in the module's packages, roots excepted.
func exportedErrors(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			base := d.Name()
			if path != root && (strings.HasPrefix(base, ".") || base == "testdata" || base == "internal" ||
				base == "examples" || base == "bench") {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(rel)
		if dir == "." || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						if n.IsExported() && strings.HasPrefix(n.Name, "Err") {
							out = append(out, dir+"."+n.Name)
						}
					}
				}
			case *ast.FuncDecl:
				if name, ok := errorMethodOf(d); ok && ast.IsExported(name) {
					out = append(out, dir+"."+name)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	slices.Sort(out)
	return slices.Compact(out)
}

// The discovery itself, on a module made for the test: what a future
// package could add is found, and what is not an exported error is not.
func TestExportedErrorsFindsNewErrors(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	write("go.mod", "module example.com/m\n")
	write("root.go", "package m\nimport \"errors\"\nvar ErrRoot = errors.New(\"root\")\n")
	write("chain/errs.go", `package chain
import "errors"
var (
	ErrNew, errHidden = errors.New("new"), errors.New("hidden")
	Other = 1
)
type FooError struct{}
func (FooError) Error() string { return "foo" }
type BarError struct{}
func (*BarError) Error() string { return "bar" }
type notExported struct{}
func (*notExported) Error() string { return "x" }
type Stringer struct{}
func (Stringer) Error(int) string { return "not the error method" }
`)
	write("chain/chaintest/srv.go", "package chaintest\nimport \"errors\"\nvar ErrClosed = errors.New(\"closed\")\n")
	write("chain/errs_test.go", "package chain\nimport \"errors\"\nvar ErrTestOnly = errors.New(\"t\")\n")
	write("internal/x/x.go", "package x\nimport \"errors\"\nvar ErrInternal = errors.New(\"i\")\n")
	write("examples/e/e.go", "package main\nimport \"errors\"\nvar ErrExample = errors.New(\"e\")\n")
	write("bench/go.mod", "module example.com/b\n")
	write("bench/b.go", "package b\nimport \"errors\"\nvar ErrBench = errors.New(\"b\")\n")
	write("chain/testdata/t.go", "package t\nimport \"errors\"\nvar ErrData = errors.New(\"d\")\n")
	assert.Equal(t, []string{"chain.BarError", "chain.ErrNew", "chain.FooError", "chain/chaintest.ErrClosed"}, exportedErrors(t, root))
}

// errorMethodOf returns the receiver type of an Error() string method.
func errorMethodOf(d *ast.FuncDecl) (string, bool) {
	if d.Recv == nil || len(d.Recv.List) != 1 || d.Name.Name != "Error" ||
		len(d.Type.Params.List) != 0 || d.Type.Results == nil || len(d.Type.Results.List) != 1 {
		return "", false
	}
	if res, ok := d.Type.Results.List[0].Type.(*ast.Ident); !ok || res.Name != "string" {
		return "", false
	}
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	id, ok := typ.(*ast.Ident)
	if !ok {
		return "", false
	}
	return id.Name, true
}

// answer starts a server that answers every request with status, Content-Type
// ctype and body.
func answer(t *testing.T, status int, ctype, body string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// beaconAnswer asks a beacon client for a state of a server that answers
// status with the Eth-Consensus-Version fork and body.
func beaconAnswer(t *testing.T, status int, ctype, fork string, body []byte, ids ...beacon.StateID) error {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		if fork != "" {
			w.Header().Set("Eth-Consensus-Version", fork)
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := beacon.New(srv.URL, "k3y", nodeaccess.WithMaxAttempts(1), beacon.WithPreset(beacon.MinimalPreset()))
	require.NoError(t, err)
	id := beacon.Head
	if len(ids) > 0 {
		id = ids[0]
	}
	_, _, err = c.State(context.Background(), id, beacon.StateOptions{})
	return err
}

// beaconIntegrity: a state asked for by a root that is not its root.
func beaconIntegrity(t *testing.T) error {
	st := beacontest.NewState(beacon.Phase0, beacon.MinimalPreset(), 4, 1)
	var b bytes.Buffer
	require.NoError(t, beacon.WriteState(&b, st, beacon.EncodingSSZ, nil))
	return beaconAnswer(t, http.StatusOK, "application/octet-stream", "phase0", b.Bytes(), beacon.RootID(beacon.Root{1}))
}

// beaconGarbage: an SSZ body that is no state.
func beaconGarbage(t *testing.T) error {
	return beaconAnswer(t, http.StatusOK, "application/octet-stream", "fulu", []byte("not a state"))
}

// lightForgedSignature: a light client following a node whose sync
// committee signs another message than the header.
func lightForgedSignature(t *testing.T) error {
	srv := beacontest.NewT(t)
	require.NoError(t, srv.Advance(3))
	srv.Lie(beacontest.Lie{Signature: true})
	bc, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	var h struct {
		Data struct {
			Root beacon.Root `json:"root"`
		} `json:"data"`
	}
	require.NoError(t, bc.Get(context.Background(), &h, "/eth/v1/beacon/headers/genesis", nil))
	lc, err := light.New(bc, srv.LightConfig(), h.Data.Root)
	require.NoError(t, err)
	return lc.Sync(context.Background())
}

// beaconUnknownFork: a fork this package does not know.
func beaconUnknownFork(t *testing.T) error {
	return beaconAnswer(t, http.StatusOK, "application/octet-stream", "zzfork", []byte("body"))
}

// evmRevert: Besu's revert (besu-eth/besu#5705).
// evmNoMulticall is a Multicall on a chain without Multicall3.
func evmNoMulticall(t *testing.T) error {
	srv := evmtest.NewT(t, evmtest.WithoutMulticall3(), evmtest.WithoutScenario())
	c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.Multicall(context.Background(), []evm.Call3{{Target: evmtest.Token()}}, evm.Latest, evm.MulticallOptions{})
	return err
}

// evmMulticallFailed is a Multicall whose required call reverts (the token
// has no function 0xdeadbeef).
func evmMulticallFailed(t *testing.T) error {
	srv := evmtest.NewT(t, evmtest.WithoutScenario())
	c, err := srv.Client(nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.Multicall(context.Background(), []evm.Call3{{Target: evmtest.Token(), Data: []byte{0xde, 0xad, 0xbe, 0xef}}}, evm.Latest, evm.MulticallOptions{})
	return err
}

func evmRevert(t *testing.T) error {
	srv := answer(t, http.StatusOK, "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Execution reverted","data":"0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000026`+
		`45524332303a207472616e7366657220616d6f756e7420657863656564732062616c616e63650000000000000000000000000000000000000000000000000000"}}`)
	c, err := evm.New(srv.URL, "k3y", nodeaccess.WithMaxAttempts(1))
	require.NoError(t, err)
	_, err = c.Call(context.Background(), evm.CallMsg{To: [20]byte{1}}, evm.Latest)
	return err
}
