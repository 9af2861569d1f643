package tontest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
)

// The v2 methods of the chain (WithChain).
const (
	methodInfo      = "getMasterchainInfo"
	methodShards    = "shards"
	methodGetShards = "getShards"
	methodHeader    = "getBlockHeader"
)

func isChainMethod(m string) bool {
	return m == methodInfo || m == methodShards || m == methodGetShards || m == methodHeader
}

// Close stops the chain's clock (WithChain), then the server (the embedded
// nodeaccesstest.Server's Close).
func (s *Server) Close() {
	if c := s.chain; c != nil && c.stop != nil {
		c.mu.Lock()
		select {
		case <-c.stop:
		default:
			close(c.stop)
		}
		c.mu.Unlock()
		<-c.done
	}
	s.Server.Close()
}

// serveChainREST answers GET /api/v2/{key}/<method> for the chain's methods.
func (s *Server) serveChainREST(method string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		query := r.URL.Query()
		res, err := s.chainResult(method, func(name string) (string, bool) {
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
		writeJSON(w, append(append([]byte(`{"ok":true,"result":`), res...), '}'))
	}
}

// chainResult answers one of the chain's methods.
func (s *Server) chainResult(method string, get paramFunc, loc string) ([]byte, error) {
	c := s.chain
	switch method {
	case methodInfo:
		c.mu.Lock()
		last, init := c.mc[len(c.mc)-1], c.mc[0]
		c.mu.Unlock()
		return renderObject([]member{
			{"@type", jsonString("blocks.masterchainInfo")},
			{"last", renderBlockIDExt(last)},
			{"state_root_hash", jsonString(last.RootHash.String())},
			{"init", renderBlockIDExt(init)},
		}, nil), nil
	case methodShards, methodGetShards:
		seqno, err := uintParam(get, loc, "seqno")
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		var tops []ton.BlockID
		known := seqno < uint64(len(c.tops))
		if known {
			tops = c.tops[seqno]
		}
		c.mu.Unlock()
		if seqno == 0 {
			// toncenter's C++ server; the Python one refuses it too.
			return nil, &failure{status: http.StatusUnprocessableEntity, msg: "seqno should be positive"}
		}
		if !known {
			return nil, notInDB(ton.MasterchainBlock(uint32(min(seqno, 1<<32-1))), false, 0)
		}
		b := []byte(`{"@type":"blocks.shards","shards":[`)
		for i, t := range tops {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, renderBlockIDExt(t)...)
		}
		return append(b, "]}"...), nil
	}
	q, err := parseBlockQuery(get, loc)
	if err != nil {
		return nil, err
	}
	if q.ref.Seqno == 0 {
		return nil, &failure{status: http.StatusUnprocessableEntity, msg: "seqno should be positive"}
	}
	c.mu.Lock()
	h, ok := c.headers[q.ref]
	c.mu.Unlock()
	rec := s.data.block(q.ref)
	if !ok || rec == nil || q.byHash && (q.rootHash != h.id.RootHash || q.fileHash != h.id.FileHash) {
		return nil, notInDB(q.ref, false, 0)
	}
	if s.lag > 0 && time.Since(rec.setAt) < s.lag {
		return nil, notInDB(q.ref, q.byHash, s.newestMasterchain())
	}
	prev := []byte{'['}
	for i, p := range h.prev {
		if i > 0 {
			prev = append(prev, ',')
		}
		prev = append(prev, renderBlockIDExt(p)...)
	}
	prev = append(prev, ']')
	flag := func(v bool) []byte { return strconv.AppendBool(nil, v) }
	return renderObject([]member{
		{"@type", jsonString("blocks.header")},
		{"id", renderBlockIDExt(h.id)},
		{"global_id", []byte("-239")},
		{"version", []byte("0")},
		{"after_merge", flag(h.afterMerge)},
		{"after_split", flag(h.afterSplit)},
		{"before_split", flag(h.beforeSplit)},
		{"want_merge", flag(false)},
		{"want_split", flag(false)},
		{"validator_list_hash_short", []byte("0")},
		{"catchain_seqno", []byte("0")},
		{"min_ref_mc_seqno", []byte("1")},
		{"is_key_block", flag(false)},
		{"prev_key_block_seqno", []byte("0")},
		{"start_lt", jsonUintString(h.startLT)},
		{"end_lt", jsonUintString(h.endLT)},
		{"gen_utime", appendInt(nil, h.utime)},
		{"prev_blocks", prev},
	}, nil), nil
}

func uintParam(get paramFunc, loc, name string) (uint64, error) {
	v, ok := get(name)
	if !ok {
		return 0, invalid(loc, name, "field required")
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return 0, invalid(loc, name, "value is not a valid integer")
	}
	return n, nil
}

// renderBlockIDExt writes a block id as tonlib's ton.blockIdExt.
func renderBlockIDExt(id ton.BlockID) []byte {
	return renderObject([]member{
		{"@type", jsonString("ton.blockIdExt")},
		{"workchain", appendInt(nil, int64(id.Workchain))},
		{"shard", jsonString(strconv.FormatInt(int64(id.Shard), 10))},
		{"seqno", jsonUint(uint64(id.Seqno))},
		{"root_hash", jsonString(id.RootHash.String())},
		{"file_hash", jsonString(id.FileHash.String())},
	}, nil)
}
