// Command tonboc writes the bag-of-cells vectors of the ton package
// (ton/testdata/boc_vectors.txt) with an implementation that is not the
// SDK's: xssnick/tonutils-go (the version bench/go.mod pins). The ton
// package reads each vector with its own reader and must see what
// tonutils-go sees.
//
//	cd bench && go run ./tools/tonboc ../ton/testdata/*.json > ../ton/testdata/boc_vectors.txt
//
// It writes three kinds of lines:
//
//	boc <name> <base64> <tree>
//	bounce <name> <base64> <new 0|1> <phase> <exit code> <original bits> <original hex or ->
//	notbounce <name> <base64>
//
// boc lines hold every bag of cells found in the files named (the
// base64 strings that start with "te6cc", which tonutils-go reads), each
// dumped by tonutils-go as a tree: a cell is <bits>:<data hex>, "*" for
// an exotic cell, then its references in [ ] separated by commas; several
// roots are separated by "|". They also hold bags tonutils-go builds with
// each header variant (CRC32C, index, cache bits, several roots).
//
// bounce lines hold bounced-message bodies that tonutils-go's builder
// makes in both formats (block.tlb's new_bounce_body#fffffffe and the old
// 0xffffffff prefix), with what the body carries; notbounce lines hold
// bodies that look like one and break the format.
package main

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/xssnick/tonutils-go/tvm/cell"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: tonboc FILE...")
		os.Exit(2)
	}
	fmt.Println("# Bag-of-cells vectors written by bench/tools/tonboc with xssnick/tonutils-go (see its doc comment).")
	fmt.Println("# Do not edit: run `cd bench && go run ./tools/tonboc ../ton/testdata/*.json > ../ton/testdata/boc_vectors.txt`.")
	found := map[string]string{} // base64 -> first file
	re := regexp.MustCompile(`te6cc[A-Za-z0-9+/_-]*=*`)
	for _, name := range os.Args[1:] {
		b, err := os.ReadFile(name)
		if err != nil {
			fail(err)
		}
		for _, s := range re.FindAllString(string(b), -1) {
			if _, ok := found[s]; !ok {
				found[s] = name[strings.LastIndex(name, "/")+1:]
			}
		}
	}
	keys := make([]string, 0, len(found))
	for s := range found {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	for _, s := range keys {
		raw, err := decodeB64(s)
		if err != nil {
			continue
		}
		roots, err := parse(raw)
		if err != nil {
			continue // a truncated example, not a bag
		}
		fmt.Printf("boc %s %s %s\n", found[s], base64.StdEncoding.EncodeToString(raw), dumpRoots(roots))
	}
	built()
	bounces()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tonboc:", err)
	os.Exit(1)
}

func decodeB64(s string) ([]byte, error) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.URLEncoding.DecodeString(s)
}

// parse reads a bag with tonutils-go, which panics on some malformed input.
func parse(b []byte) (roots []*cell.Cell, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return cell.FromBOCMultiRoot(b)
}

func dumpRoots(roots []*cell.Cell) string {
	parts := make([]string, len(roots))
	for i, r := range roots {
		parts[i] = dump(r)
	}
	return strings.Join(parts, "|")
}

// dump writes a cell as <bits>:<hex>[*][ref,ref…]: the data bits, read
// with tonutils-go's slice, the bits after the last cleared.
func dump(c *cell.Cell) string {
	n := c.BitsSize()
	data := trimBits(c.BeginParse().MustLoadSlice(n), n)
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%s", n, hex.EncodeToString(data))
	if c.GetType() != cell.OrdinaryCellType {
		b.WriteString("*")
	}
	b.WriteString("[")
	for i := 0; i < int(c.RefsNum()); i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(dump(c.MustPeekRef(i)))
	}
	b.WriteString("]")
	return b.String()
}

