package ton

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// dumpCell writes cell i and its references as tools/tonboc in the bench
// module does with tonutils-go: <bits>:<hex>, "*" for an exotic cell, the
// references in [ ].
func dumpCell(bag *bagOfCells, i int32) string {
	s := bag.slice(i)
	data, n := s.loadRest()
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%s", n, hex.EncodeToString(data))
	if s.c.exotic {
		b.WriteString("*")
	}
	b.WriteString("[")
	for k := range int(s.c.nrefs) {
		if k > 0 {
			b.WriteString(",")
		}
		b.WriteString(dumpCell(bag, s.c.refs[k]))
	}
	b.WriteString("]")
	return b.String()
}

func dumpBag(bag *bagOfCells) string {
	parts := make([]string, len(bag.roots))
	for i, r := range bag.roots {
		parts[i] = dumpCell(bag, r)
	}
	return strings.Join(parts, "|")
}

type vector struct {
	kind, name string
	boc        []byte
	fields     []string
}

// readVectors reads testdata/boc_vectors.txt, written by tonutils-go
// (bench/tools/tonboc; the command is in testdata/SOURCES.md).
func readVectors(t testing.TB) []vector {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "boc_vectors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Fields(line)
		b, err := base64.StdEncoding.DecodeString(fields[2])
		if err != nil {
			t.Fatalf("%s: %v", fields[1], err)
		}
		out = append(out, vector{kind: fields[0], name: fields[1], boc: b, fields: fields[3:]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBOCVectors: every bag of cells of the recorded bodies in testdata (v2
// transaction data and message bodies, v3 message bodies), and bags
// tonutils-go serialised with each header variant (CRC32C, index, two
// roots), read to the same tree as tonutils-go reads them.
func TestBOCVectors(t *testing.T) {
	var n int
	for _, v := range readVectors(t) {
		if v.kind != "boc" {
			continue
		}
		n++
		bag, err := parseBOC(v.boc)
		if err != nil {
			t.Errorf("%s: %v", v.name, err)
			continue
		}
		if got := dumpBag(bag); got != v.fields[0] {
			t.Errorf("%s:\n got %s\nwant %s", v.name, got, v.fields[0])
		}
	}
	if n < 15 {
		t.Fatalf("%d bag vectors; the file has lost some", n)
	}
}

// testBOC serialises cells as tonlib does (roots first, references
// forward), with the options a header can carry; for tests that need bags
// tonutils-go does not write (cache bits, the indexed magics) or broken
// ones.
type testBOC struct {
	magic           uint32 // 0: bocGeneric
	crc, idx, cache bool
}

func (o testBOC) write(cells []cell, roots []int32) []byte {
	refSize := byteLen(uint64(len(cells)))
	var data []byte
	ends := make([]int, len(cells))
	for i, c := range cells {
		d1 := c.nrefs
		if c.exotic {
			d1 |= 8
		}
		d2 := byte(c.bits/8 + (c.bits+7)/8)
		data = append(data, d1, d2)
		bs := make([]byte, (c.bits+7)/8)
		copy(bs, c.data)
		if c.bits%8 != 0 {
			bs[len(bs)-1] &= 0xff << (8 - c.bits%8)
			bs[len(bs)-1] |= 0x80 >> (c.bits % 8)
		}
		data = append(data, bs...)
		for k := range int(c.nrefs) {
			data = appendUint(data, uint64(c.refs[k]), refSize)
		}
		ends[i] = len(data)
	}
	offSize := byteLen(uint64(len(data)) * 2)
	magic := o.magic
	if magic == 0 {
		magic = bocGeneric
	}
	b := binary.BigEndian.AppendUint32(nil, magic)
	if magic == bocGeneric {
		f := byte(refSize)
		if o.idx {
			f |= 0x80
		}
		if o.crc {
			f |= 0x40
		}
		if o.cache {
			f |= 0x20
		}
		b = append(b, f)
	} else {
		b = append(b, byte(refSize))
	}
	b = append(b, byte(offSize))
	b = appendUint(b, uint64(len(cells)), refSize)
	b = appendUint(b, uint64(len(roots)), refSize)
	b = appendUint(b, 0, refSize)
	b = appendUint(b, uint64(len(data)), offSize)
	if magic == bocGeneric {
		for _, r := range roots {
			b = appendUint(b, uint64(r), refSize)
		}
	}
	if o.idx || magic != bocGeneric {
		uses := make([]int, len(cells))
		for _, r := range roots {
			uses[r]++
		}
		for _, c := range cells {
			for k := range int(c.nrefs) {
				uses[c.refs[k]]++
			}
		}
		for i, end := range ends {
			e := uint64(end)
			if o.cache {
				e *= 2
				if uses[i] > 1 {
					e++
				}
			}
			b = appendUint(b, e, offSize)
		}
	}
	b = append(b, data...)
	if o.crc || magic == bocIndexedCRC {
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	}
	return b
}

func byteLen(v uint64) int {
	n := 1
	for v >= 1<<(8*n) && n < 8 {
		n++
	}
	return n
}

func appendUint(b []byte, v uint64, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func mkCell(bits int, data []byte, refs ...int32) cell {
	c := cell{data: data, bits: bits, nrefs: uint8(len(refs))}
	copy(c.refs[:], refs)
	return c
}

// sample is a small tree with a shared cell: 0 -> 1, 2; 1 -> 2.
func sample() ([]cell, []int32) {
	return []cell{
		mkCell(32, []byte{0xde, 0xad, 0xbe, 0xef}, 1, 2),
		mkCell(3, []byte{0xa0}, 2),
		mkCell(12, []byte{0xab, 0xc0}),
	}, []int32{0}
}

const sampleDump = "32:deadbeef[3:a0[12:abc0[]],12:abc0[]]"

// TestBOCHeaderForms: the forms tonlib reads, including those tonutils-go
// does not write correctly (cache bits) or at all (the indexed magics).
func TestBOCHeaderForms(t *testing.T) {
	cells, roots := sample()
	for _, o := range []testBOC{{}, {crc: true}, {idx: true}, {idx: true, cache: true}, {idx: true, cache: true, crc: true},
		{magic: bocIndexed}, {magic: bocIndexedCRC}} {
		b := o.write(cells, roots)
		bag, err := parseBOC(b)
		if err != nil {
			t.Errorf("%+v: %v", o, err)
			continue
		}
		if got := dumpBag(bag); got != sampleDump {
			t.Errorf("%+v: %s", o, got)
		}
	}
}

// TestBOCRejects: every way a bag can break its layout is refused with an
// error naming what is wrong, never a panic or a wrong tree.
func TestBOCRejects(t *testing.T) {
	cells, roots := sample()
	good := testBOC{}.write(cells, roots)
	withCRC := testBOC{crc: true}.write(cells, roots)
	withCache := testBOC{idx: true, cache: true}.write(cells, roots)
	indexed := testBOC{idx: true}.write(cells, roots)
	set := func(b []byte, i int, v byte) []byte {
		b = bytes.Clone(b)
		b[i] = v
		return b
	}
	// The header of good: magic, flags/ref size (1), offset size (1),
	// cells, roots, absent, data size, root list (1 byte), then the cells
	// from byte 11: cell 0 is d1 d2 de ad be ef 01 02.
	const cell0 = 11
	cellAt := func(cs []cell) []byte { return testBOC{}.write(cs, []int32{0}) }
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"magic", set(good, 0, 0xb6), "unknown magic"},
		{"reserved flags", set(good, 4, 0x09), "reserved flags"},
		{"ref size 0", set(good, 4, 0x00), "reference size 0"},
		{"ref size 5", set(good, 4, 0x05), "reference size 5"},
		{"offset size 0", set(good, 5, 0), "offset size 0"},
		{"offset size 9", set(good, 5, 9), "offset size 9"},
		{"cache without index", set(good, 4, 0x21), "cache bits without an index"},
		{"no cells", set(good, 6, 0), "no cells"},
		{"no roots", set(good, 7, 0), "no roots"},
		{"roots above cells", set(good, 7, 4), "4 roots for 3 cells"},
		{"absent cells", set(good, 8, 1), "absent cells"},
		{"data too short for cells", set(set(good, 6, 200), 7, 1), "too few"},
		{"trailing byte", append(bytes.Clone(good), 0), "the header describes"},
		{"truncated", good[:len(good)-1], "the header describes"},
		{"crc", set(withCRC, len(withCRC)-1, withCRC[len(withCRC)-1]^1), "CRC32C"},
		{"root out of range", set(good, 10, 3), "root 0 is cell 3"},
		{"reference backwards", set(good, cell0+7, 0), "reference 1 is to cell 0"},
		{"reference to itself", set(good, cell0+6, 0), "reference 0 is to cell 0"},
		{"reference out of range", set(good, cell0+7, 3), "reference 1 is to cell 3"},
		{"five references", set(good, cell0, 5), "5 references"},
		{"absent cell descriptor", set(good, cell0, 7), "7 references"},
		{"no completion tag", setCell(cellAt([]cell{mkCell(3, []byte{0xa0})}), 0x00), "no completion tag"},
		{"completion tag alone", setCell(cellAt([]cell{mkCell(3, []byte{0xa0})}), 0x80), "no completion tag"},
		{"exotic without type byte", cellAt([]cell{{exotic: true, bits: 4, data: []byte{0x10}}}), "no type byte"},
		{"index entry", set(indexed, 11, indexed[11]+1), "index entry 0"},
		{"cache bit", set(withCache, 11+2, withCache[13]^1), "cache bit"},
		{"cells end early", set(good, 9, good[9]+2), "the header describes"},
		{"indexed magic with two roots", testBOC{magic: bocIndexed}.write(append(cells, mkCell(0, nil)), []int32{0, 3}), "2 roots in an indexed bag"},
	} {
		bag, err := parseBOC(tc.b)
		if err == nil {
			t.Errorf("%s: accepted as %s", tc.name, dumpBag(bag))
			continue
		}
		if !errors.Is(err, errBOC) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// setCell replaces the last data byte of the one cell of a bag written by
// testBOC (no index, no CRC, 1-byte sizes: the byte before the end).
func setCell(b []byte, v byte) []byte {
	b = bytes.Clone(b)
	b[len(b)-1] = v
	return b
}

// TestBOCSlice: loadUint, skip, loadRest and loadRef read bits across byte
// borders and refuse reads past the end.
func TestBOCSlice(t *testing.T) {
	cells, roots := sample()
	bag, err := parseBOC(testBOC{}.write(cells, roots))
	if err != nil {
		t.Fatal(err)
	}
	s := bag.slice(bag.roots[0])
	if v, err := s.loadUint(4); err != nil || v != 0xd {
		t.Fatalf("loadUint(4) = %x, %v", v, err)
	}
	if v, err := s.loadUint(12); err != nil || v != 0xead {
		t.Fatalf("loadUint(12) = %x, %v", v, err)
	}
	if err := s.skip(3); err != nil {
		t.Fatal(err)
	}
	rest, n := s.loadRest() // 0xbeef after 3 bits: 11110 1110 1111 -> 13 bits
	if n != 13 || hex.EncodeToString(rest) != "f778" {
		t.Fatalf("loadRest = %x, %d", rest, n)
	}
	if _, err := s.loadUint(1); err == nil {
		t.Fatal("read past the end")
	}
	if err := s.skip(1); err == nil {
		t.Fatal("skipped past the end")
	}
	r1, err := s.loadRef()
	if err != nil || r1.c.bits != 3 {
		t.Fatalf("ref 0: %+v, %v", r1.c, err)
	}
	if _, err := s.loadRef(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.loadRef(); err == nil {
		t.Fatal("a third reference")
	}
	if _, err := s.loadUint(65); err == nil {
		t.Fatal("65 bits at once")
	}
}

// FuzzBOC: parseBOC never panics; what it accepts, written again, reads
// back to the same tree; ParseBounce never panics on it.
func FuzzBOC(f *testing.F) {
	for _, v := range readVectors(f) {
		f.Add(v.boc)
	}
	cells, roots := sample()
	for _, o := range []testBOC{{idx: true, cache: true, crc: true}, {magic: bocIndexed}, {magic: bocIndexedCRC}} {
		f.Add(o.write(cells, roots))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = (&Message{Body: b}).ParseBounce()
		bag, err := parseBOC(b)
		if err != nil {
			if !errors.Is(err, errBOC) {
				t.Fatalf("%v is not a bag-of-cells error", err)
			}
			return
		}
		again, err := parseBOC(testBOC{}.write(bag.cells, bag.roots))
		if err != nil {
			t.Fatalf("written again: %v", err)
		}
		if a, b := dumpBag(bag), dumpBag(again); a != b {
			t.Fatalf("%s written again reads %s", a, b)
		}
	})
}

// The vectors' bounce lines: new <0|1>, phase, exit code, original bits,
// original hex ("-" for none).
func bounceWant(t *testing.T, v vector) BounceBody {
	t.Helper()
	num := func(i int) int64 {
		n, err := strconv.ParseInt(v.fields[i], 10, 64)
		if err != nil {
			t.Fatalf("%s: field %d: %v", v.name, i, err)
		}
		return n
	}
	want := BounceBody{New: num(0) == 1, Phase: uint8(num(1)), ExitCode: int32(num(2)), OriginalBits: int(num(3)), Original: []byte{}}
	if v.fields[4] != "-" {
		var err error
		if want.Original, err = hex.DecodeString(v.fields[4]); err != nil {
			t.Fatal(err)
		}
	}
	return want
}
