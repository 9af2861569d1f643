package hypertest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// The node's EVM endpoint, POST /{key}/evm: JSON-RPC 2.0, one call or a
// batch, answering eth_call to HyperEVM's read precompiles (see
// precompiles.go); other methods get -32601.

// rpcRequest is one JSON-RPC call as the server reads it.
type rpcRequest struct {
	Version string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

// rpcAnswer is one JSON-RPC answer.
type rpcAnswer struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// ethCallGasCap is the gas an eth_call without "gas" gets: HyperEVM's cap
// for eth_call (data/SOURCES.md).
const ethCallGasCap = 30_000_000

func (s *Server) serveEVM(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, r, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		writeError(w, r, http.StatusUnsupportedMediaType, "Expected request with `Content-Type: application/json`")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, r, http.StatusRequestEntityTooLarge, "Failed to buffer the request body: length limit exceeded")
		}
		return
	}
	st := s.coreState()
	var out any
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		var calls []json.RawMessage
		if err := json.Unmarshal(trimmed, &calls); err != nil || len(calls) == 0 {
			out = rpcAnswer{Version: "2.0", ID: json.RawMessage("null"), Error: &rpcError{-32600, "invalid request: want one call or a non-empty batch"}}
			break
		}
		answers := make([]rpcAnswer, len(calls))
		for i, c := range calls {
			answers[i] = st.answer(c)
		}
		out = answers
	default:
		out = st.answer(trimmed)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// answer answers one call.
func (st *coreState) answer(raw json.RawMessage) rpcAnswer {
	var req rpcRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return rpcAnswer{Version: "2.0", ID: json.RawMessage("null"), Error: &rpcError{-32700, "parse error"}}
	}
	a := rpcAnswer{Version: "2.0", ID: req.ID}
	if len(a.ID) == 0 {
		a.ID = json.RawMessage("null")
	}
	if req.Version != "2.0" || req.Method == "" {
		a.Error = &rpcError{-32600, "invalid request"}
		return a
	}
	if req.Method != "eth_call" {
		a.Error = &rpcError{-32601, fmt.Sprintf("the method %s does not exist/is not available", req.Method)}
		return a
	}
	out, err := st.ethCall(req.Params)
	if err != nil {
		a.Error = err
		return a
	}
	a.Result = "0x" + hex.EncodeToString(out)
	return a
}

// ethCall runs an eth_call: params [call object, block]. The call object
// needs "to"; its call data is "input" or "data" (both: they must agree);
// "gas" is optional (ethCallGasCap). The block is not read: HyperEVM
// answers every eth_call from its latest state.
func (st *coreState) ethCall(params []json.RawMessage) ([]byte, *rpcError) {
	if len(params) == 0 || len(params) > 3 {
		return nil, &rpcError{-32602, "invalid params: want a call object and a block"}
	}
	var call struct {
		To    *string `json:"to"`
		Data  *string `json:"data"`
		Input *string `json:"input"`
		Gas   *string `json:"gas"`
	}
	if err := json.Unmarshal(params[0], &call); err != nil || call.To == nil {
		return nil, &rpcError{-32602, "invalid params: the call object has no \"to\""}
	}
	if !common.IsHexAddress(*call.To) || !strings.HasPrefix(*call.To, "0x") {
		return nil, &rpcError{-32602, "invalid params: \"to\" is not an address"}
	}
	to := common.HexToAddress(*call.To)
	data, err := callData(call.Data, call.Input)
	if err != nil {
		return nil, &rpcError{-32602, "invalid params: " + err.Error()}
	}
	gas := uint64(ethCallGasCap)
	if call.Gas != nil {
		g, err := strconv.ParseUint(strings.TrimPrefix(*call.Gas, "0x"), 16, 64)
		if err != nil || !strings.HasPrefix(*call.Gas, "0x") {
			return nil, &rpcError{-32602, "invalid params: \"gas\" is not a hex quantity"}
		}
		gas = min(g, ethCallGasCap)
	}
	if !isPrecompile(to) {
		return nil, nil // an account without code answers empty
	}
	out, ok := st.precompile(to, data)
	if !ok || gas < callGas(data, len(out)) {
		// Hyperliquid's docs: a precompile called on invalid input
		// "will return an error and consume all gas passed into the
		// precompile call frame"; the node's words (data/SOURCES.md).
		return nil, &rpcError{-32003, "out of gas: gas exhausted during precompiled contract execution: " + strconv.FormatUint(gas, 10)}
	}
	return out, nil
}

// callGas is what an eth_call of data to a read precompile costs: the
// transaction's 21000 and its call data (EIP-2028: 4 per zero byte, 16 per
// other byte), and the precompile's 2000 + 65 * (input + output bytes) of
// Hyperliquid's docs.
func callGas(data []byte, outLen int) uint64 {
	g := uint64(21000 + 2000 + 65*(len(data)+outLen))
	for _, b := range data {
		if b == 0 {
			g += 4
		} else {
			g += 16
		}
	}
	return g
}

// callData reads the call data of "data" and "input".
func callData(data, input *string) ([]byte, error) {
	var out [][]byte
	for _, s := range []*string{data, input} {
		if s == nil {
			continue
		}
		if !strings.HasPrefix(*s, "0x") || len(*s)%2 != 0 {
			return nil, errors.New("call data is not 0x-prefixed hex")
		}
		b, err := hex.DecodeString((*s)[2:])
		if err != nil {
			return nil, errors.New("call data is not 0x-prefixed hex")
		}
		out = append(out, b)
	}
	switch {
	case len(out) == 0:
		return nil, nil
	case len(out) == 2 && !bytes.Equal(out[0], out[1]):
		return nil, errors.New(`"data" and "input" differ`)
	}
	return out[0], nil
}
