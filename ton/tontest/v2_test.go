package tontest_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The default block is served with the recorded id and the recorded
// transactions, byte for byte (compacted; the recording's "@extra", a
// tonlib request tag, is not served).
func TestV2DefaultBlockIsTheRecording(t *testing.T) {
	s := start(t)
	txs := recordedBlockTxs(t)
	require.Len(t, txs, 3)
	want := `{"ok":true,"result":` + blockResult(40, false, txs...) + `}`

	r := get(t, s, pathBlock+"?"+blockQuery)
	assert.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	assert.Equal(t, want, r.body)

	// The recording itself, less @extra, compacts to the same bytes.
	rec := compactJSON(t, recorded(t, "v2_getBlockTransactionsExt_blockpi_mc39984096.json"))
	at := strings.Index(rec, `,"@extra":`)
	require.Positive(t, at)
	assert.Equal(t, rec[:at]+"}}", want)
}

// The JSON-RPC form takes the same parameters in an object (numbers as
// numbers or strings), answers the same body with jsonrpc and the id as
// sent, and no id when none was sent.
func TestV2JSONRPC(t *testing.T) {
	s := start(t)
	txs := recordedBlockTxs(t)
	for _, c := range []struct{ id, params, want string }{
		{`1`, `{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"count":40}`, `,"jsonrpc":"2.0","id":1}`},
		{`"abc"`, `{"workchain":"-1","shard":-9223372036854775808,"seqno":"39984096"}`, `,"jsonrpc":"2.0","id":"abc"}`},
		{`null`, `{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096}`, `,"jsonrpc":"2.0"}`},
	} {
		r := post(t, s, pathRPC, `{"jsonrpc":"2.0","id":`+c.id+`,"method":"getBlockTransactionsExt","params":`+c.params+`}`)
		assert.Equal(t, http.StatusOK, r.status, c.id)
		assert.Equal(t, `{"ok":true,"result":`+blockResult(40, false, txs...)+c.want, r.body, c.id)
	}
}

// Pages follow the lite server's cursor: after (after_hash = account id,
// after_lt), the account's later transactions, then the next accounts';
// incomplete is true whenever the page is full.
func TestV2Paging(t *testing.T) {
	s := start(t)
	txs := recordedBlockTxs(t)
	elector := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("3", 32)))
	configID := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("U", 32)))
	base := pathBlock + "?workchain=-1&shard=-9223372036854775808&seqno=39984096"
	for _, c := range []struct {
		query      string
		count      int
		incomplete bool
		want       []string
	}{
		{"&count=1", 1, true, txs[:1]},
		{"&count=2", 2, true, txs[:2]},
		{"&count=3", 3, true, txs}, // full page: the lite server does not look further
		{"&count=4", 4, false, txs},
		{"&count=1&after_lt=48756940000001&after_hash=" + elector, 1, true, txs[1:2]},
		{"&count=5&after_lt=48756940000001&after_hash=" + elector, 5, false, txs[1:]},
		{"&count=5&after_lt=48756940000002&after_hash=" + elector, 5, false, txs[2:]},
		{"&count=3&after_lt=48756940000003&after_hash=" + configID, 3, false, nil},
		{"&count=2&after_hash=" + elector, 2, true, txs[:2]},                                            // after_lt alone defaults to 0
		{"&count=2&after_lt=48756940000001", 2, true, txs[:2]},                                          // after_hash alone: the zero account
		{"&count=9&after_lt=0&after_hash=" + strings.ReplaceAll(configID, "/", "_"), 9, false, txs[2:]}, // base64url too
	} {
		r := get(t, s, base+c.query)
		assert.Equal(t, http.StatusOK, r.status, c.query)
		assert.Equal(t, `{"ok":true,"result":`+blockResult(c.count, c.incomplete, c.want...)+`}`, r.body, c.query)
	}
}

// An unknown block gets toncenter's lite-server error; a shard sent in hex
// is read as a decimal, so it names another (unknown) shard.
func TestV2UnknownBlock(t *testing.T) {
	s := start(t)
	for q, msg := range map[string]string{
		"?workchain=-1&shard=-9223372036854775808&seqno=39984097": "(-1,8000000000000000) seqno=39984097",
		"?workchain=-1&shard=8000000000000000&seqno=39984096":     "(-1,001c6bf526340000) seqno=39984096",
		"?workchain=0&shard=-9223372036854775808&seqno=39984096":  "(0,8000000000000000) seqno=39984096",
	} {
		r := get(t, s, pathBlock+q)
		assert.Equal(t, http.StatusInternalServerError, r.status, q)
		assert.Equal(t, `{"ok":false,"error":"LITE_SERVER_NOTREADY: cannot find block `+msg+`: seqno not in db","code":500}`, r.body, q)
	}
	r := post(t, s, pathRPC, `{"id":3,"method":"getBlockTransactionsExt","params":{"workchain":-1,"shard":"1","seqno":1}}`)
	assert.Equal(t, http.StatusInternalServerError, r.status)
	assert.Equal(t, `{"ok":false,"error":"LITE_SERVER_NOTREADY: cannot find block (-1,0000000000000001) seqno=1: seqno not in db","code":500}`, r.body)
}

