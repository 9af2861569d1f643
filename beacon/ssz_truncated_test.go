package beacon_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// TestSSZCutInFixedPart cuts every fork's state at every byte of its
// fixed part (minimal preset; for mainnet, at every field boundary and
// either side of it) and decodes the cut input with its size known (a
// slice, a sized reader, a stream with SizeHint): each says it is
// truncated, with both sizes and the field the input ends in (named as
// EncodeJSON names the fields, in the specs' order), and matches
// ErrInvalidState but not io.ErrUnexpectedEOF (the input is whole as far
// as its size says: another attempt would not help).
func TestSSZCutInFixedPart(t *testing.T) {
	for _, p := range []beacon.Preset{beacon.MinimalPreset(), beacon.MainnetPreset()} {
		for _, v := range allForks() {
			st := beacontest.NewState(v, p, 3, 2)
			b := mustMarshal(t, st)
			typ := refStateType(v, p).members() // gloas: a progressive container
			names := parseJSONTree(t, jsonEncodeJSON(t, st)).keys
			if len(names) != len(typ) {
				t.Fatalf("%s: %d JSON fields, %d SSZ fields", v, len(names), len(typ))
			}
			fixed := typ.fixedPartSize()
			var cuts []int
			if p.Name == "minimal" {
				for c := range fixed {
					cuts = append(cuts, c)
				}
			} else {
				for i := range typ {
					at := fieldPos(typ, i)
					cuts = append(cuts, max(at-1, 0), at, at+1)
				}
				cuts = append(cuts, fixed-1)
			}
			field := 0
			for _, c := range cuts {
				for field+1 < len(typ) && fieldPos(typ, field+1) <= c {
					field++
				}
				for field > 0 && fieldPos(typ, field) > c {
					field--
				}
				decoders := map[string]func() error{
					"slice":  func() error { _, err := unmarshalSSZ(b[:c], v, p); return err },
					"reader": func() error { _, err := decodeSSZ(bytes.NewReader(b[:c]), v, p); return err },
				}
				if c > 0 { // Body.Bytes 0 means an unknown size
					decoders["hint"] = func() error {
						_, err := decodeSSZ(onlyReader{bytes.NewReader(b[:c])}, v, p, sizeHint(int64(c)))
						return err
					}
				}
				for how, decode := range decoders {
					err := decode()
					var de *beacon.DecodeError
					if !errors.As(err, &de) || errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, beacon.ErrInvalidState) {
						t.Fatalf("%s %s cut at %d (%s): %v, want a truncation", p.Name, v, c, how, err)
					}
					if !strings.Contains(de.Reason, "truncated") || !strings.Contains(de.Reason, "its "+strconv.Itoa(c)+" bytes") ||
						!strings.Contains(de.Reason, strconv.Itoa(fixed)+" bytes") || strings.Contains(de.Reason, "likely") {
						t.Fatalf("%s %s cut at %d (%s): %q", p.Name, v, c, how, de.Reason)
					}
					if de.Path != names[field] || de.Offset != int64(c) {
						t.Fatalf("%s %s cut at %d (%s): path %q offset %d, want %q %d", p.Name, v, c, how, de.Path, de.Offset, names[field], c)
					}
				}
			}
		}
	}
}
