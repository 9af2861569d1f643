package tontest_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton/tontest"
)

func TestNewT(t *testing.T) {
	testkit.CheckNewT(t, func(tb testing.TB, key string) string {
		return tontest.NewT(tb, tontest.WithKey(key)).URL
	})
}
