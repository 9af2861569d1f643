package beacon

import "testing"

// TestArticleFor covers every fork name, those this package decodes and
// those announced after them, and a Version it does not know.
func TestArticleFor(t *testing.T) {
	for name, want := range map[string]string{
		"phase0": "a", "altair": "an", "bellatrix": "a", "capella": "a", "deneb": "a",
		"electra": "an", "fulu": "a", "gloas": "a", "heze": "a", "Version(99)": "a", "": "a",
	} {
		if got := articleFor(name); got != want {
			t.Errorf("articleFor(%q) = %q, want %q", name, got, want)
		}
	}
	for _, v := range versions() {
		if article(v) != articleFor(v.String()) {
			t.Errorf("article(%s) = %q", v, article(v))
		}
	}
}
