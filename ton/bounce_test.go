package ton

import (
	"bytes"
	"testing"
)

// TestParseBounceVectors: bounced-message bodies built by tonutils-go's
// cell builder from block.tlb's new_bounce_body#fffffffe (ton-blockchain/ton
// ca7d6e45 (2026-07-16) crypto/block/block.tlb:168-175, written as
// crypto/block/transaction.cpp:3386-3415 writes it) and from the old format
// (transaction.cpp:3416-3419: 0xffffffff, then at most 256 bits of the
// original body) read to what the builder put in; bodies that break either
// format are not bounces.
func TestParseBounceVectors(t *testing.T) {
	var yes, no int
	for _, v := range readVectors(t) {
		m := &Message{Body: v.boc}
		got, ok := m.ParseBounce()
		switch v.kind {
		case "bounce":
			yes++
			want := bounceWant(t, v)
			if !ok {
				t.Errorf("%s: not read as a bounce", v.name)
				continue
			}
			if got.New != want.New || got.Phase != want.Phase || got.ExitCode != want.ExitCode ||
				got.OriginalBits != want.OriginalBits || !bytes.Equal(got.Original, want.Original) {
				t.Errorf("%s:\n got %+v\nwant %+v", v.name, got, want)
			}
		case "notbounce":
			no++
			if ok {
				t.Errorf("%s: read as a bounce: %+v", v.name, got)
			}
		case "boc":
			// Real bodies in testdata: none is a bounce.
			if ok {
				t.Errorf("%s: read as a bounce: %+v", v.name, got)
			}
		}
	}
	if yes < 7 || no < 11 {
		t.Fatalf("%d bounce and %d non-bounce vectors; the file has lost some", yes, no)
	}
}

// TestParseBounceNoBody: no body, a body that is not a bag of cells, and a
// bag with two roots are not bounces.
func TestParseBounceNoBody(t *testing.T) {
	cells, roots := sample()
	two := testBOC{}.write(append(cells, mkCell(32, []byte{0xff, 0xff, 0xff, 0xff})), append(roots, 3))
	for name, body := range map[string][]byte{"nil": nil, "garbage": []byte("\xff\xff\xff\xff"), "two roots": two} {
		if b, ok := (&Message{Body: body}).ParseBounce(); ok {
			t.Errorf("%s: %+v", name, b)
		}
	}
	// A one-cell body of exactly the old tag is a bounce with nothing kept.
	tag := testBOC{}.write([]cell{mkCell(32, []byte{0xff, 0xff, 0xff, 0xff})}, []int32{0})
	if b, ok := (&Message{Body: tag}).ParseBounce(); !ok || b.New || b.OriginalBits != 0 || len(b.Original) != 0 {
		t.Errorf("old tag alone: %+v, %t", b, ok)
	}
	// An exotic root with the old tag's bits is not a body.
	ex := testBOC{}.write([]cell{{exotic: true, bits: 32, data: []byte{0xff, 0xff, 0xff, 0xff}}}, []int32{0})
	if b, ok := (&Message{Body: ex}).ParseBounce(); ok {
		t.Errorf("exotic root: %+v", b)
	}
}
