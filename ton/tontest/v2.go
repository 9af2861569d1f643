package tontest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"

	"github.com/nodeaccess/nodeaccess/ton"
)

// defaultCount is getBlockTransactionsExt's count when none is sent.
const defaultCount = 40

// maxRPCBody bounds the JSON-RPC request bodies the server reads.
const maxRPCBody = 1 << 20

// blockQuery is a getBlockTransactionsExt request: the block and the page.
type blockQuery struct {
	ref          ton.BlockRef
	count        int
	afterAccount [32]byte // after_hash: the account id of the last transaction seen
	afterLT      uint64   // after_lt
	// rootHash and fileHash name the block by hash when both were sent
	// (toncenter then skips its lookup by seqno, and uses them as given).
	rootHash, fileHash ton.Hash
	byHash             bool
}

// paramFunc returns a request parameter as text and whether it was sent.
type paramFunc func(name string) (string, bool)

// parseBlockQuery reads the parameters of getBlockTransactionsExt as
// toncenter does: workchain, shard (a signed 64-bit decimal) and seqno are
// required; count defaults to 40; after_lt and after_hash (the account
// id: hex, base64 or an address, see parseAfterHash) continue after a
// transaction, each defaulting to zero when
// the other is sent alone. loc names where the parameters are ("query",
// "params") in error messages.
func parseBlockQuery(get paramFunc, loc string) (blockQuery, error) {
	var q blockQuery
	integer := func(name string, bits int, required bool) (int64, bool, error) {
		s, ok := get(name)
		if !ok {
			if required {
				return 0, false, invalid(loc, name, "field required")
			}
			return 0, false, nil
		}
		v, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return 0, false, invalid(loc, name, "value is not a valid integer")
		}
		return v, true, nil
	}
	wc, _, err := integer("workchain", 32, true)
	if err != nil {
		return q, err
	}
	shard, _, err := integer("shard", 64, true)
	if err != nil {
		return q, err
	}
	seqno, _, err := integer("seqno", 64, true)
	if err != nil {
		return q, err
	}
	if seqno < 0 || seqno > math.MaxUint32 {
		return q, invalid(loc, "seqno", "value is not a valid block seqno")
	}
	q.ref = ton.BlockRef{Workchain: int32(wc), Shard: ton.ShardID(shard), Seqno: uint32(seqno)}
	count, sent, err := integer("count", 32, false)
	switch {
	case err != nil:
		return q, err
	case !sent:
		q.count = defaultCount
	case count < 1:
		return q, invalid(loc, "count", "ensure this value is greater than 0")
	default:
		q.count = int(count)
	}
	if s, ok := get("after_lt"); ok {
		if q.afterLT, err = strconv.ParseUint(s, 10, 64); err != nil {
			return q, invalid(loc, "after_lt", "value is not a valid integer")
		}
	}
	if s, ok := get("after_hash"); ok {
		id, ok := parseAfterHash(s)
		if !ok {
			return q, invalid(loc, "after_hash", "not a 32-byte account id (64 hex digits, base64, base64url or an address)")
		}
		q.afterAccount = id
	}
	var hashSent [2]bool
	for i, name := range []string{"root_hash", "file_hash"} {
		s, ok := get(name)
		if !ok || s == "" {
			continue
		}
		h, err := ton.ParseHash(s)
		if err != nil {
			return q, invalid(loc, name, "not a 32-byte hash (base64, base64url or 64 hex digits)")
		}
		if i == 0 {
			q.rootHash = h
		} else {
			q.fileHash = h
		}
		hashSent[i] = true
	}
	// Like toncenter, one hash without the other is ignored: the block is
	// looked up by seqno.
	q.byHash = hashSent[0] && hashSent[1]
	return q, nil
}

// hasHashes reports whether the block's id names root and file.
func (rec *blockRec) hasHashes(root, file ton.Hash) bool {
	var id struct {
		RootHash ton.Hash `json:"root_hash"`
		FileHash ton.Hash `json:"file_hash"`
	}
	if err := json.Unmarshal(rec.idJSON, &id); err != nil {
		return false
	}
	return id.RootHash == root && id.FileHash == file
}

// parseAfterHash reads the account id of after_hash in the forms toncenter
// reads it (ton-http-api-cpp's ton_hash and ton_addr_without_workchain;
// pytonlib's hash_to_hex): 64 hex digits in either case, 44 characters of
// base64 or base64url, 43 of unpadded base64url, or an account address
// (raw or user-friendly), of which the id counts.
func parseAfterHash(s string) (id [32]byte, ok bool) {
	var b []byte
	var err error
	switch len(s) {
	case 64:
		b, err = hex.DecodeString(s)
	case 44:
		if b, err = base64.StdEncoding.DecodeString(s); err != nil {
			b, err = base64.URLEncoding.DecodeString(s)
		}
	case 43:
		b, err = base64.RawURLEncoding.DecodeString(s)
	default:
		a, aerr := ton.ParseAddress(s)
		if aerr != nil {
			return id, false
		}
		return a.ID, true
	}
	if err != nil || len(b) != 32 {
		return id, false
	}
	return [32]byte(b), true
}

