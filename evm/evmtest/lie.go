package evmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Lie is how the server lies in its answers, for testing code that must
// not believe a provider (such as package evm/verified): set the fields
// of the lies wanted and give it to Server.Lie. The zero Lie is the truth.
// Each lie is one a provider can tell (a lagging node, a bug, a
// compromised gateway) and a proof can catch.
type Lie struct {
	// Balance adds one wei to every balance that eth_getProof and
	// eth_getBalance answer.
	Balance bool
	// Slot adds one to every storage value that eth_getProof and
	// eth_getStorageAt answer.
	Slot bool
	// Code appends a zero byte to every code eth_getCode answers.
	Code bool
	// DropNode leaves the last node out of every account proof that
	// eth_getProof answers.
	DropNode bool
	// ExtraNode adds the root node again at the end of every account
	// proof that eth_getProof answers.
	ExtraNode bool
	// OtherRoot answers eth_getProof from the state of the block before
	// the one asked for: proofs for another block's state root.
	OtherRoot bool
	// AccessList leaves the last storage slot (the last account when no
	// account has a slot) out of the list eth_createAccessList answers: a
	// list that leaves out what the call touches.
	AccessList bool
	// Header answers eth_getBlockByHash and eth_getBlockByNumber with the
	// block before the one asked for: the header of another block.
	Header bool
}

// Lie makes the server lie from now on as l says, in every answer of the
// methods each field names, single or batched, until Lie is called again
// (Lie(evmtest.Lie{}) tells the truth again). The chain itself is
// unchanged: EthClient and Transact see the truth.
func (s *Server) Lie(l Lie) {
	if l == (Lie{}) {
		s.lie.Store(nil)
		return
	}
	s.lie.Store(&l)
}

// liar is the JSON-RPC handler that tells the server's lies, around the
// chain's own.
type liar struct {
	lie  *atomic.Pointer[Lie]
	next http.Handler
	s    *state
}

// rpcCall is the method and params of one call of a request.
type rpcCall struct {
	Method string
	Params []json.RawMessage
}

func (h liar) serve(w http.ResponseWriter, r *http.Request) {
	l := h.lie.Load()
	if l == nil {
		h.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 5<<20+1))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// The calls, by id, and the request rewritten for OtherRoot (each
	// call kept whole but its block parameter).
	var raws []map[string]json.RawMessage
	trimmed := bytes.TrimSpace(body)
	batch := len(trimmed) > 0 && trimmed[0] == '['
	if batch {
		_ = json.Unmarshal(body, &raws)
	} else {
		var c map[string]json.RawMessage
		if json.Unmarshal(body, &c) == nil {
			raws = []map[string]json.RawMessage{c}
		}
	}
	methods := map[string]string{}
	rewrote := false
	for _, raw := range raws {
		var c rpcCall
		if json.Unmarshal(raw["method"], &c.Method) != nil {
			continue
		}
		methods[string(raw["id"])] = c.Method
		if l.OtherRoot && c.Method == "eth_getProof" && json.Unmarshal(raw["params"], &c.Params) == nil && len(c.Params) == 3 {
			if n, ok := h.blockNumber(r.Context(), c.Params[2]); ok && n > 0 {
				c.Params[2], _ = json.Marshal(hexutil.Uint64(n - 1))
				raw["params"], _ = json.Marshal(c.Params)
				rewrote = true
			}
		}
	}
	if rewrote {
		if batch {
			body, _ = json.Marshal(raws)
		} else {
			body, _ = json.Marshal(raws[0])
		}
	}
	r2 := r.Clone(r.Context())
	r2.Body, r2.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	rec := httptest.NewRecorder()
	h.next.ServeHTTP(rec, r2)
	out := rec.Body.Bytes()
	var answers []map[string]json.RawMessage
	if batch {
		if json.Unmarshal(out, &answers) == nil {
			for _, a := range answers {
				h.tell(r.Context(), l, methods[string(a["id"])], a)
			}
			out, _ = json.Marshal(answers)
		}
	} else {
		var a map[string]json.RawMessage
		if json.Unmarshal(out, &a) == nil {
			h.tell(r.Context(), l, methods[string(a["id"])], a)
			out, _ = json.Marshal(a)
		}
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	_, _ = w.Write(out)
}