// Bad parameters get 422 in the v2 form (with the JSON-RPC members in the
// JSON-RPC form).
func TestV2BadParameters(t *testing.T) {
	s := start(t)
	const ok = "workchain=-1&shard=-9223372036854775808&seqno=39984096"
	for q, msg := range map[string]string{
		"shard=-9223372036854775808&seqno=39984096":      "query -> workchain: field required",
		"workchain=-1&seqno=39984096":                    "query -> shard: field required",
		"workchain=-1&shard=-9223372036854775808":        "query -> seqno: field required",
		"workchain=x&shard=1&seqno=1":                    "query -> workchain: value is not a valid integer",
		"workchain=-1&shard=0x8000000000000000&seqno=1":  "query -> shard: value is not a valid integer",
		"workchain=-1&shard=9223372036854775808&seqno=1": "query -> shard: value is not a valid integer",
		"workchain=-1&shard=1&seqno=-1":                  "query -> seqno: value is not a valid block seqno",
		ok + "&count=0":                                  "query -> count: ensure this value is greater than 0",
		ok + "&count=ten":                                "query -> count: value is not a valid integer",
		ok + "&after_lt=-5":                              "query -> after_lt: value is not a valid integer",
		ok + "&after_hash=MzMz":                          "query -> after_hash: not a 32-byte account id (64 hex digits, base64, base64url or an address)",
	} {
		r := get(t, s, pathBlock+"?"+q)
		assert.Equal(t, http.StatusUnprocessableEntity, r.status, q)
		assert.Equal(t, `{"ok":false,"error":"Validation error: `+msg+`","code":422}`, r.body, q)
	}
	for body, want := range map[string]string{
		`{"id":1,"method":"getBlockTransactionsExt","params":{"shard":"1","seqno":1}}`:                    `{"ok":false,"error":"Validation error: params -> workchain: field required","code":422,"jsonrpc":"2.0","id":1}`,
		`{"id":"x","method":"getBlockTransactionsExt","params":{"workchain":true,"shard":"1","seqno":1}}`: `{"ok":false,"error":"Validation error: params -> workchain: not a number or a string","code":422,"jsonrpc":"2.0","id":"x"}`,
		`{"id":2,"method":"getMasterchainInfo","params":{}}`:                                              `{"ok":false,"error":"Unknown method","code":422,"jsonrpc":"2.0","id":2}`,
		`{"id":2,"params":{}}`: `{"ok":false,"error":"Validation error: body -> method: field required","code":422,"jsonrpc":"2.0","id":2}`,
		`{"id":2,"method":"getBlockTransactionsExt","params":[1]}`: `{"ok":false,"error":"Validation error: body: value is not a valid JSON-RPC request","code":422}`,
		`not json`: `{"ok":false,"error":"Validation error: body: value is not a valid JSON-RPC request","code":422}`,
	} {
		r := post(t, s, pathRPC, body)
		assert.Equal(t, http.StatusUnprocessableEntity, r.status, body)
		assert.Equal(t, want, r.body, body)
	}
}

// getBlockTransactionsExt is a GET, jsonRPC a POST: the other method gets
// 405 with Allow, in the v2 form.
func TestV2WrongMethod(t *testing.T) {
	s := start(t)
	r := post(t, s, pathBlock+"?"+blockQuery, "{}")
	assert.Equal(t, http.StatusMethodNotAllowed, r.status)
	assert.Contains(t, r.header.Get("Allow"), "GET")
	assert.Equal(t, `{"ok":false,"error":"Method Not Allowed","code":405}`, r.body)
	r = get(t, s, pathRPC)
	assert.Equal(t, http.StatusMethodNotAllowed, r.status)
	assert.Equal(t, "POST", r.header.Get("Allow"))
}

// root_hash and file_hash, sent together, name the block: its own hashes
// answer as the seqno alone does, others as an unknown block; one alone is
// ignored, as toncenter ignores it; a malformed one is a 422.
func TestV2BlockHashes(t *testing.T) {
	s := start(t)
	txs := recordedBlockTxs(t)
	want := `{"ok":true,"result":` + blockResult(40, false, txs...) + `}`
	const (
		root  = "b26%2FPw8BYz6VY7RyYB%2Fw2Nf8pKBebsg%2BH4rT1pH5ZEM%3D"
		file  = "lLylrj7eZn0TSNxpg4yovJJ4x%2FILgeeJ3byS6MFVTJw%3D"
		other = "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc%3D"
	)
	for _, c := range []struct {
		query  string
		status int
		body   string
	}{
		{"&root_hash=" + root + "&file_hash=" + file, http.StatusOK, want},
		{"&root_hash=" + root, http.StatusOK, want},
		{"&file_hash=" + other, http.StatusOK, want},
		{"&root_hash=" + other + "&file_hash=" + file, http.StatusInternalServerError, "seqno not in db"},
		{"&root_hash=" + root + "&file_hash=" + other, http.StatusInternalServerError, "seqno not in db"},
		{"&root_hash=xyz&file_hash=" + file, http.StatusUnprocessableEntity, "query -> root_hash"},
	} {
		r := get(t, s, pathBlock+"?"+blockQuery+c.query)
		assert.Equal(t, c.status, r.status, c.query)
		assert.Contains(t, r.body, c.body, c.query)
	}
	r := post(t, s, pathRPC, `{"jsonrpc":"2.0","id":1,"method":"getBlockTransactionsExt","params":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"root_hash":"b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM=","file_hash":"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="}}`)
	assert.Equal(t, http.StatusInternalServerError, r.status)
}
