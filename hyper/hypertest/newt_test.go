package hypertest_test

import (
	"testing"

	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

func TestNewT(t *testing.T) {
	testkit.CheckNewT(t, func(tb testing.TB, key string) string {
		return hypertest.NewT(tb, hypertest.WithKey(key)).URL
	})
}