// blockNumber is the number of the block a block parameter selects.
func (h liar) blockNumber(ctx context.Context, param json.RawMessage) (uint64, bool) {
	var sel struct {
		BlockHash *common.Hash `json:"blockHash"`
	}
	var n hexutil.Uint64
	var tag string
	switch {
	case json.Unmarshal(param, &sel) == nil && sel.BlockHash != nil:
		hd, err := h.s.ec.HeaderByHash(ctx, *sel.BlockHash)
		if err != nil {
			return 0, false
		}
		return hd.Number.Uint64(), true
	case json.Unmarshal(param, &n) == nil:
		return uint64(n), true
	case json.Unmarshal(param, &tag) == nil:
		var hd struct {
			Number hexutil.Uint64 `json:"number"`
		}
		if h.s.ec.Client().CallContext(ctx, &hd, "eth_getBlockByNumber", tag, false) != nil {
			return 0, false
		}
		return uint64(hd.Number), true
	}
	return 0, false
}

// tell edits the answer a of a call of method as l says.
func (h liar) tell(ctx context.Context, l *Lie, method string, a map[string]json.RawMessage) {
	res, ok := a["result"]
	if !ok || string(res) == "null" {
		return
	}
	switch method {
	case "eth_getBalance":
		if l.Balance {
			a["result"] = plusOne(res)
		}
	case "eth_getStorageAt":
		if l.Slot {
			var v hexutil.Big
			if json.Unmarshal(res, &v) == nil {
				a["result"], _ = json.Marshal(common.BigToHash(new(big.Int).Add(v.ToInt(), big.NewInt(1))))
			}
		}
	case "eth_getCode":
		if l.Code {
			var c hexutil.Bytes
			if json.Unmarshal(res, &c) == nil {
				a["result"], _ = json.Marshal(hexutil.Bytes(append(c, 0)))
			}
		}
	case "eth_getProof":
		var p map[string]json.RawMessage
		if json.Unmarshal(res, &p) != nil {
			return
		}
		if l.Balance {
			p["balance"] = plusOne(p["balance"])
		}
		if l.Slot {
			var sps []map[string]json.RawMessage
			if json.Unmarshal(p["storageProof"], &sps) == nil {
				for _, sp := range sps {
					sp["value"] = plusOne(sp["value"])
				}
				p["storageProof"], _ = json.Marshal(sps)
			}
		}
		var nodes []json.RawMessage
		if (l.DropNode || l.ExtraNode) && json.Unmarshal(p["accountProof"], &nodes) == nil && len(nodes) > 0 {
			if l.DropNode {
				nodes = nodes[:len(nodes)-1]
			}
			if l.ExtraNode {
				nodes = append(nodes, nodes[0])
			}
			p["accountProof"], _ = json.Marshal(nodes)
		}
		a["result"], _ = json.Marshal(p)
	case "eth_createAccessList":
		if !l.AccessList {
			return
		}
		var r struct {
			AccessList []struct {
				Address     common.Address `json:"address"`
				StorageKeys []common.Hash  `json:"storageKeys"`
			} `json:"accessList"`
			GasUsed json.RawMessage `json:"gasUsed"`
			Error   string          `json:"error,omitempty"`
		}
		if json.Unmarshal(res, &r) != nil || len(r.AccessList) == 0 {
			return
		}
		dropped := false
		for i := len(r.AccessList) - 1; i >= 0 && !dropped; i-- {
			if k := r.AccessList[i].StorageKeys; len(k) > 0 {
				r.AccessList[i].StorageKeys, dropped = k[:len(k)-1], true
			}
		}
		if !dropped {
			r.AccessList = r.AccessList[:len(r.AccessList)-1]
		}
		a["result"], _ = json.Marshal(r)
	case "eth_getBlockByHash", "eth_getBlockByNumber":
		if !l.Header {
			return
		}
		var b struct {
			ParentHash common.Hash    `json:"parentHash"`
			Number     hexutil.Uint64 `json:"number"`
		}
		if json.Unmarshal(res, &b) != nil || b.Number == 0 {
			return
		}
		var parent json.RawMessage
		if h.s.ec.Client().CallContext(ctx, &parent, "eth_getBlockByHash", b.ParentHash, false) == nil {
			a["result"] = parent
		}
	}
}

// plusOne is the hex quantity q plus one (q itself when it is not one).
func plusOne(q json.RawMessage) json.RawMessage {
	var v hexutil.Big
	if json.Unmarshal(q, &v) != nil {
		return q
	}
	out, _ := json.Marshal((*hexutil.Big)(new(big.Int).Add(v.ToInt(), big.NewInt(1))))
	return out
}
