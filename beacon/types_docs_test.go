package beacon_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// Every field of the state and of its containers has a doc comment, and a
// field whose Go name is not its consensus-specs name in Go case names the
// specs' name.
func TestFieldDocs(t *testing.T) {
	specName := map[string]string{"PublicKey": "`pubkey`", "PublicKeys": "`pubkeys`", "AggregatePublicKey": "`aggregate_pubkey`"}
	fset := token.NewFileSet()
	for _, file := range []string{"types.go", "types_gloas.go", "state.go"} {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				for _, name := range fl.Names {
					doc := fl.Doc.Text()
					if doc == "" {
						t.Errorf("%s: %s.%s has no doc comment", file, ts.Name.Name, name.Name)
					}
					if want, ok := specName[name.Name]; ok && !strings.Contains(doc, want) {
						t.Errorf("%s: %s.%s: the doc does not name %s", file, ts.Name.Name, name.Name, want)
					}
				}
			}
			return false
		})
	}
}
