package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/nodeaccess/nodeaccess"
)

var envelopeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"result":"0x"}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":3,"message":"execution reverted: nope","data":"0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000046e6f706500000000000000000000000000000000000000000000000000000000"}}`,
	`{"jsonrpc":"2.0","id":7,"result":[{"type":0,"from":"0x00000000219ab540356cbb839cbe05303d7705fa","to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","value":"0x1"}]}`,
	`{"jsonrpc":"2.0","id":2,"result":{"s":"}{][\"\\","a":[{"b":"]"},[[],{}]],"n":-1.5e+3,"t":true,"f":false,"z":null}}`,
	"{\n  \"id\" : 12 ,\r\n\t\"result\" : \"0x1\" ,\"jsonrpc\":\"2.0\"}\n",
	`{"\u006asonrpc":"2.0","\u0069d":1,"res\u0075lt":"0x1"}`,
	`{"jsonrpc":"2.0","id":1,"x\"y":{"result":1},"result":"\u00e9\ud83d\ude00"}`,
	`{"jsonrpc":"2.0","id":1,"result":1,"result":2,"id":"2"}`,
	`{"id":1,"jsonrpc":"2.0","error":{"code":-32005,"message":"limit","data":{"see":"https://x/{key}"}}}`,
	`{}`, ` { } `, `[]`, `null`, `"x"`, `1`, ``, `{`, `{"jsonrpc":"2.0","id":1,"result":"0x`,
	`[{"jsonrpc":"2.0","id":1,"result":"0x"}]`, `<html></html>`,
}

// FuzzParseEnvelope compares parseEnvelope with encoding/json: for a valid
// JSON object the members it finds are the ones a map decoding finds; for
// anything else it returns an error; it never panics.
func FuzzParseEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		env, err := parseEnvelope(body)
		if !json.Valid(body) {
			if err == nil {
				t.Fatalf("invalid JSON accepted: %q", body)
			}
			return
		}
		trimmed := bytes.TrimLeft(body, " \t\r\n")
		if trimmed[0] != '{' {
			if err == nil {
				t.Fatalf("non-object accepted: %q", body)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid object rejected: %v: %q", err, body)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("encoding/json rejects a valid object: %v", err)
		}
		for _, mem := range []struct {
			name string
			got  []byte
		}{{"jsonrpc", env.version}, {"id", env.id}, {"result", env.result}, {"error", env.errObj}} {
			want, ok := m[mem.name]
			if ok != (mem.got != nil) {
				t.Fatalf("member %s: present %v, encoding/json says %v: %q", mem.name, mem.got != nil, ok, body)
			}
			if ok && !bytes.Equal(compact(t, mem.got), compact(t, want)) {
				t.Fatalf("member %s: got %s, want %s: %q", mem.name, mem.got, want, body)
			}
		}
	})
}

func compact(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("member is not valid JSON: %v: %q", err, b)
	}
	return buf.Bytes()
}

// chunkReader returns data in chunks whose sizes follow sizes, optionally
// with io.EOF on the last chunk, then fails with end.
type chunkReader struct {
	data     []byte
	sizes    []byte
	eofEarly bool
	end      error
	i        int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.end
	}
	n := 1
	if len(r.sizes) > 0 {
		n = int(r.sizes[r.i%len(r.sizes)]) + 1
		r.i++
	}
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	if len(r.data) == 0 && r.eofEarly {
		return n, r.end
	}
	return n, nil
}

var errBroken = errors.New("broken")

// FuzzReadCapped checks readCapped and capReader: never more than the
// limit, "over" exactly when the body is longer than the limit, and read
// errors passed on.
func FuzzReadCapped(f *testing.F) {
	f.Add([]byte("hello world"), int64(5), []byte{0, 3}, false, false)
	f.Add([]byte("hello"), int64(5), []byte{255}, true, false)
	f.Add([]byte("hello"), int64(0), []byte{}, false, true)
	f.Add([]byte(""), int64(0), []byte{1}, true, false)
	f.Add(bytes.Repeat([]byte("x"), 300), int64(256), []byte{200, 7}, true, true)
	f.Add([]byte("abc"), int64(-1), []byte{0}, false, false)
	f.Fuzz(func(t *testing.T, data []byte, limit int64, sizes []byte, eofEarly, broken bool) {
		if limit < 0 {
			limit = math.MaxInt64 - (-(limit + 1) % 3) // near the top of the range
		}
		end := io.EOF
		if broken {
			end = errBroken
		}
		over := int64(len(data)) > limit
		want := data
		if over {
			want = data[:limit]
		}

		for _, prefill := range [][]byte{nil, make([]byte, 0, 3), make([]byte, 0, 4096)} {
			r := &chunkReader{data: data, sizes: sizes, eofEarly: eofEarly, end: end}
			body, gotOver, err := readCapped(prefill, r, limit)
			if int64(len(body)) > limit {
				t.Fatalf("readCapped returned %d bytes over the %d limit", len(body), limit)
			}
			if gotOver != over {
				t.Fatalf("over = %v for %d bytes and limit %d", gotOver, len(data), limit)
			}
			if !bytes.Equal(body, want) {
				t.Fatalf("body %q, want %q", body, want)
			}
			switch {
			case over && err != nil:
				t.Fatalf("over with error %v", err)
			case !over && broken && !errors.Is(err, errBroken):
				t.Fatalf("read error lost: %v", err)
			case !over && !broken && err != nil:
				t.Fatalf("error at EOF: %v", err)
			}
		}

		r := &chunkReader{data: data, sizes: sizes, eofEarly: eofEarly, end: end}
		cr := &capReader{r: r, left: limit}
		got, err := io.ReadAll(cr)
		if !bytes.Equal(got, want) {
			t.Fatalf("capReader read %q, want %q", got, want)
		}
		switch {
		case over:
			if !cr.over || !errors.Is(err, nodeaccess.ErrResponseTooLarge) {
				t.Fatalf("capReader over: %v, err %v", cr.over, err)
			}
		case broken:
			if cr.over || !errors.Is(err, errBroken) || !errors.Is(cr.err, errBroken) {
				t.Fatalf("capReader lost the error: %v", err)
			}
		default:
			if cr.over || err != nil {
				t.Fatalf("capReader at EOF: over %v, err %v", cr.over, err)
			}
		}
		if limit-cr.left != int64(len(got)) {
			t.Fatalf("capReader counted %d, read %d", limit-cr.left, len(got))
		}
	})
}
