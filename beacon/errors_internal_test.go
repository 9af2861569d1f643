package beacon

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// transport.Cut (quoteCap, badStateID) cuts at a rune boundary.
func TestCutAtRuneBoundary(t *testing.T) {
	s := "a" + strings.Repeat("é", 100) // é is 2 bytes: byte 80 is inside one
	got := quoteCap(s)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > maxQuoted+len("…") || !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
		t.Fatalf("quoteCap = %q", got)
	}
	if got := transport.Cut("short", 80); got != "short" {
		t.Fatalf("cutAt(short) = %q", got)
	}
	if got := transport.Cut(strings.Repeat("x", 81), 80); got != strings.Repeat("x", 80)+"…" {
		t.Fatalf("cutAt(81 x) = %q", got)
	}
}

// TestErrorMessageMasksBeforeCut: a node's message is masked before it is cut
// to maxMessage, so a key that the cut would split (here hidden from the
// transport by a JSON escape of its first letter) leaves no piece behind.
func TestErrorMessageMasksBeforeCut(t *testing.T) {
	const key = "k3y-SECRET-value"
	mask := func(s string) string { return strings.ReplaceAll(s, key, "REDACTED") }
	for pad := maxMessage - len(key); pad <= maxMessage; pad++ {
		body := `{"code":500,"message":"` + strings.Repeat("x", pad) + `\u006b3y-SECRET-value"}`
		he := &nodeaccess.HTTPError{StatusCode: 500, Body: []byte(body)}
		var got *nodeaccess.HTTPError
		if !errors.As(stateError(he, Head, mask, EncodingAuto), &got) {
			t.Fatal("not an HTTPError")
		}
		if strings.Contains(got.Message, "k3y") || strings.Contains(got.Message, "SECRET") {
			t.Fatalf("pad %d: a piece of the key is left: …%s", pad, got.Message[max(0, len(got.Message)-30):])
		}
	}
}
