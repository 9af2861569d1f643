package beacon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/holiman/uint256"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

var jsonMinimal = beacon.MinimalPreset()

func jsonTestState(v beacon.Version) *beacon.State {
	return beacontest.NewState(v, beacon.MinimalPreset(), 4, 77)
}

// jsonDecodeErr decodes in and returns its *DecodeError, failing the test when
// there is none.
func jsonDecodeErr(t *testing.T, in string, opts ...any) *beacon.DecodeError {
	t.Helper()
	_, _, err := decodeJSON(strings.NewReader(in), opts...)
	if err == nil {
		t.Fatalf("DecodeJSON succeeded, want an error")
	}
	var de *beacon.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %T %v is not a *DecodeError", err, err)
	}
	if !errors.Is(err, beacon.ErrInvalidState) {
		t.Fatalf("error %v does not match ErrInvalidState", err)
	}
	if de.Format != "json" {
		t.Fatalf("Format = %q", de.Format)
	}
	return de
}

// jsonReplaceOnce replaces the first match of the regular expression re in s,
// failing when there is none.
func jsonReplaceOnce(t *testing.T, s, re, repl string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	loc := rx.FindStringIndex(s)
	if loc == nil {
		t.Fatalf("no match for %s", re)
	}
	return s[:loc[0]] + rx.ReplaceAllString(s[loc[0]:loc[1]], repl) + s[loc[1]:]
}

