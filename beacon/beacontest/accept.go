package beacontest

import (
	"mime"
	"strconv"
	"strings"

	"github.com/nodeaccess/nodeaccess/beacon"
)

const (
	mediaSSZ  = "application/octet-stream"
	mediaJSON = "application/json"
)

// preference is what an Accept header says of one of the two media types:
// its quality, how specific the range that gave it was (-1: no range
// matched, 0: */*, 1: application/*, 2: the type itself) and, when the type
// was named itself, the position of the first range that named it.
type preference struct {
	q        float64
	spec     int
	position int
}

func (p *preference) consider(q float64, spec, position int) {
	switch {
	case spec > p.spec:
		p.q, p.spec, p.position = q, spec, position
	case spec == p.spec && q > p.q:
		p.q = q
	}
}

// negotiate picks the encoding of a state body from the request's Accept
// header lines, as beacon nodes do: no header (or only blank ones) means
// JSON; otherwise each of application/octet-stream (SSZ) and
// application/json gets the quality of the most specific media range that
// matches it (the type itself, then application/*, then */*; q defaults to
// 1, q=0 refuses), and the higher quality wins. At equal quality a type
// named by its own range beats one reached by a wildcard, the one named
// first beats the other, and between two wildcards JSON wins. ok is false
// when neither type is acceptable (406). A range that does not parse
// matches nothing.
func negotiate(lines []string) (enc beacon.Encoding, ok bool) {
	ssz := preference{spec: -1}
	json := preference{spec: -1}
	position, seen := 0, false
	for _, line := range lines {
		for _, part := range strings.Split(line, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			seen = true
			position++
			mt, params, err := mime.ParseMediaType(part)
			if err != nil {
				continue
			}
			q, ok := quality(params)
			if !ok {
				continue
			}
			switch mt {
			case "*/*":
				ssz.consider(q, 0, 0)
				json.consider(q, 0, 0)
			case "application/*":
				ssz.consider(q, 1, 0)
				json.consider(q, 1, 0)
			case mediaSSZ:
				ssz.consider(q, 2, position)
			case mediaJSON:
				json.consider(q, 2, position)
			}
		}
	}
	if !seen {
		return beacon.EncodingJSON, true
	}
	if ssz.spec < 0 {
		ssz.q = 0
	}
	if json.spec < 0 {
		json.q = 0
	}
	switch {
	case ssz.q == 0 && json.q == 0:
		return 0, false
	case ssz.q > json.q:
		return beacon.EncodingSSZ, true
	case json.q > ssz.q:
		return beacon.EncodingJSON, true
	case ssz.spec == 2 && (json.spec < 2 || ssz.position < json.position):
		return beacon.EncodingSSZ, true
	}
	return beacon.EncodingJSON, true
}

// quality reads a media range's q parameter: 1 when absent; ok is false
// when it is not a number from 0 to 1.
func quality(params map[string]string) (q float64, ok bool) {
	s, has := params["q"]
	if !has {
		return 1, true
	}
	q, err := strconv.ParseFloat(s, 64)
	if err != nil || !(q >= 0 && q <= 1) {
		return 0, false
	}
	return q, true
}
