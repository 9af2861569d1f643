package hypertest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// unsupportedBody is the text/plain body of Hyperliquid's HTTP 422: the
// answer to a body it cannot read and to a request type it does not serve.
const unsupportedBody = "Failed to deserialize the JSON body into the target type"

// maxRequestBody bounds the request bodies the server reads.
const maxRequestBody = 1 << 20

// writeError writes Hyperliquid's error answer for status, as the error
// writer both servers give nodeaccesstest.Start:
//
//   - 422: text/plain, unsupportedBody, whatever msg says;
//   - 429 and 5xx: the JSON body null, which Hyperliquid answers to a valid
//     request that fails on its side (for 429 the real body is not
//     recorded, and null is this server's choice);
//   - any other status (403 wrong key, 404 unknown path, 405 wrong method,
//     413, 415): text/plain with msg. A provider's gateway writes its own
//     text here; none is recorded.
func writeError(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	h := w.Header()
	switch {
	case status == http.StatusUnprocessableEntity:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, unsupportedBody)
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

// SetInfo makes /info answer body, byte for byte, to the request req from
// now on, on the node and the public API: for request types the typed
// setters do not cover, such as those a test sends with hyper's Info and
// PublicInfo (meta, spotMeta, clearinghouseState, …), and for bodies the
// typed setters cannot write (numbers instead of strings, extra members,
// null). req is any value that encoding/json marshals to a JSON object with
// a "type" string, as the client sends it. A request matches as the server
// reads it: for userVaultEquities by its "user" (either case), for allMids
// and meta by their "dex" ("", absent and null being the first perp dex;
// the node does not serve allMids), for any other type by the whole
// object, its members in any order. body must be valid JSON; nil takes the
// answer back (userVaultEquities answers [] again, allMids as
// SetMids(dex, nil) says, another type 422). The metadata the server
// serves (spotMeta, meta, perpDexs, outcomeMeta) is what its EVM's read
// precompiles answer from too.
func (s *Server) SetInfo(req any, body []byte) error {
	if err := s.setInfo(req, body); err != nil {
		return fmt.Errorf("hypertest: SetInfo: %w", err)
	}
	return nil
}

func (s *Server) setInfo(req any, body []byte) error {
	raw, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("the request does not marshal: %w", err)
	}
	r, err := parseInfo(raw)
	if err != nil {
		return err
	}
	if body != nil {
		if !json.Valid(body) {
			return errors.New("the body is not valid JSON")
		}
		body = bytes.Clone(body)
	}
	switch r.typ {
	case "userVaultEquities":
		s.data.setEquities(r.user, body)
	case "allMids":
		if err := checkDex(r.dex); err != nil {
			return err
		}
		s.data.setMids(r.dex, body)
	default:
		s.data.setAnswer(r.canonical, body)
	}
	return nil
}

// infoRequest is a /info body as the server reads it.
type infoRequest struct {
	typ       string
	user      common.Address // userVaultEquities
	dex       string         // allMids
	canonical string         // other types: the object, members sorted
}

func (s *Server) serveNode(w http.ResponseWriter, r *http.Request) { s.serveInfo(w, r, false) }

func (s *Server) servePublic(w http.ResponseWriter, r *http.Request) { s.serveInfo(w, r, true) }

// serveInfo answers POST /info: userVaultEquities and the requests set
// with SetInfo on both servers, allMids on the public API only, 422 for
// everything else.
func (s *Server) serveInfo(w http.ResponseWriter, r *http.Request, public bool) {
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
		return // the client went away
	}
	req, err := parseInfo(body)
	if err != nil || req.typ == "allMids" && !public {
		// A node-access service's node serves only part of /info; allMids
		// is for the public API, and the node answers it like any other
		// type it does not know.
		writeError(w, r, http.StatusUnprocessableEntity, "")
		return
	}
	var out []byte
	switch req.typ {
	case "userVaultEquities":
		out = s.data.vaultEquities(req.user)
	case "allMids":
		out = s.data.allMids(req.dex)
	default:
		if out = s.data.answer(req.canonical); out == nil {
			writeError(w, r, http.StatusUnprocessableEntity, "")
			return
		}
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
// "type" is a non-empty string, with that type's fields: "user" (a string,
// "0x" and 40 hex digits in either case) for userVaultEquities; "dex" (a
// string, or absent or null for the first perp dex) for allMids and meta;
// for any other type the whole object, written canonically (members
// sorted, numbers as they came). Other members of the first three are
// ignored.
func parseInfo(body []byte) (req infoRequest, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return req, errors.New(`the request is not a JSON object with a "type"`)
	}
	if err := json.Unmarshal(obj["type"], &req.typ); err != nil || req.typ == "" {
		return req, errors.New(`the request's "type" is not a non-empty string`)
	}
	switch req.typ {
	case "userVaultEquities":
		var user string
		if err := json.Unmarshal(obj["user"], &user); err != nil || len(user) != 42 || user[:2] != "0x" {
			return req, errors.New(`userVaultEquities: "user" is not "0x" and 40 hex digits`)
		}
		if _, err := hex.Decode(req.user[:], []byte(user[2:])); err != nil {
			return req, errors.New(`userVaultEquities: "user" is not "0x" and 40 hex digits`)
		}
	case "allMids", "meta":
		if raw, ok := obj["dex"]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, &req.dex); err != nil {
				return req, fmt.Errorf(`%s: "dex" is not a string`, req.typ)
			}
		}
		if req.typ == "meta" {
			// The dex alone names the answer: "" is the first perp dex,
			// whether sent as "", null or not at all.
			req.canonical = `{"type":"meta"}`
			if req.dex != "" {
				b, _ := json.Marshal(map[string]string{"type": "meta", "dex": req.dex})
				req.canonical = string(b)
			}
		}
	default:
		req.canonical, err = canonicalJSON(body)
	}
	return req, err
}

// canonicalJSON writes a JSON object with its members sorted (at every
// depth), strings as encoding/json writes them and numbers as they came,
// so that two writings of one request give one text.
func canonicalJSON(body []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v) // maps marshal with their keys sorted
	return string(b), err
}