// built writes bags tonutils-go serialises with each header variant.
func built() {
	leaf := cell.BeginCell().MustStoreUInt(0xabc, 12).EndCell()
	mid := cell.BeginCell().MustStoreUInt(0x7, 3).MustStoreRef(leaf).MustStoreRef(leaf).EndCell()
	full := cell.BeginCell().MustStoreSlice(fill(0x5a, 128), 1023).MustStoreRef(mid).EndCell()
	empty := cell.BeginCell().EndCell()
	tree := cell.BeginCell().MustStoreUInt(1, 1).MustStoreRef(full).MustStoreRef(empty).MustStoreRef(mid).MustStoreRef(leaf).EndCell()
	for _, v := range []struct {
		name  string
		flags []bool
	}{
		{"plain", nil},
		{"crc", []bool{true}},
		{"index", []bool{false, true}},
		{"index_crc", []bool{true, true}},
		// Not with cache bits: tonutils-go v1.15.5 writes index entries
		// with cache bits in offset bytes sized for the plain offsets, and
		// cannot read its own bag back; the ton package's own tests cover
		// cache bits.
	} {
		emit("built_"+v.name, cell.ToBOCWithFlags([]*cell.Cell{tree}, v.flags...))
	}
	emit("built_two_roots", cell.ToBOCWithFlags([]*cell.Cell{mid, full}, true))
	emit("built_empty_cell", empty.ToBOCWithFlags(false))
	emit("built_byte_aligned", cell.BeginCell().MustStoreUInt(0xdeadbeef, 32).EndCell().ToBOCWithFlags(false))
}

func emit(name string, b []byte) {
	roots, err := parse(b)
	if err != nil {
		fail(fmt.Errorf("%s: tonutils-go does not read its own bag: %v", name, err))
	}
	fmt.Printf("boc %s %s %s\n", name, base64.StdEncoding.EncodeToString(b), dumpRoots(roots))
}

func fill(v byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = v ^ byte(i)
	}
	return b
}

// A jetton transfer body (op 0x0f8a7ea5, query id, amount …), the kind of
// body that bounces, with a reference (a forward payload).
func originalBody() *cell.Cell {
	payload := cell.BeginCell().MustStoreUInt(0, 32).MustStoreSlice([]byte("hi"), 16).EndCell()
	return cell.BeginCell().MustStoreUInt(0x0f8a7ea5, 32).MustStoreUInt(0x1122334455667788, 64).
		MustStoreBigCoins(big.NewInt(1_000_000_000)).MustStoreUInt(0, 2).MustStoreUInt(0, 2).
		MustStoreUInt(0, 1).MustStoreCoins(1).MustStoreMaybeRef(payload).EndCell()
}

// originalInfo is NewBounceOriginalInfo: value:CurrencyCollection
// created_lt:uint64 created_at:uint32, with extra currencies or without.
func originalInfo(withExtra bool) *cell.Cell {
	b := cell.BeginCell().MustStoreCoins(5_000_000)
	if withExtra {
		d := cell.NewDict(32)
		if err := d.SetIntKey(big.NewInt(239), cell.BeginCell().MustStoreVarUInt(1000, 32).EndCell()); err != nil {
			fail(err)
		}
		b.MustStoreDict(d)
	} else {
		b.MustStoreDict(nil)
	}
	return b.MustStoreUInt(60_000_000_000_001, 64).MustStoreUInt(1_760_000_000, 32).EndCell()
}

// newBounce builds new_bounce_body#fffffffe.
func newBounce(original *cell.Cell, info *cell.Cell, phase uint64, exit int64, compute bool) *cell.Cell {
	b := cell.BeginCell().MustStoreUInt(0xfffffffe, 32).MustStoreRef(original).MustStoreRef(info).
		MustStoreUInt(phase, 8).MustStoreInt(exit, 32)
	if compute {
		b.MustStoreUInt(1, 1).MustStoreUInt(12345, 32).MustStoreUInt(67, 32)
	} else {
		b.MustStoreUInt(0, 1)
	}
	return b.EndCell()
}

// rootOnly is the original body's root cell without its references, as
// the new format keeps it unless ExtraFlags bit 1 asks for the whole body.
func rootOnly(c *cell.Cell) *cell.Cell {
	return cell.BeginCell().MustStoreSlice(c.BeginParse().MustLoadSlice(c.BitsSize()), c.BitsSize()).EndCell()
}

