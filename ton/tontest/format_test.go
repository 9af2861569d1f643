package tontest_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

// TestServerFormattingShowsNoKey: no formatting of the server, by pointer or
// dereferenced, alone or inside a struct (in an exported field or in an
// unexported one, where fmt calls no method of it), under any verb, shows
// its key.
// (See also the root package's TestServersKeyOnlyThroughKeyMethod, which
// checks every local server by reflection and JSON too, and
// TestServersPrintWhileServing, which prints them while they serve.)
func TestServerFormattingShowsNoKey(t *testing.T) {
	t.Parallel()
	const key = "sEcReT-k3y"
	srv := tontest.NewT(t, tontest.WithKey(key))
	testkit.AssertFormatNoKey(t, key, srv)
}
