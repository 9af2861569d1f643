package bls

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// vectors is testdata/vectors.json, written by testdata/gen/gen.mjs from
// @chainsafe/blst and @noble/curves (two implementations this package shares
// no code with).
type vectors struct {
	DST  string `json:"dst"`
	Keys []struct {
		Name      string  `json:"name"`
		Secret    hexB    `json:"secret"`
		PublicKey hexB    `json:"public_key"`
		Interop   *uint64 `json:"interop_index"`
	} `json:"keys"`
	Signatures []struct {
		Secret    hexB `json:"secret"`
		Message   hexB `json:"message"`
		Signature hexB `json:"signature"`
	} `json:"signatures"`
	SignatureAggregates []struct {
		Name       string `json:"name"`
		Signatures []hexB `json:"signatures"`
		Aggregate  hexB   `json:"aggregate"`
	} `json:"signature_aggregates"`
	PublicKeyAggregates []struct {
		PublicKeys []hexB `json:"public_keys"`
		Aggregate  hexB   `json:"aggregate"`
	} `json:"public_key_aggregates"`
	PublicKeyEncodings  []encoding `json:"public_key_encodings"`
	SignatureEncodings  []encoding `json:"signature_encodings"`
	FastAggregateVerify []struct {
		Name       string `json:"name"`
		PublicKeys []hexB `json:"public_keys"`
		Message    hexB   `json:"message"`
		Signature  hexB   `json:"signature"`
		Result     bool   `json:"result"`
	} `json:"fast_aggregate_verify"`
}

type encoding struct {
	Name      string `json:"name"`
	Bytes     hexB   `json:"bytes"`
	Valid     bool   `json:"valid"`
	BlstError string `json:"blst_error"`
}

type hexB []byte

func (h *hexB) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := hex.DecodeString(s)
	*h = v
	return err
}

func loadVectors(tb testing.TB) *vectors {
	tb.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		tb.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		tb.Fatal(err)
	}
	if len(v.Keys) == 0 || len(v.Signatures) == 0 || len(v.FastAggregateVerify) == 0 ||
		len(v.PublicKeyEncodings) == 0 || len(v.SignatureEncodings) == 0 || len(v.SignatureAggregates) == 0 {
		tb.Fatal("vectors.json lacks a section")
	}
	return &v
}

func TestVectorsDST(t *testing.T) {
	if v := loadVectors(t); v.DST != DST {
		t.Fatalf("vectors were made with DST %q, package uses %q", v.DST, DST)
	}
}

func TestVectorsKeys(t *testing.T) {
	for _, k := range loadVectors(t).Keys {
		sk, err := ParseSecretKey(k.Secret)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if got := sk.Bytes(); !bytes.Equal(got[:], k.Secret) {
			t.Errorf("%s: Bytes = %x", k.Name, got)
		}
		pk := sk.PublicKey()
		if got := pk.Bytes(); !bytes.Equal(got[:], k.PublicKey) {
			t.Errorf("%s: public key %x, want %x", k.Name, got, []byte(k.PublicKey))
		}
		parsed, err := ParsePublicKey(k.PublicKey)
		if err != nil || parsed != pk {
			t.Errorf("%s: ParsePublicKey = %v, %v", k.Name, parsed, err)
		}
		if k.Interop != nil {
			isk, err := InteropSecretKey(*k.Interop)
			if err != nil || isk != sk {
				t.Errorf("%s: InteropSecretKey(%d) = %x, %v", k.Name, *k.Interop, isk.Bytes(), err)
			}
		}
	}
}

func TestVectorsSign(t *testing.T) {
	for _, s := range loadVectors(t).Signatures {
		sk, err := ParseSecretKey(s.Secret)
		if err != nil {
			t.Fatal(err)
		}
		sig := sk.Sign(s.Message)
		if got := sig.Bytes(); !bytes.Equal(got[:], s.Signature) {
			t.Errorf("sign %x by %x: %x, want %x", []byte(s.Message), []byte(s.Secret), got, []byte(s.Signature))
		}
		pk := sk.PublicKey()
		if !Verify(&pk, s.Message, &sig) {
			t.Errorf("sign %x by %x: does not verify", []byte(s.Message), []byte(s.Secret))
		}
		if Verify(&pk, append([]byte{1}, s.Message...), &sig) {
			t.Errorf("sign %x by %x: verifies another message", []byte(s.Message), []byte(s.Secret))
		}
	}
}