func bounces() {
	orig := originalBody()
	origBits := orig.BitsSize()
	origHex := hex.EncodeToString(trimBits(orig.BeginParse().MustLoadSlice(origBits), origBits))
	yes := func(name string, c *cell.Cell, isNew bool, phase uint64, exit int64, bits uint, hx string) {
		if hx == "" {
			hx = "-"
		}
		n := 0
		if isNew {
			n = 1
		}
		fmt.Printf("bounce %s %s %d %d %d %d %s\n", name, base64.StdEncoding.EncodeToString(c.ToBOCWithFlags(false)), n, phase, exit, bits, hx)
	}
	no := func(name string, c *cell.Cell) {
		fmt.Printf("notbounce %s %s\n", name, base64.StdEncoding.EncodeToString(c.ToBOCWithFlags(false)))
	}
	yes("new_compute_failed_whole_body", newBounce(orig, originalInfo(false), 1, 9, true), true, 1, 9, origBits, origHex)
	yes("new_compute_skipped_no_state", newBounce(rootOnly(orig), originalInfo(false), 0, -1, false), true, 0, -1, origBits, origHex)
	yes("new_action_failed_extra_currencies", newBounce(rootOnly(orig), originalInfo(true), 2, 37, true), true, 2, 37, origBits, origHex)
	yes("new_empty_original", newBounce(cell.BeginCell().EndCell(), originalInfo(false), 1, -14, true), true, 1, -14, 0, "")

	// The old format: the tag, then the first 256 bits of the body (or all
	// of a shorter body), no reference. A body of 300 bits keeps 256.
	long := cell.BeginCell().MustStoreUInt(0x0f8a7ea5, 32).MustStoreUInt(0x1122334455667788, 64).
		MustStoreSlice(fill(0x33, 26), 204).EndCell()
	first := long.BeginParse().MustLoadSlice(256)
	yes("old_256_bits", cell.BeginCell().MustStoreUInt(0xffffffff, 32).MustStoreSlice(first, 256).EndCell(), false, 0, 0, 256, hex.EncodeToString(first))
	yes("old_tag_only", cell.BeginCell().MustStoreUInt(0xffffffff, 32).EndCell(), false, 0, 0, 0, "")
	yes("old_3_bits", cell.BeginCell().MustStoreUInt(0xffffffff, 32).MustStoreUInt(0x5, 3).EndCell(), false, 0, 0, 3, "a0")

	// Bodies that start like a bounce and break the format.
	no("old_257_bits", cell.BeginCell().MustStoreUInt(0xffffffff, 32).MustStoreSlice(fill(1, 33), 257).EndCell())
	no("old_with_reference", cell.BeginCell().MustStoreUInt(0xffffffff, 32).MustStoreRef(orig).EndCell())
	no("new_one_reference", cell.BeginCell().MustStoreUInt(0xfffffffe, 32).MustStoreRef(orig).
		MustStoreUInt(1, 8).MustStoreInt(9, 32).MustStoreUInt(0, 1).EndCell())
	no("new_skipped_with_compute_phase", newBounce(orig, originalInfo(false), 0, -1, true))
	no("new_failed_without_compute_phase", newBounce(orig, originalInfo(false), 1, 9, false))
	no("new_phase_3", newBounce(orig, originalInfo(false), 3, 9, true))
	no("new_extra_bit", cell.BeginCell().MustStoreBuilder(newBounce(orig, originalInfo(false), 1, 9, true).ToBuilder()).MustStoreUInt(1, 1).EndCell())
	no("new_bad_original_info", newBounce(orig, cell.BeginCell().MustStoreUInt(1, 7).EndCell(), 1, 9, true))
	no("new_truncated_exit_code", cell.BeginCell().MustStoreUInt(0xfffffffe, 32).MustStoreRef(orig).MustStoreRef(originalInfo(false)).
		MustStoreUInt(1, 8).MustStoreUInt(9, 16).EndCell())
	no("other_prefix", cell.BeginCell().MustStoreUInt(0xfffffffd, 32).EndCell())
	no("short_body", cell.BeginCell().MustStoreUInt(0xffff, 16).EndCell())
}

func trimBits(b []byte, n uint) []byte {
	b = append([]byte(nil), b[:(n+7)/8]...)
	if n%8 != 0 {
		b[len(b)-1] &= 0xff << (8 - n%8)
	}
	return b
}