// page returns the transactions of the block after the cursor, at most
// count of them, and whether the block is incomplete. It follows the lite
// server (listBlockTransactionsExt, which toncenter calls with the cursor
// {account: after_hash, lt: after_lt}): the transactions of the cursor's
// account with a logical time above after_lt, then those of the accounts
// after it, in account id order. incomplete is true when the page is full:
// the lite server stops at count without looking further, so a block of
// exactly count transactions left says incomplete, and the next page is
// empty and complete.
func (rec *blockRec) page(q blockQuery) (txs []txRec, incomplete bool) {
	i := sort.Search(len(rec.txs), func(i int) bool {
		c := bytes.Compare(rec.txs[i].account.ID[:], q.afterAccount[:])
		return c > 0 || c == 0 && rec.txs[i].lt > q.afterLT
	})
	end := len(rec.txs)
	if end-i > q.count {
		end = i + q.count
	}
	return rec.txs[i:end], end-i == q.count
}

// writeV2Failure answers a failed v2 call: 422 for a bad parameter, 500 for
// a lite server's or tonlib's failure (an unknown or lagging block, an
// unreadable transaction), in the {"ok":false,…} form; rpc holds the
// JSON-RPC members to add to a 422 (toncenter answers bad JSON-RPC
// parameters in the JSON-RPC response, other failures in the plain v2
// form, without jsonrpc and id).
func writeV2Failure(w http.ResponseWriter, err error, rpc []byte) {
	status, msg := statusOf(err)
	b := appendV2Error(nil, status, msg)
	if status == http.StatusUnprocessableEntity && rpc != nil {
		b = append(b[:len(b)-1], rpc...)
		b = append(b, '}')
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// serveBlockREST answers GET /api/v2/{key}/getBlockTransactionsExt.
func (s *Server) serveBlockREST(w http.ResponseWriter, r *http.Request) {
	s.serveREST(w, r, methodExt)
}

// serveIDsREST answers GET /api/v2/{key}/getBlockTransactions.
func (s *Server) serveIDsREST(w http.ResponseWriter, r *http.Request) {
	s.serveREST(w, r, methodIDs)
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request, method string) {
	query := r.URL.Query()
	q, err := parseBlockQuery(func(name string) (string, bool) {
		v, ok := query[name]
		if !ok || len(v) == 0 {
			return "", false
		}
		return v[0], true
	}, "query")
	if err != nil {
		writeV2Failure(w, err, nil)
		return
	}
	res, err := s.blockResult(method, q)
	if err != nil {
		writeV2Failure(w, err, nil)
		return
	}
	writeJSON(w, append(append([]byte(`{"ok":true,"result":`), res...), '}'))
}

// serveBlockRPC answers POST /api/v2/{key}/jsonRPC: the methods
// getBlockTransactionsExt and getBlockTransactions with their parameters
// in an object, numbers sent as JSON numbers or strings. The answer is the v2 body with the JSON-RPC
// members added: {"ok":true,"result":{…},"jsonrpc":"2.0","id":<the request's id>}.
func (s *Server) serveBlockRPC(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRPCBody))
	if err != nil {
		writeV2Failure(w, &failure{status: http.StatusUnprocessableEntity, msg: "Validation error: body: cannot be read (at most 1 MiB)"}, nil)
		return
	}
	var req struct {
		ID     json.RawMessage            `json:"id"`
		Method *string                    `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		writeV2Failure(w, &failure{status: http.StatusUnprocessableEntity, msg: "Validation error: body: value is not a valid JSON-RPC request"}, nil)
		return
	}
	rpc := []byte(`,"jsonrpc":"2.0"`)
	if id := bytes.TrimSpace(req.ID); len(id) > 0 && string(id) != "null" {
		rpc = append(append(rpc, `,"id":`...), compact(id)...)
	}
	switch {
	case req.Method == nil:
		writeV2Failure(w, invalid("body", "method", "field required"), rpc)
		return
	case *req.Method != methodExt && *req.Method != methodIDs:
		// toncenter's answer for a method it does not know; this server
		// knows only these two.
		writeV2Failure(w, &failure{status: http.StatusUnprocessableEntity, msg: "Unknown method"}, rpc)
		return
	}
	var bad error
	q, err := parseBlockQuery(func(name string) (string, bool) {
		v := bytes.TrimSpace(req.Params[name])
		switch {
		case len(v) == 0 || string(v) == "null":
			return "", false
		case v[0] == '"':
			var s string
			if json.Unmarshal(v, &s) != nil {
				bad = invalid("params", name, "not a string")
			}
			return s, true
		case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
			return string(v), true // a JSON number: its digits
		}
		bad = invalid("params", name, "not a number or a string")
		return "", true
	}, "params")
	if bad != nil {
		err = bad
	}
	if err != nil {
		writeV2Failure(w, err, rpc)
		return
	}
	res, err := s.blockResult(*req.Method, q)
	if err != nil {
		writeV2Failure(w, err, rpc)
		return
	}
	out := append([]byte(`{"ok":true,"result":`), res...)
	out = append(out, rpc...)
	writeJSON(w, append(out, '}'))
}
