package hypertest

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// UnsupportedBody is the text/plain body of Hyperliquid's HTTP 422: the
// answer to a body it cannot read and to a request type it does not serve.
const UnsupportedBody = "Failed to deserialize the JSON body into the target type"

// maxRequestBody bounds the request bodies the server reads.
const maxRequestBody = 1 << 20

// WriteError writes Hyperliquid's error answer for status. It is the
// server's nodeaccesstest.ErrorWriter, exported for handlers a test adds
// with HandleFunc (such as one for the EVM at /{key}/evm):
//
//   - 422: text/plain, UnsupportedBody, whatever msg says;
//   - 429 and 5xx: the JSON body null, which Hyperliquid answers to a valid
//     request that fails on its side (wire notes; for 429 the real body is
//     not recorded, and null is this server's choice);
//   - any other status (403 wrong key, 404 unknown path, 405 wrong method,
//     413, 415): text/plain with msg. A provider's gateway writes its own
//     text here; none is recorded, and clients read only the status.
func WriteError(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	h := w.Header()
	switch {
	case status == http.StatusUnprocessableEntity:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, UnsupportedBody)
	case status == http.StatusTooManyRequests || status >= 500:
		h.Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, "null")
	default:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, msg)
	}
}

// infoRequest is a /info body the server serves.
type infoRequest struct {
	typ  string
	user common.Address // userVaultEquities
	dex  string         // allMids
}

func (s *Server) serveNode(w http.ResponseWriter, r *http.Request) { s.serveInfo(w, r, false) }

func (s *Server) servePublic(w http.ResponseWriter, r *http.Request) { s.serveInfo(w, r, true) }

// serveInfo answers POST /info: userVaultEquities on both servers, allMids
// on the public API only, 422 for everything else.
func (s *Server) serveInfo(w http.ResponseWriter, r *http.Request, public bool) {
	if !isJSON(r.Header.Get("Content-Type")) {
		WriteError(w, r, http.StatusUnsupportedMediaType, "Expected request with `Content-Type: application/json`")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			WriteError(w, r, http.StatusRequestEntityTooLarge, "Failed to buffer the request body: length limit exceeded")
		}
		return // the client went away
	}
	req, ok := parseInfo(body)
	if !ok || req.typ == "allMids" && !public {
		// A node-access service's node serves only part of /info; allMids
		// is for the public API, and the node answers it like any other
		// type it does not know.
		WriteError(w, r, http.StatusUnprocessableEntity, "")
		return
	}
	var out []byte
	switch req.typ {
	case "userVaultEquities":
		out = s.data.vaultEquities(req.user)
	case "allMids":
		out = s.data.allMids(req.dex)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// isJSON reports whether a Content-Type is JSON: application/json or
// application/<something>+json, parameters allowed.
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// parseInfo reads a /info body as the server does: a JSON object whose
// "type" is a string naming a type this server knows, with that type's
// fields: "user" (a string, "0x" and 40 hex digits in either case) for
// userVaultEquities; "dex" (a string, or absent or null for the first perp
// dex) for allMids. Other members are ignored. ok is false for anything
// else.
func parseInfo(body []byte) (req infoRequest, ok bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return req, false
	}
	if err := json.Unmarshal(obj["type"], &req.typ); err != nil {
		return req, false
	}
	switch req.typ {
	case "userVaultEquities":
		var user string
		if err := json.Unmarshal(obj["user"], &user); err != nil {
			return req, false
		}
		if len(user) != 42 || user[:2] != "0x" {
			return req, false
		}
		if _, err := hex.Decode(req.user[:], []byte(user[2:])); err != nil {
			return req, false
		}
		return req, true
	case "allMids":
		if raw, ok := obj["dex"]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, &req.dex); err != nil {
				return req, false
			}
		}
		return req, true
	}
	return req, false
}
