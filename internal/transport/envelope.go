package transport

import (
	"encoding/json"
	"fmt"
)

// envelope holds the raw members of a JSON-RPC response object.
type envelope struct {
	version, id, result, errObj []byte
}

// parseEnvelope splits a JSON-RPC response into its members without copying
// them. It first validates the whole body (so a truncated or malformed body
// is caught before anything is used), then walks the top-level object. A body
// whose member names use escapes is decoded with encoding/json instead.
func parseEnvelope(body []byte) (envelope, error) {
	var env envelope
	if !json.Valid(body) {
		var v any
		return env, jsonProblem(body, json.Unmarshal(body, &v))
	}
	i := skipWS(body, 0)
	if i >= len(body) || body[i] != '{' {
		return env, fmt.Errorf("response is not a JSON object")
	}
	i++
	for {
		i = skipWS(body, i)
		if body[i] == '}' {
			return env, nil
		}
		if body[i] == ',' {
			i = skipWS(body, i+1)
		}
		keyStart := i + 1
		keyEnd := skipString(body, i) - 1
		key := body[keyStart:keyEnd]
		for _, ch := range key {
			if ch == '\\' {
				return slowEnvelope(body)
			}
		}
		i = skipWS(body, keyEnd+1) // at ':'
		i = skipWS(body, i+1)
		end := skipValue(body, i)
		val := body[i:end]
		switch string(key) {
		case "jsonrpc":
			env.version = val
		case "id":
			env.id = val
		case "result":
			env.result = val
		case "error":
			env.errObj = val
		}
		i = end
	}
}

// slowEnvelope decodes an envelope with encoding/json (escaped member names).
func slowEnvelope(body []byte) (envelope, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return envelope{}, err
	}
	return envelope{version: m["jsonrpc"], id: m["id"], result: m["result"], errObj: m["error"]}, nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i] ('"').
// b is valid JSON.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just past the value starting at b[i]. b is
// valid JSON.
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default:
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}