func TestVectorsAggregates(t *testing.T) {
	v := loadVectors(t)
	for _, a := range v.SignatureAggregates {
		sigs := make([]Signature, len(a.Signatures))
		for i, b := range a.Signatures {
			var err error
			if sigs[i], err = ParseSignature(b); err != nil {
				t.Fatalf("%s: %v", a.Name, err)
			}
		}
		agg := AggregateSignatures(sigs)
		if got := agg.Bytes(); !bytes.Equal(got[:], a.Aggregate) {
			t.Errorf("%s: %x, want %x", a.Name, got, []byte(a.Aggregate))
		}
	}
	for _, a := range v.PublicKeyAggregates {
		raw := make([][PublicKeySize]byte, len(a.PublicKeys))
		for i, b := range a.PublicKeys {
			copy(raw[i][:], b)
		}
		k := NewKeys(raw)
		all := bytes.Repeat([]byte{0xff}, (k.Len()+7)/8)
		agg, n := Aggregate(k.keys, all)
		if got := agg.Bytes(); n != len(raw) || !bytes.Equal(got[:], a.Aggregate) {
			t.Errorf("aggregate of %d keys: %x (%d), want %x", len(raw), got, n, []byte(a.Aggregate))
		}
	}
}

func TestVectorsEncodings(t *testing.T) {
	v := loadVectors(t)
	for _, e := range v.PublicKeyEncodings {
		pk, err := ParsePublicKey(e.Bytes)
		checkDecode(t, "public key", e, err, ErrPublicKey)
		if err == nil {
			if got := pk.Bytes(); !bytes.Equal(got[:], e.Bytes) {
				t.Errorf("public key %s: re-encodes as %x", e.Name, got)
			}
		}
	}
	for _, e := range v.SignatureEncodings {
		sig, err := ParseSignature(e.Bytes)
		checkDecode(t, "signature", e, err, ErrSignature)
		if err == nil {
			if got := sig.Bytes(); !bytes.Equal(got[:], e.Bytes) {
				t.Errorf("signature %s: re-encodes as %x", e.Name, got)
			}
		}
	}
}

func checkDecode(t *testing.T, what string, e encoding, err, sentinel error) {
	t.Helper()
	switch {
	case e.Valid && err != nil:
		t.Errorf("%s %s: %v, blst accepts it", what, e.Name, err)
	case !e.Valid && err == nil:
		t.Errorf("%s %s: accepted, blst says %q", what, e.Name, e.BlstError)
	case err != nil && !errors.Is(err, sentinel):
		t.Errorf("%s %s: %v does not match %v", what, e.Name, err, sentinel)
	case e.BlstError == "Point not in group" && !strings.Contains(err.Error(), "subgroup"):
		t.Errorf("%s %s: %v, want a subgroup failure", what, e.Name, err)
	case e.BlstError == "Public key is infinity" && !strings.Contains(err.Error(), "infinity"):
		t.Errorf("%s %s: %v, want the infinity failure", what, e.Name, err)
	}
}

func TestVectorsFastAggregateVerify(t *testing.T) {
	for _, c := range loadVectors(t).FastAggregateVerify {
		if got := fastAggregateVerifyBytes(c.PublicKeys, c.Message, c.Signature); got != c.Result {
			t.Errorf("%s: FastAggregateVerify = %v, want %v", c.Name, got, c.Result)
		}
		// The same through Keys.VerifyBits, every key participating.
		raw := make([][PublicKeySize]byte, len(c.PublicKeys))
		for i, b := range c.PublicKeys {
			copy(raw[i][:], b)
		}
		sig, sigErr := ParseSignature(c.Signature)
		if sigErr != nil {
			continue
		}
		k := NewKeys(raw)
		bits := allBits(len(raw))
		n, err := k.VerifyBits(bits, c.Message, &sig)
		if (err == nil) != c.Result {
			t.Errorf("%s: VerifyBits = %d, %v, want %v", c.Name, n, err, c.Result)
		}
		if err == nil && n != len(raw) {
			t.Errorf("%s: VerifyBits counts %d participants of %d", c.Name, n, len(raw))
		}
	}
}

// fastAggregateVerifyBytes is the specs' FastAggregateVerify over encoded
// inputs: an invalid key or signature makes it false.
func fastAggregateVerifyBytes(pks []hexB, msg, sigB []byte) bool {
	keys := make([]PublicKey, len(pks))
	for i, b := range pks {
		var err error
		if keys[i], err = ParsePublicKey(b); err != nil {
			return false
		}
	}
	sig, err := ParseSignature(sigB)
	if err != nil {
		return false
	}
	return FastAggregateVerify(keys, msg, &sig)
}

func allBits(n int) []byte {
	b := make([]byte, (n+7)/8)
	for i := range n {
		b[i/8] |= 1 << (i % 8)
	}
	return b
}
