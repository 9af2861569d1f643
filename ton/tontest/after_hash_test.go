package tontest_test

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
)

// after_hash in every form toncenter's servers read (ton-http-api-cpp,
// src/userver/chaotic/io/ton_http/types/ton_hash.cpp and
// ton_addr_without_workchain.cpp: 64 hex digits, 44 characters of base64
// or base64url, 43 of unpadded base64url, or an account address; pytonlib's
// hash_to_hex: 44 or 64 characters) names the same account id and so the
// same page, over REST and JSON-RPC. The ids are chosen so that their
// base64 has '+' and '/' (and '-' and '_' in base64url) and their hex has
// letters, which upper case changes.
func TestV2AfterHashForms(t *testing.T) {
	s := start(t)
	txs := recordedBlockTxs(t)
	base := pathBlock + "?workchain=-1&shard=-9223372036854775808&seqno=39984096&count=5"
	elector := []byte(strings.Repeat("3", 32))                   // -1:3333…: its transaction at lt 48756940000001 is the first
	odd := append([]byte{0xfb, 0xff, 0xbf}, make([]byte, 29)...) // above every account of the block
	for _, c := range []struct {
		id   []byte
		lt   string
		want []string
	}{
		{elector, "48756940000001", txs[1:]},
		{odd, "0", nil},
	} {
		forms := map[string]string{
			"hex lower":        hex.EncodeToString(c.id),
			"hex upper":        strings.ToUpper(hex.EncodeToString(c.id)),
			"base64":           base64.StdEncoding.EncodeToString(c.id),
			"base64url":        base64.URLEncoding.EncodeToString(c.id),
			"base64url no pad": base64.RawURLEncoding.EncodeToString(c.id),
			"raw address":      "-1:" + hex.EncodeToString(c.id),
			"friendly address": ton.Address{Workchain: -1, ID: [32]byte(c.id)}.Friendly(true, false).String(),
		}
		for name, v := range forms {
			r := get(t, s, base+"&after_lt="+c.lt+"&after_hash="+url.QueryEscape(v))
			assert.Equal(t, http.StatusOK, r.status, "%s %q: %s", name, v, r.body)
			assert.Equal(t, `{"ok":true,"result":`+blockResult(5, false, c.want...)+`}`, r.body, "%s %q", name, v)

			rpc := post(t, s, pathRPC, `{"id":1,"method":"getBlockTransactionsExt","params":{"workchain":-1,"shard":"-9223372036854775808","seqno":39984096,"count":5,"after_lt":`+c.lt+`,"after_hash":"`+v+`"}}`)
			assert.Equal(t, http.StatusOK, rpc.status, "JSON-RPC %s %q: %s", name, v, rpc.body)
			assert.Contains(t, rpc.body, blockResult(5, false, c.want...), "JSON-RPC %s %q", name, v)
		}
	}
}

// Values that are none of the forms get the 422, naming the forms.
func TestV2AfterHashRefused(t *testing.T) {
	s := start(t)
	const ok = "workchain=-1&shard=-9223372036854775808&seqno=39984096&after_lt=1"
	h := strings.Repeat("ab", 32)
	for _, v := range []string{
		"MzMz",        // base64 of 3 bytes
		h[:62],        // 31 bytes of hex
		h + "ab",      // 33 bytes of hex
		h[:63] + "g",  // not a hex digit
		"0x" + h[:62], // a 0x prefix
		base64.StdEncoding.EncodeToString(make([]byte, 33)),
		strings.Repeat("*", 44),
		"-1:" + h[:62],
	} {
		r := get(t, s, pathBlock+"?"+ok+"&after_hash="+url.QueryEscape(v))
		assert.Equal(t, http.StatusUnprocessableEntity, r.status, v)
		assert.Equal(t, `{"ok":false,"error":"Validation error: query -> after_hash: not a 32-byte account id (64 hex digits, base64, base64url or an address)","code":422}`, r.body, v)
	}
}
