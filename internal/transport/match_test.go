package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matchKeys are keys whose characters the encoders below spell
// differently: the issue's key (which .NET's JSON encoder writes with
// "\u002B" and "\u0026"), keys with quotes, backslashes, '<', '%', and
// characters of two, three and four bytes.
var matchKeys = append([]string{
	`Ab+Cd=Ef~Gh!Ij$Kl&Mn`,
	`k"e\y<>'%25;#`,
	"0xDEADbeef中文é😀",
	"pl41nK3yW1thD1g1ts",
}, testkit.LeakKeys...)

// lowerHex turns the hex digits of every percent-escape to lower case, as
// some servers write them ("%c3%a9").
func lowerHex(s string) string {
	return regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(s, strings.ToLower)
}

// dotNetJSON writes s the way .NET's default JavaScriptEncoder does: every
// character outside a safe ASCII set (letters, digits and a little
// punctuation) as an upper-case \uXXXX, HTML-sensitive characters and '+'
// included.
func dotNetJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" !#$%()*,-./:;=?@[]^_`{|}~", r)):
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04X\u%04X`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}

func jsonBody(s string, escapeHTML bool) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s)
	out := strings.TrimSpace(buf.String())
	return out[1 : len(out)-1]
}

func unquote(q string) string { return q[1 : len(q)-1] }

// encoders are spellings of a whole string by other implementations: Go's
// url, encoding/json, html, html/template and strconv, and the .NET and
// Python JSON encoders' rules.
var encoders = []struct {
	name string
	enc  func(string) string
}{
	{"raw", func(s string) string { return s }},
	{"url.PathEscape", url.PathEscape},
	{"url.QueryEscape", url.QueryEscape},
	{"lower-case percent-escapes", func(s string) string { return lowerHex(url.QueryEscape(s)) }},
	{"escaped twice", func(s string) string { return url.QueryEscape(url.PathEscape(s)) }},
	{"escaped twice, lower case", func(s string) string { return lowerHex(url.QueryEscape(url.QueryEscape(s))) }},
	{"encoding/json", func(s string) string { return jsonBody(s, true) }},
	{"encoding/json without HTML escaping", func(s string) string { return jsonBody(s, false) }},
	{".NET JavaScriptEncoder", dotNetJSON},
	{"Python json.dumps", testkit.ASCIIJSON},
	{"lower-case Python json.dumps", func(s string) string { return strings.ToLower(testkit.ASCIIJSON(s)) }},
	{"JSON of a query-escaped URL", func(s string) string { return jsonBody(url.QueryEscape(s), true) }},
	{".NET JSON of a path-escaped URL", func(s string) string { return dotNetJSON(url.PathEscape(s)) }},
	{"html.EscapeString", html.EscapeString},
	{"template.HTMLEscapeString", template.HTMLEscapeString},
	{"template.JSEscapeString", template.JSEscapeString},
	{"strconv.Quote", func(s string) string { return unquote(strconv.Quote(s)) }},
	{"strconv.QuoteToASCII", func(s string) string { return unquote(strconv.QuoteToASCII(s)) }},
	{"HTML of a query-escaped URL", func(s string) string { return html.EscapeString("?k=" + url.QueryEscape(s))[3:] }},
	{"upper case", strings.ToUpper},
	{"lower case", strings.ToLower},
}

// TestMaskEveryEncoding: every key, spelled by every encoder, in a body
// between other text, is replaced by Mask and nothing else changes.
func TestMaskEveryEncoding(t *testing.T) {
	t.Parallel()
	for _, key := range matchKeys {
		r := newRedactor(key)
		for _, e := range encoders {
			enc := e.enc(key)
			in := `{"error":"bad key ` + enc + ` given"}`
			want := `{"error":"bad key ` + Mask + ` given"}`
			assert.Equal(t, want, r.Text(in), "%s of %q: %s", e.name, key, enc)
			assert.Equal(t, want, string(r.Bytes([]byte(in))), "Bytes: %s of %q", e.name, key)
			// Twice in a row, and at the very start and end.
			assert.Equal(t, Mask+Mask, r.Text(enc+enc), "%s of %q twice", e.name, key)
		}
	}
}

// TestMaskIssueKey is the issue's example: .NET writes '+' as \u002B and '&'
// as \u0026.
func TestMaskIssueKey(t *testing.T) {
	t.Parallel()
	r := newRedactor(`Ab+Cd=Ef~Gh!Ij$Kl&Mn`)
	assert.Equal(t, `{"message":"key REDACTED is unknown"}`, r.Text(`{"message":"key Ab\u002BCd=Ef~Gh!Ij$Kl\u0026Mn is unknown"}`))
	assert.Equal(t, `/REDACTED/x`, r.Text(`/Ab%2bCd%3dEf~Gh%21Ij%24Kl%26Mn/x`))
	assert.Equal(t, `<p>REDACTED</p>`, r.Text(`<p>Ab&#43;Cd=Ef~Gh!Ij$Kl&amp;Mn</p>`))
}

