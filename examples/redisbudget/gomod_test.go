package redisbudget

import (
	"os"
	"strings"
	"testing"
)

// goDirective returns the go line of a go.mod file ("1.25.0").
func goDirective(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("%s has no go line", path)
	return ""
}

// The example builds with every Go the SDK supports: its go line is the
// SDK module's, not a newer one (a newer line makes an older go refuse it,
// or fetch a newer toolchain). It needs no redis-server.
func TestGoVersionIsTheSDKs(t *testing.T) {
	if got, want := goDirective(t, "go.mod"), goDirective(t, "../../go.mod"); got != want {
		t.Fatalf("go.mod says go %s; the SDK module says go %s", got, want)
	}
}
