package hypertest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/hyper/hypertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	testKey         = "t3st-KEY_0.x~y"
	defaultUserText = "0x2b804617c6f63c040377e95bb276811747006f4b"
	unsupported     = "Failed to deserialize the JSON body into the target type"
	xyzBody         = `{"xyz:CL":"60.123","xyz:GOLD":"4210.25"}`
)

// start returns a server with the test key, closed when the test ends.
func start(t *testing.T, opts ...hypertest.Option) *hypertest.Server {
	t.Helper()
	srv, err := hypertest.New(append([]hypertest.Option{hypertest.WithKey(testKey)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	return srv
}

// answer is one raw HTTP response.
type answer struct {
	status int
	ctype  string
	body   string
	header http.Header
}

// post sends body to url with the given Content-Type ("" for none) and
// returns the whole answer.
func post(t *testing.T, method, url, ctype, body string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return answer{status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), body: string(b), header: resp.Header}
}

func postJSON(t *testing.T, url, body string) answer {
	t.Helper()
	return post(t, http.MethodPost, url, "application/json", body)
}

func readData(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("data/" + name)
	require.NoError(t, err)
	return string(b)
}

// The embedded vault equities are the recorded body of the hyper package,
// byte for byte.
func TestDataIsTheRecordedFixtures(t *testing.T) {
	ours := readData(t, "userVaultEquities_2025-08.json")
	theirs, err := os.ReadFile("../testdata/userVaultEquities_2025-08.json")
	require.NoError(t, err)
	assert.Equal(t, string(theirs), ours)
}

// The bodies the hyper client sends, posted raw: exact answers.
func TestWireExactAnswers(t *testing.T) {
	srv := start(t)
	node := srv.URL + "/" + testKey + "/info"
	public := srv.Public.URL + "/info"
	equities := readData(t, "userVaultEquities_2025-08.json")
	// The recorded body, byte for byte, after the hand-written outcome sides.
	mids := `{"#10":"0.735","#11":"0.265","#20":"0.5125","#21":"0.4875",` + readData(t, "allMids_2025-12_filtered.json")[1:]

	for _, tc := range []struct {
		name, url, body, want string
	}{
		{"node vaults", node, `{"type":"userVaultEquities","user":"` + defaultUserText + `"}`, equities},
		{"public vaults", public, `{"type":"userVaultEquities","user":"` + defaultUserText + `"}`, equities},
		{"upper-case hex", node, `{"type":"userVaultEquities","user":"0x2B804617C6F63C040377E95BB276811747006F4B"}`, equities},
		{"checksummed", node, `{"type":"userVaultEquities","user":"0x2b804617C6f63c040377E95bB276811747006F4b"}`, equities},
		{"members ignored", node, `{"user":"` + defaultUserText + `","extra":[1,{}],"type":"userVaultEquities"}`, equities},
		{"user without vaults", node, `{"type":"userVaultEquities","user":"0x0000000000000000000000000000000000000001"}`, `[]`},
		{"mids", public, `{"type":"allMids"}`, mids},
		{"mids dex empty", public, `{"type":"allMids","dex":""}`, mids},
		{"mids dex null", public, `{"type":"allMids","dex":null}`, mids},
		{"mids xyz", public, `{"type":"allMids","dex":"xyz"}`, xyzBody},
		{"mids unknown dex", public, `{"type":"allMids","dex":"nope"}`, `null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := postJSON(t, tc.url, tc.body)
			assert.Equal(t, http.StatusOK, got.status)
			assert.Equal(t, "application/json", got.ctype)
			assert.Equal(t, tc.want, got.body)
		})
	}
}

// What the hyper client sends is exactly the bodies above, to exactly these
// paths, and the server accepts it.
func TestWireClientRequests(t *testing.T) {
	srv := start(t)
	rec := &sentRecorder{next: http.DefaultTransport}
	c, err := srv.Client(nodeaccess.WithRoundTripper(rec))
	require.NoError(t, err)
	ctx := context.Background()

	_, err = c.UserVaultEquities(ctx, hypertest.DefaultUser())
	require.NoError(t, err)
	_, err = c.AllMids(ctx, "")
	require.NoError(t, err)
	_, err = c.AllMids(ctx, hypertest.BuilderDex)
	require.NoError(t, err)

	assert.Equal(t, []sent{
		{srv.URL + "/" + testKey + "/info", "application/json", `{"type":"userVaultEquities","user":"` + defaultUserText + `"}`, 200},
		{srv.Public.URL + "/info", "application/json", `{"type":"allMids"}`, 200},
		{srv.Public.URL + "/info", "application/json", `{"type":"allMids","dex":"xyz"}`, 200},
	}, rec.all())
	assert.Equal(t, 1, srv.Requests())
	assert.Equal(t, 2, srv.Public.Requests())
}

type sent struct {
	url, ctype, body string
	status           int
}

// sentRecorder records each request a client sends and the status it got.
type sentRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	got  []sent
}

func (r *sentRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := r.next.RoundTrip(req)
	s := sent{url: req.URL.String(), ctype: req.Header.Get("Content-Type"), body: string(body)}
	if resp != nil {
		s.status = resp.StatusCode
	}
	r.mu.Lock()
	r.got = append(r.got, s)
	r.mu.Unlock()
	return resp, err
}

func (r *sentRecorder) all() []sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sent(nil), r.got...)
}

// Malformed bodies and unserved types: 422 with the exact text, as
// Hyperliquid answers them.
func TestWireUnprocessable(t *testing.T) {
	srv := start(t)
	node := srv.URL + "/" + testKey + "/info"
	public := srv.Public.URL + "/info"
	user := `"user":"` + defaultUserText + `"`
	for _, tc := range []struct {
		name, url, body string
	}{
		{"allMids on the node", node, `{"type":"allMids"}`},
		{"allMids with dex on the node", node, `{"type":"allMids","dex":"xyz"}`},
		{"unserved type on the node", node, `{"type":"l2Book","coin":"BTC"}`},
		{"meta with dex a number", public, `{"type":"meta","dex":1}`},
		{"unserved type on the public API", public, `{"type":"clearinghouseStatus",` + user + `}`},
		{"type in another case", node, `{"type":"UserVaultEquities",` + user + `}`},
		{"not JSON", node, `{"type":"userVaultEquities",`},
		{"empty body", node, ``},
		{"null", node, `null`},
		{"array", node, `[{"type":"userVaultEquities",` + user + `}]`},
		{"no type", node, `{` + user + `}`},
		{"type null", node, `{"type":null,` + user + `}`},
		{"type not a string", node, `{"type":1,` + user + `}`},
		{"no user", node, `{"type":"userVaultEquities"}`},
		{"user null", node, `{"type":"userVaultEquities","user":null}`},
		{"user a number", node, `{"type":"userVaultEquities","user":12}`},
		{"user short", node, `{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4"}`},
		{"user long", node, `{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4b0"}`},
		{"user without 0x", node, `{"type":"userVaultEquities","user":"002b804617c6f63c040377e95bb276811747006f4b"}`},
		{"user not hex", node, `{"type":"userVaultEquities","user":"0x2b804617c6f63c040377e95bb276811747006f4g"}`},
		{"user on public not hex", public, `{"type":"userVaultEquities","user":"0xzz804617c6f63c040377e95bb276811747006f4b"}`},
		{"dex a number", public, `{"type":"allMids","dex":7}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := postJSON(t, tc.url, tc.body)
			assert.Equal(t, http.StatusUnprocessableEntity, got.status)
			assert.Equal(t, "text/plain; charset=utf-8", got.ctype)
			assert.Equal(t, unsupported, got.body)
		})
	}
}

// The wrong key, unknown paths, methods and content types.
func TestWireRefusals(t *testing.T) {
	srv := start(t)
	for _, tc := range []struct {
		name, method, url, ctype string
		status                   int
		body                     string
	}{
		{"wrong key", "POST", srv.URL + "/wrong-key/info", "application/json", 403, "invalid access key"},
		{"key prefix", "POST", srv.URL + "/" + testKey[:5] + "/info", "application/json", 403, "invalid access key"},
		{"key and more", "POST", srv.URL + "/" + testKey + "x/info", "application/json", 403, "invalid access key"},
		{"no key", "POST", srv.URL + "/info", "application/json", 404, "not found"},
		{"EVM with the wrong key", "POST", srv.URL + "/wrong-key/evm", "application/json", 403, "invalid access key"},
		{"GET on the EVM", "GET", srv.URL + "/" + testKey + "/evm", "", 405, "method not allowed"},
		{"EVM on the public API", "POST", srv.Public.URL + "/evm", "application/json", 404, "not found"},
		{"exchange", "POST", srv.URL + "/" + testKey + "/exchange", "application/json", 404, "not found"},
		{"public with a key", "POST", srv.Public.URL + "/" + testKey + "/info", "application/json", 404, "not found"},
		{"public root", "POST", srv.Public.URL + "/", "application/json", 404, "not found"},
		{"GET on the node", "GET", srv.URL + "/" + testKey + "/info", "", 405, "method not allowed"},
		{"GET on the public API", "GET", srv.Public.URL + "/info", "", 405, "method not allowed"},
		{"no content type", "POST", srv.URL + "/" + testKey + "/info", "", 415, "Expected request with `Content-Type: application/json`"},
		{"form content type", "POST", srv.Public.URL + "/info", "application/x-www-form-urlencoded", 415, "Expected request with `Content-Type: application/json`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := post(t, tc.method, tc.url, tc.ctype, `{"type":"allMids"}`)
			assert.Equal(t, tc.status, got.status)
			assert.Equal(t, "text/plain; charset=utf-8", got.ctype)
			assert.Equal(t, tc.body, got.body)
			if tc.status == 405 {
				assert.Equal(t, "POST", got.header.Get("Allow"))
			}
		})
	}
	// JSON with parameters and +json types are JSON.
	for _, ct := range []string{"application/json; charset=utf-8", "application/vnd.api+json"} {
		got := post(t, "POST", srv.Public.URL+"/info", ct, `{"type":"allMids","dex":"xyz"}`)
		assert.Equal(t, 200, got.status, ct)
		assert.Equal(t, xyzBody, got.body, ct)
	}
}

// A body over the server's limit is refused with 413.
func TestWireBodyTooLarge(t *testing.T) {
	srv := start(t)
	big := `{"type":"allMids","pad":"` + strings.Repeat("x", 1<<20) + `"}`
	got := postJSON(t, srv.Public.URL+"/info", big)
	assert.Equal(t, http.StatusRequestEntityTooLarge, got.status)
	assert.Equal(t, "Failed to buffer the request body: length limit exceeded", got.body)
}