func TestJSONDecodeErrors(t *testing.T) {
	fulu := string(jsonEncodeResponse(t, jsonTestState(beacon.Fulu), beacon.Flags{}))
	phase0 := string(jsonEncodeResponse(t, jsonTestState(beacon.Phase0), beacon.Flags{}))
	bellatrix := string(jsonEncodeResponse(t, jsonTestState(beacon.Bellatrix), beacon.Flags{}))
	cases := []struct {
		name   string
		in     string
		opts   []any
		path   string
		reason string
	}{
		{"missing top-level field", jsonReplaceOnce(t, fulu, `"slot":"\d+",`, ""), nil, "slot", "missing field"},
		{"missing validator field", jsonReplaceOnce(t, fulu, `"slashed":(true|false),`, ""), nil, "validators[0].slashed", "missing field"},
		{"missing nested field", jsonReplaceOnce(t, fulu, `"body_root":"0x[0-9a-f]+"`, `"x":1`), nil, "latest_block_header.body_root", "missing field"},
		{"short root", jsonReplaceOnce(t, fulu, `"genesis_validators_root":"0x[0-9a-f]{2}`, `"genesis_validators_root":"0x`), nil, "genesis_validators_root", "expected 32 bytes (64 hex digits), found 62"},
		{"long pubkey", jsonReplaceOnce(t, fulu, `"pubkey":"0x`, `"pubkey":"0x00`), nil, "validators[0].pubkey", "expected 48 bytes (96 hex digits), found 98"},
		{"bad hex", jsonReplaceOnce(t, fulu, `"state_root":"0x[0-9a-f]`, `"state_root":"0xg`), nil, "latest_block_header.state_root", `invalid hex digit 'g'`},
		{"no 0x", jsonReplaceOnce(t, fulu, `"body_root":"0x`, `"body_root":"00`), nil, "latest_block_header.body_root", "0x-prefixed"},
		{"hex as number", jsonReplaceOnce(t, fulu, `"body_root":"0x[0-9a-f]+"`, `"body_root":12`), nil, "latest_block_header.body_root", "expected a 0x-hex string"},
		{"negative string", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":"-1"`), nil, "slot", "negative"},
		{"negative number", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":-1`), nil, "slot", "negative"},
		{"overflow", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":"18446744073709551616"`), nil, "slot", "overflows uint64"},
		{"overflow 21 digits", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":"100000000000000000000"`), nil, "slot", "too large"},
		{"fraction", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":1.5`), nil, "slot", "not an integer"},
		{"fraction string", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":"1.0"`), nil, "slot", "not an integer"},
		{"exponent", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":1e3`), nil, "slot", "not an integer"},
		{"leading zero", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":"012"`), nil, "slot", "leading zero"},
		{"empty number", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":""`), nil, "slot", "empty string"},
		{"number with space", jsonReplaceOnce(t, fulu, `"slot":"\d+"`, `"slot":" 1"`), nil, "slot", "expected a decimal integer"},
		{"participation over 255", jsonReplaceOnce(t, fulu, `"previous_epoch_participation":\["\d+"`, `"previous_epoch_participation":["256"`), nil, "previous_epoch_participation[0]", "does not fit in a byte"},
		{"justification bits", jsonReplaceOnce(t, fulu, `"justification_bits":"0x0[0-9a-f]"`, `"justification_bits":"0x1f"`), nil, "justification_bits", "beyond the 4"},
		{"slashed as number", jsonReplaceOnce(t, fulu, `"slashed":(true|false)`, `"slashed":0`), nil, "validators[0].slashed", "expected a boolean"},
		{"base fee overflow", jsonReplaceOnce(t, fulu, `"base_fee_per_gas":"\d+"`, `"base_fee_per_gas":"115792089237316195423570985008687907853269984665640564039457584007913129639936"`), nil, "latest_execution_payload_header.base_fee_per_gas", "overflows uint256"},
		{"extra data over limit", jsonReplaceOnce(t, fulu, `"extra_data":"0x[0-9a-f]*"`, `"extra_data":"0x`+strings.Repeat("ab", 33)+`"`), nil, "latest_execution_payload_header.extra_data", "over the limit of 32 bytes"},
		{"extra data odd", jsonReplaceOnce(t, fulu, `"extra_data":"0x[0-9a-f]*"`, `"extra_data":"0xabc"`), nil, "latest_execution_payload_header.extra_data", "odd number"},
		{"bitlist without length bit", jsonReplaceOnce(t, phase0, `"aggregation_bits":"0x[0-9a-f]*"`, `"aggregation_bits":"0x0100"`), nil, "previous_epoch_attestations[0].aggregation_bits", "no length bit"},
		{"bitlist over limit", jsonReplaceOnce(t, phase0, `"aggregation_bits":"0x[0-9a-f]*"`, `"aggregation_bits":"0x`+strings.Repeat("ff", 256)+`03"`), nil, "previous_epoch_attestations[0].aggregation_bits", "over the limit of 2048"},
		{"vector too short", jsonReplaceOnce(t, fulu, `"block_roots":\["0x[0-9a-f]+",`, `"block_roots":[`), nil, "block_roots", "63 elements, the preset's vector has 64"},
		{"vector too long", jsonReplaceOnce(t, fulu, `"block_roots":\[`, `"block_roots":["0x`+strings.Repeat("00", 32)+`",`), nil, "block_roots", "more than the 64 elements"},
		{"sync committee short", jsonReplaceOnce(t, fulu, `"pubkeys":\["0x[0-9a-f]+",`, `"pubkeys":[`), nil, "current_sync_committee.pubkeys", "31 elements"},
		{"phase0 field in fulu", jsonReplaceOnce(t, fulu, `"slot":`, `"previous_epoch_attestations":[],"slot":`), nil, "previous_epoch_attestations", "not a field of a fulu state (it is phase0 only)"},
		{"altair field in phase0", jsonReplaceOnce(t, phase0, `"slot":`, `"inactivity_scores":[],"slot":`), nil, "inactivity_scores", "not a field of a phase0 state (it is altair and later)"},
		{"electra field in deneb", strings.Replace(fulu, `"version":"fulu"`, `"version":"deneb"`, 1), nil, "deposit_requests_start_index", "not a field of a deneb state (it is electra and later)"},
		{"gloas field in fulu", jsonReplaceOnce(t, fulu, `"slot":`, `"latest_block_hash":"0x`+strings.Repeat("00", 32)+`","slot":`), nil, "latest_block_hash", "not a field of a fulu state (it is gloas and later)"},
		{"fulu data as gloas", strings.Replace(fulu, `"version":"fulu"`, `"version":"gloas"`, 1), nil, "latest_execution_payload_header", "not a field of a gloas state (it is bellatrix to fulu)"},
		{"capella field in bellatrix header", jsonReplaceOnce(t, bellatrix, `"transactions_root":`, `"withdrawals_root":"0x00","transactions_root":`), nil, "latest_execution_payload_header.withdrawals_root", "not a field of a bellatrix execution payload header"},
		{"fulu data as phase0", strings.Replace(fulu, `"version":"fulu"`, `"version":"phase0"`, 1), nil, "previous_epoch_participation", "not a field of a phase0 state"},
		{"version mismatch", fulu, []any{assumeVersion(beacon.Deneb)}, "version", "version is fulu but the body's fork was named deneb (Body.Fork, or the node's Eth-Consensus-Version header)"},
		{"no version", jsonReplaceOnce(t, fulu, `^\{"version":"fulu",`, `{`), nil, "version", `has "data" but no "version"`},
		{"data first, version wrong", jsonReplaceOnce(t, fulu, `^\{"version":"fulu",`, `{`)[:len(fulu)-len(`"version":"fulu",`)-1] + `,"version":"electra"}`, nil, "proposer_lookahead", "not a field of an electra state (it is fulu and later)"},
		{"bare without version", string(jsonEncodeJSON(t, jsonTestState(beacon.Fulu))), nil, "", "needs its fork named: set Body.Fork"},
		{"no data", `{"version":"fulu","finalized":true}`, nil, "data", "missing field"},
		{"empty bare object", `{}`, []any{assumeVersion(beacon.Fulu)}, "genesis_time", "missing field"},
		{"data twice", strings.TrimSuffix(fulu, "}") + `,"data":{}}`, nil, "", "data given twice"},
		{"data not an object", `{"version":"fulu","data":[]}`, nil, "", "expected '{'"},
		{"flag not a boolean", `{"version":"fulu","finalized":1,"data":{}}`, nil, "finalized", "expected a boolean"},
		{"trailing garbage", fulu + "x", nil, "", "after the top-level object"},
		{"trailing object", fulu + " {}", nil, "", "after the top-level object"},
		{"not an object", `[1]`, nil, "", "expected '{'"},
		{"missing comma", strings.Replace(fulu, `","slot"`, `" "slot"`, 1), nil, "", "expected ',' or '}'"},
		{"trailing comma", strings.Replace(fulu, `]}}`, `],}}`, 1), nil, "", "expected a key"},
		{"bad literal", strings.Replace(fulu, `"finalized":false`, `"finalized":fals`, 1), nil, "finalized", "malformed literal"},
		{"control byte in unknown string", jsonReplaceOnce(t, fulu, `"slot":`, "\"x\":\"a\x01\",\"slot\":"), nil, "", "control byte"},
		{"bad escape", jsonReplaceOnce(t, fulu, `"slot":`, `"x":"\q","slot":`), nil, "", "malformed escape"},
		{"bad unknown number", jsonReplaceOnce(t, fulu, `"slot":`, `"x":01,"slot":`), nil, "", ""},
		{"deep unknown value", jsonReplaceOnce(t, fulu, `"slot":`, `"x":`+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`,"slot":`), nil, "", "nested more than 512 deep"},
		{"size hint too small", fulu, []any{sizeHint(int64(len(fulu) - 1))}, "", "longer than its size hint"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]any{jsonMinimal}, c.opts...)
			de := jsonDecodeErr(t, c.in, opts...)
			if de.Path != c.path {
				t.Errorf("Path = %q, want %q (%v)", de.Path, c.path, de)
			}
			if !strings.Contains(de.Reason, c.reason) {
				t.Errorf("Reason = %q, want it to contain %q", de.Reason, c.reason)
			}
			if de.Offset < 0 && c.name != "no data" && c.name != "no version" {
				t.Errorf("Offset = %d", de.Offset)
			}
			if errors.Is(de, io.ErrUnexpectedEOF) {
				t.Errorf("%v matches io.ErrUnexpectedEOF", de)
			}
		})
	}
}

func TestJSONDecodeErrorOffset(t *testing.T) {
	in := string(jsonEncodeResponse(t, jsonTestState(beacon.Fulu), beacon.Flags{}))
	in = jsonReplaceOnce(t, in, `"state_root":"0x[0-9a-f]`, `"state_root":"0xZ`)
	de := jsonDecodeErr(t, in, jsonMinimal)
	want := strings.Index(in, "0xZ") + 2
	if de.Offset != int64(want) {
		t.Fatalf("Offset = %d, want %d", de.Offset, want)
	}
	if got := de.Error(); !strings.HasPrefix(got, "beacon: json: latest_block_header.state_root: at byte ") {
		t.Fatalf("Error() = %q", got)
	}
}

func TestJSONUnsupportedVersion(t *testing.T) {
	in := strings.Replace(string(jsonEncodeResponse(t, jsonTestState(beacon.Fulu), beacon.Flags{})), `"version":"fulu"`, `"version":"heze"`, 1)
	_, _, err := decodeJSON(strings.NewReader(in), jsonMinimal)
	if !errors.Is(err, beacon.ErrUnsupportedVersion) || err.Error() != `beacon: unsupported version "heze" (this package decodes phase0 to gloas)` {
		t.Fatalf("err = %v, want one matching ErrUnsupportedVersion that names heze", err)
	}
	_, _, err = decodeJSON(strings.NewReader(`{}`), assumeVersion(beacon.Version(99)))
	if !errors.Is(err, beacon.ErrUnsupportedVersion) {
		t.Fatalf("AssumeVersion(99): err = %v", err)
	}
}

func TestJSONTruncated(t *testing.T) {
	for _, v := range []beacon.Version{beacon.Phase0, beacon.Fulu} {
		in := jsonEncodeResponse(t, jsonTestState(v), beacon.Flags{ExecutionOptimistic: true})
		for cut := 0; cut < len(in); cut++ {
			if cut > 400 && cut < len(in)-400 && cut%97 != 0 {
				continue
			}
			_, _, err := decodeJSON(iotest.HalfReader(bytes.NewReader(in[:cut])), jsonMinimal)
			if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, beacon.ErrInvalidState) {
				t.Fatalf("%s cut at %d of %d: err = %v, want unexpected EOF", v, cut, len(in), err)
			}
			var de *beacon.DecodeError
			if !errors.As(err, &de) || de.Offset != int64(cut) {
				t.Fatalf("%s cut at %d: offset of %v", v, cut, err)
			}
		}
	}
}

func TestJSONReaderError(t *testing.T) {
	boom := errors.New("connection reset")
	in := jsonEncodeResponse(t, jsonTestState(beacon.Fulu), beacon.Flags{})
	r := io.MultiReader(bytes.NewReader(in[:5000]), iotest.ErrReader(boom))
	_, _, err := decodeJSON(r, jsonMinimal)
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the reader's error", err)
	}
	if errors.Is(err, beacon.ErrInvalidState) {
		t.Fatalf("a reader's failure matches ErrInvalidState: %v", err)
	}
}

func TestJSONTolerated(t *testing.T) {
	want := jsonTestState(beacon.Deneb)
	bare := string(jsonEncodeJSON(t, want))
	env := string(jsonEncodeResponse(t, want, beacon.Flags{}))
	decode := func(t *testing.T, in string, opts ...any) (*beacon.State, *beacon.Flags) {
		t.Helper()
		got, flags, err := decodeJSON(strings.NewReader(in), append([]any{jsonMinimal}, opts...)...)
		if err != nil {
			t.Fatalf("DecodeJSON: %v", err)
		}
		return got, flags
	}
	check := func(t *testing.T, got *beacon.State) {
		t.Helper()
		if !jsonSameState(got, want) {
			t.Fatalf("decoded state differs")
		}
	}
	t.Run("trailing whitespace", func(t *testing.T) {
		got, _ := decode(t, env+" \n\t\r ")
		check(t, got)
	})
	t.Run("indented", func(t *testing.T) {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(env), "\n ", "\t"); err != nil {
			t.Fatal(err)
		}
		got, _ := decode(t, b.String())
		check(t, got)
	})
	t.Run("keys in alphabetical order", func(t *testing.T) {
		// encoding/json sorts map keys: every object's keys are reordered,
		// and the envelope's data comes before its version.
		var m any
		if err := json.Unmarshal([]byte(env), &m); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range [][]any{nil, {assumeVersion(beacon.Deneb)}} {
			got, flags := decode(t, string(b), opts...)
			check(t, got)
			if flags == nil {
				t.Fatal("no flags")
			}
		}
	})
	t.Run("upper-case hex", func(t *testing.T) {
		in := regexp.MustCompile(`"0x[0-9a-f]*"`).ReplaceAllStringFunc(bare, func(s string) string { return `"0x` + strings.ToUpper(s[3:]) })
		got, _ := decode(t, in, assumeVersion(beacon.Deneb))
		check(t, got)
	})
	t.Run("bare numbers", func(t *testing.T) {
		in := regexp.MustCompile(`"(\d+)"`).ReplaceAllString(bare, "$1")
		got, _ := decode(t, in, assumeVersion(beacon.Deneb))
		check(t, got)
	})
	t.Run("unknown fields everywhere", func(t *testing.T) {
		junk := `"zz":{"a":[1,-2.5e+3,true,false,null,"\u00e9\"\\"],"b":{}},`
		in := strings.Replace(env, `{"version"`, `{`+junk+`"version"`, 1)
		in = strings.Replace(in, `"data":{`, `"data":{`+junk, 1)
		in = strings.ReplaceAll(in, `{"pubkey":`, `{`+junk+`"pubkey":`)
		in = strings.Replace(in, `"slot":`, `"`+strings.Repeat("k", 1000)+`":"`+strings.Repeat("v", 300000)+`","slot":`, 1)
		in = strings.Replace(in, `"parent_hash":`, junk+`"parent_hash":`, 1)
		got, _ := decode(t, in)
		check(t, got)
	})
	t.Run("escaped keys", func(t *testing.T) {
		in := strings.Replace(env, `"slot":`, `"slo\u0074":`, 1)
		in = strings.Replace(in, `"pubkey":`, `"pub\u006bey":`, 1)
		got, _ := decode(t, in)
		check(t, got)
	})
	t.Run("flags", func(t *testing.T) {
		_, flags := decode(t, strings.Replace(strings.Replace(env, `"execution_optimistic":false`, `"execution_optimistic":"true"`, 1), `"finalized":false`, `"finalized":"false"`, 1))
		if *flags != (beacon.Flags{ExecutionOptimistic: true}) {
			t.Fatalf("flags = %+v", *flags)
		}
		_, flags = decode(t, strings.Replace(env, `"execution_optimistic":false,"finalized":false,`, ``, 1))
		if flags == nil || *flags != (beacon.Flags{}) {
			t.Fatalf("flags without keys = %+v", flags)
		}
	})
	t.Run("slashed as string", func(t *testing.T) {
		in := strings.ReplaceAll(strings.ReplaceAll(env, `"slashed":false`, `"slashed":"false"`), `"slashed":true`, `"slashed":"true"`)
		got, _ := decode(t, in)
		check(t, got)
	})
	t.Run("size hint larger than the input", func(t *testing.T) {
		// Over a stream, which cannot tell its size, the hint is a claim
		// that sizes nothing: tolerated.
		got, _, err := decodeJSON(hardReader{strings.NewReader(env)}, jsonMinimal, sizeHint(int64(5*len(env))))
		if err != nil {
			t.Fatalf("DecodeJSON: %v", err)
		}
		check(t, got)
		got, _ = decode(t, env, sizeHint(int64(len(env))))
		check(t, got)
		// A reader that tells it holds less than the hint was cut short.
		_, _, err = decodeJSON(strings.NewReader(env), jsonMinimal, sizeHint(int64(5*len(env))))
		if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), fmt.Sprintf("it holds %d bytes, and Body.Bytes says %d", len(env), 5*len(env))) {
			t.Fatalf("a hint over a reader that holds less: err = %v", err)
		}
	})
	t.Run("assume matching version", func(t *testing.T) {
		got, _ := decode(t, env, assumeVersion(beacon.Deneb))
		check(t, got)
	})
	t.Run("version case", func(t *testing.T) {
		got, _ := decode(t, strings.Replace(env, `"deneb"`, `"Deneb"`, 1))
		check(t, got)
	})
	t.Run("max values", func(t *testing.T) {
		in := jsonReplaceOnce(t, env, `"slot":"\d+"`, `"slot":"18446744073709551615"`)
		in = jsonReplaceOnce(t, in, `"base_fee_per_gas":"\d+"`, `"base_fee_per_gas":"115792089237316195423570985008687907853269984665640564039457584007913129639935"`)
		got, _ := decode(t, in)
		if got.Slot != 1<<64-1 || !got.LatestExecutionPayloadHeader.BaseFeePerGas.Eq(new(uint256.Int).SetAllOne()) {
			t.Fatalf("slot %d, base fee %s", got.Slot, got.LatestExecutionPayloadHeader.BaseFeePerGas.Dec())
		}
	})
}

func TestJSONEncodeRefusesInvalid(t *testing.T) {
	s := jsonTestState(beacon.Fulu)
	s.BlockRoots = s.BlockRoots[:3]
	var b bytes.Buffer
	if err := encodeJSONData(&b, s); err == nil || b.Len() != 0 {
		t.Fatalf("EncodeJSON of a short vector: err %v, wrote %d bytes", err, b.Len())
	}
	if err := beacon.WriteState(&b, s, beacon.EncodingJSON, &beacon.Flags{}); err == nil || b.Len() != 0 {
		t.Fatalf("EncodeJSONResponse of a short vector: err %v, wrote %d bytes", err, b.Len())
	}
	s = jsonTestState(beacon.Fulu)
	s.JustificationBits = 0x10
	if err := encodeJSONData(&b, s); err == nil || b.Len() != 0 {
		t.Fatalf("EncodeJSON of justification bits 0x10: err %v, wrote %d bytes", err, b.Len())
	}
	// A write error is returned.
	boom := errors.New("disk full")
	if err := encodeJSONData(jsonFailWriter{boom}, jsonTestState(beacon.Fulu)); !errors.Is(err, boom) {
		t.Fatalf("EncodeJSON to a failing writer: %v", err)
	}
}

type jsonFailWriter struct{ err error }

func (f jsonFailWriter) Write([]byte) (int, error) { return 0, f.err }