// spellings are the ways to write one character that the matcher promises
// to recognise; each returns "" when it does not apply to r.
var spellings = []func(r rune) string{
	func(r rune) string { return string(r) },
	func(r rune) string { return percent(r, "%%%02X") },
	func(r rune) string { return percent(r, "%%%02x") },
	func(r rune) string { return percent(r, "%%25%02X") },
	func(r rune) string { return percent(r, `\x%02x`) },
	func(r rune) string { return jsonU(r, `\u%04x`) },
	func(r rune) string { return jsonU(r, `\u%04X`) },
	func(r rune) string { return fmt.Sprintf(`\U%08x`, r) },
	func(r rune) string { return fmt.Sprintf(`\u{%x}`, r) },
	func(r rune) string { return fmt.Sprintf("&#%d;", r) },
	func(r rune) string { return fmt.Sprintf("&#x%X;", r) },
	func(r rune) string { return fmt.Sprintf("&#X%06x;", r) },
	func(r rune) string {
		if r < 0x100 && r >= 0x80 {
			return fmt.Sprintf(`\x%02x`, r)
		}
		return ""
	},
	func(r rune) string {
		if r < 0x80 && isPunct(byte(r)) {
			return `\` + string(r)
		}
		return ""
	},
	func(r rune) string {
		for _, e := range namedEntities {
			if e.r == r {
				return e.name
			}
		}
		return ""
	},
	func(r rune) string {
		if r < 0x80 && isLetter(byte(r)) {
			return string(r ^ 0x20)
		}
		return ""
	},
}

func percent(r rune, format string) string {
	var b strings.Builder
	for _, c := range []byte(string(r)) {
		fmt.Fprintf(&b, format, c)
	}
	return b.String()
}

func jsonU(r rune, format string) string {
	if r > 0xffff {
		r1, r2 := utf16.EncodeRune(r)
		return fmt.Sprintf(format+format, r1, r2)
	}
	return fmt.Sprintf(format, r)
}

// keyAlphabet is what random keys are made of: every printable ASCII
// character a key may hold (no space, no '/'), and characters of two, three
// and four bytes.
var keyAlphabet = func() []rune {
	var rs []rune
	for c := rune('!'); c <= '~'; c++ {
		if c != '/' {
			rs = append(rs, c)
		}
	}
	return append(rs, 'é', 'ß', '中', 'ｱ', '😀', '𝄞')
}()

// spell writes key with a spelling picked by rng for each character.
func spell(rng *rand.Rand, key string) string {
	var b strings.Builder
	for _, r := range key {
		for {
			if s := spellings[rng.IntN(len(spellings))](r); s != "" {
				b.WriteString(s)
				break
			}
		}
	}
	return b.String()
}

// TestMaskRandomSpellings is the property: a random key, each of its
// characters spelled in a random way of those promised, is always masked,
// whole, and nothing around it is touched.
func TestMaskRandomSpellings(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 3))
	for i := 0; i < 3000; i++ {
		k := make([]rune, 1+rng.IntN(24))
		for j := range k {
			k[j] = keyAlphabet[rng.IntN(len(keyAlphabet))]
		}
		key := string(k)
		s := spell(rng, key)
		r := newRedactor(key)
		// White space, which no key holds, around it.
		in := "\t " + s + " \n"
		require.Equal(t, "\t "+Mask+" \n", r.Text(in), "key %q spelled %q", key, s)
		require.LessOrEqual(t, len(s), r.Longest(), "key %q spelled %q is longer than Longest", key, s)
	}
}

// FuzzMask: whatever the key and the choice of spellings, the key is
// masked.
func FuzzMask(f *testing.F) {
	for i, k := range matchKeys {
		f.Add(k, uint64(i))
	}
	f.Fuzz(func(t *testing.T, key string, seed uint64) {
		if checkKey(key) != nil {
			return
		}
		s := spell(rand.New(rand.NewPCG(seed, 1)), key)
		// White space, which no key holds, around it.
		got := newRedactor(key).Text("\t" + s + "\n")
		if got != "\t"+Mask+"\n" {
			t.Fatalf("key %q spelled %q: got %q", key, s, got)
		}
	})
}

// TestMaskLeavesOtherTextAlone: text that is not the key, even close to it,
// is returned as it is (the same string, not a copy).
func TestMaskLeavesOtherTextAlone(t *testing.T) {
	t.Parallel()
	key := `Ab+Cd=Ef~Gh!Ij$Kl&Mn`
	r := newRedactor(key)
	for _, s := range []string{
		"",
		"nothing here",
		key[:len(key)-1],                 // cut short
		`Ab+Cd=Ef~Gh!Ij$Kl&Mo`,           // one character off
		`Ab%2BCd=Ef~Gh!Ij$Kl%2`,          // an escape broken off
		`Ab\u002BCd=Ef~Gh!Ij$Kl\u002`,    // a \u escape broken off
		`Ab+Cd=Ef~Gh!Ij$Kl&#99999999999`, // a reference too long
		strings.Repeat("%", 100) + strings.Repeat(`\`, 100) + strings.Repeat("&", 100),
	} {
		assert.Equal(t, s, r.Text(s), "%q", s)
		b := []byte(s)
		if len(b) > 0 {
			assert.Same(t, &b[0], &r.Bytes(b)[0], "Bytes copied %q", s)
		}
	}
	// A numeric reference without its ';' followed by a digit reads as a
	// larger number (as HTML reads it): not this key.
	assert.Equal(t, "k&#431", newRedactor("k+1").Text("k&#431"))
	assert.Equal(t, Mask+"x", newRedactor("k+").Text("k&#43x"))
}

func BenchmarkMask(b *testing.B) {
	key := "sEcReT%k3y:@+?#é"
	r := newRedactor(key)
	clean := []byte(strings.Repeat(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"header not found"}} `, 50))
	echo := append(append([]byte{}, clean[:2000]...), url.PathEscape(key)+string(clean[2000:])...)
	b.Run("4KiB-clean", func(b *testing.B) {
		b.SetBytes(int64(len(clean)))
		b.ReportAllocs()
		for b.Loop() {
			r.Bytes(clean)
		}
	})
	b.Run("4KiB-echo", func(b *testing.B) {
		b.SetBytes(int64(len(echo)))
		b.ReportAllocs()
		for b.Loop() {
			r.Bytes(echo)
		}
	})
	url := "https://node.example/v1/" + Mask + "?a=b"
	b.Run("url-clean", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.Text(url)
		}
	})
}

// FuzzMaskText: whatever a server sends, masking never panics, Text and
// Bytes agree, and Head keeps to its length.
func FuzzMaskText(f *testing.F) {
	f.Add("k+é😀", `\ud83d\ude00 %25C3%a9 &#x2B &#43; \u{1F600} \U0001f600 \x \u &# %`)
	f.Add("a", `\ud83d\u`)
	f.Add("😀😀", `\ud83d\ude00\ud83d`)
	f.Fuzz(func(t *testing.T, key, text string) {
		if checkKey(key) != nil {
			return
		}
		r := newRedactor(key)
		got := r.Text(text)
		if b := string(r.Bytes([]byte(text))); b != got {
			t.Fatalf("Text %q, Bytes %q", got, b)
		}
		for _, n := range []int{0, 1, len(text) / 2, len(text)} {
			if h := r.Head([]byte(text), n); len(h) > n {
				t.Fatalf("Head(%d) has %d bytes", n, len(h))
			}
		}
	})
}
