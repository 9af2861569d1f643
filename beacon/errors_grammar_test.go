package beacon_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
)

// forkArticles is the indefinite article of every fork name, past and
// announced, as the names are read: "an altair", "a fulu".
var forkArticles = map[string]string{
	"phase0": "a", "altair": "an", "bellatrix": "a", "capella": "a", "deneb": "a",
	"electra": "an", "fulu": "a", "gloas": "a", "heze": "a",
}

// articleMistakes returns each "a <fork>" or "an <fork>" in msg whose
// article is wrong.
func articleMistakes(msg string) []string {
	var bad []string
	for name, want := range forkArticles {
		re := regexp.MustCompile(`(?i)\b(an?) ` + name + `\b`)
		for _, m := range re.FindAllStringSubmatch(msg, -1) {
			if strings.ToLower(m[1]) != want {
				bad = append(bad, m[0])
			}
		}
	}
	return bad
}

func TestArticleMistakesDetected(t *testing.T) {
	if got := articleMistakes("not a field of a altair state, nor of an fulu one; an electra, a deneb"); len(got) != 2 {
		t.Fatalf("found %q, want the two mistakes", got)
	}
}

// TestErrorArticles makes each error message that names a state's fork
// (Validate's field of another fork, DecodeJSON's field of another fork
// and payload header member, DecodeSSZ's first offset and truncation) for
// every fork, and checks that each says "an altair", "an electra", "a
// fulu": the right article before every fork name, and every fork named.
func TestErrorArticles(t *testing.T) {
	p := beacon.MinimalPreset()
	var msgs []string
	add := func(err error) {
		if err == nil {
			t.Fatal("no error")
		}
		msgs = append(msgs, err.Error())
	}
	deneb := jsonEncodeResponse(t, beacontest.NewState(beacon.Deneb, p, 3, 1), beacon.Flags{})
	for _, v := range allForks() {
		s := beacontest.NewState(v, p, 3, 1)
		if v == beacon.Phase0 {
			s.InactivityScores = []uint64{1}
		} else {
			s.PreviousEpochAttestations = []beacon.PendingAttestation{}
		}
		add(validateState(s))

		other := beacon.Phase0
		if v == beacon.Phase0 {
			other = beacon.Fulu
		}
		js := bytes.Replace(jsonEncodeResponse(t, beacontest.NewState(other, p, 3, 1), beacon.Flags{}),
			[]byte(`"version":"`+other.String()+`"`), []byte(`"version":"`+v.String()+`"`), 1)
		_, _, err := decodeJSON(bytes.NewReader(js), p)
		add(err)
		if v == beacon.Bellatrix || v == beacon.Capella {
			js := bytes.Replace(deneb, []byte(`"version":"deneb"`), []byte(`"version":"`+v.String()+`"`), 1)
			js = bytes.Replace(js, []byte(`"next_withdrawal_index"`), []byte(`"x"`), 1) // reach the header first
			_, _, err := decodeJSON(bytes.NewReader(js), p)
			add(err)
		}

		b := mustMarshal(t, beacontest.NewState(v, p, 3, 1))
		typ := refStateType(v, p)
		first := -1
		for i, f := range typ {
			if f.size() < 0 {
				first = i
				break
			}
		}
		put32(b, fieldPos(typ, first), typ.fixedPartSize()+1)
		_, err = unmarshalSSZ(b, v, p)
		add(err)
		_, err = unmarshalSSZ(b[:10], v, p)
		add(err)
	}
	all := strings.Join(msgs, "\n")
	if bad := articleMistakes(all); len(bad) > 0 {
		t.Errorf("wrong articles: %q in\n%s", bad, all)
	}
	for _, v := range allForks() {
		if !strings.Contains(all, forkArticles[v.String()]+" "+v.String()+" ") {
			t.Errorf("no message says %q:\n%s", forkArticles[v.String()]+" "+v.String(), all)
		}
	}
}
