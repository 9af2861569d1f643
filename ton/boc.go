package ton

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
)

// A bag of cells (BOC) is how TON serialises a tree of cells: message
// bodies, transactions and states travel as one in base64. This file reads
// one, following tonlib's reader (crypto/vm/boc.cpp): the header, the root
// list, the optional index, the cells and the optional CRC32C. It checks
// every length, offset and reference, and refuses what tonlib refuses
// about the layout. It does not recompute cell hashes, levels or depths
// (which tonlib does): nothing here needs them, and the data bits and
// references read the same without them.

// The three magic numbers tonlib reads: the generic form and two older
// indexed ones.
const (
	bocGeneric    = 0xb5ee9c72
	bocIndexed    = 0x68ff65f3
	bocIndexedCRC = 0xacc3a728
)

// Limits of a cell: 1023 data bits, 4 references.
const (
	maxCellBits = 1023
	maxCellRefs = 4
)

var errBOC = errors.New("bag of cells")

// cell is one cell of a bag: its data bits and the indexes of its
// references. The bytes of data past bits are the serialisation's
// completion tag and zeros: readers never look past bits.
type cell struct {
	data   []byte // ceil(bits/8) bytes, aliasing the serialised bag
	bits   int
	refs   [maxCellRefs]int32
	nrefs  uint8
	exotic bool
}

// bagOfCells is a parsed bag: its cells in serialisation order (every
// reference points to a later cell, so the graph has no cycles) and the
// indexes of its roots.
type bagOfCells struct {
	cells []cell
	roots []int32
}

func bocError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBOC, fmt.Sprintf(format, args...))
}

// readUint reads a big-endian unsigned integer of n bytes (1 to 8).
func readUint(b []byte, n int) uint64 {
	var v uint64
	for _, c := range b[:n] {
		v = v<<8 | uint64(c)
	}
	return v
}

// parseBOC reads a serialised bag of cells. b must hold exactly the bag:
// bytes after it (which tonlib would pass over) are refused. The cells
// alias b.
func parseBOC(b []byte) (*bagOfCells, error) {
	if len(b) < 6 {
		return nil, bocError("%d bytes is too short for a header", len(b))
	}
	var hasIndex, hasCRC, hasCache bool
	var refSize int
	magic := binary.BigEndian.Uint32(b)
	switch magic {
	case bocGeneric:
		f := b[4]
		hasIndex, hasCRC, hasCache = f&0x80 != 0, f&0x40 != 0, f&0x20 != 0
		if f&0x18 != 0 {
			return nil, bocError("reserved flags %#x are set", f&0x18)
		}
		refSize = int(f & 7)
	case bocIndexed, bocIndexedCRC:
		hasIndex, hasCRC = true, magic == bocIndexedCRC
		refSize = int(b[4])
	default:
		return nil, bocError("unknown magic %#08x", magic)
	}
	if hasCache && !hasIndex {
		return nil, bocError("cache bits without an index")
	}
	if refSize < 1 || refSize > 4 {
		return nil, bocError("reference size %d is not 1 to 4", refSize)
	}
	offSize := int(b[5])
	if offSize < 1 || offSize > 8 {
		return nil, bocError("offset size %d is not 1 to 8", offSize)
	}
	p := 6
	if len(b) < p+3*refSize+offSize {
		return nil, bocError("%d bytes is too short for a header", len(b))
	}
	cellCount := readUint(b[p:], refSize)
	rootCount := readUint(b[p+refSize:], refSize)
	absent := readUint(b[p+2*refSize:], refSize)
	dataSize := readUint(b[p+3*refSize:], offSize)
	p += 3*refSize + offSize
	switch {
	case cellCount == 0:
		return nil, bocError("no cells")
	case rootCount == 0:
		return nil, bocError("no roots")
	case rootCount > cellCount:
		return nil, bocError("%d roots for %d cells", rootCount, cellCount)
	case absent != 0:
		return nil, bocError("%d absent cells (not supported)", absent)
	case dataSize > cellCount<<10:
		return nil, bocError("%d data bytes for %d cells is too many", dataSize, cellCount)
	case dataSize < cellCount*(2+uint64(refSize))-uint64(refSize):
		return nil, bocError("%d data bytes for %d cells is too few", dataSize, cellCount)
	case dataSize > uint64(len(b)):
		return nil, bocError("%d data bytes in %d bytes", dataSize, len(b))
	}
	rootsLen := uint64(0)
	if magic == bocGeneric {
		rootsLen = rootCount * uint64(refSize)
	} else if rootCount != 1 {
		return nil, bocError("%d roots in an indexed bag (1 is allowed)", rootCount)
	}
	indexLen := uint64(0)
	if hasIndex {
		indexLen = cellCount * uint64(offSize)
	}
	crcLen := uint64(0)
	if hasCRC {
		crcLen = 4
	}
	// Each term is below 2^43 (the header checks above bound them by
	// len(b) and 2^32 cells), so the sum cannot overflow.
	if total := uint64(p) + rootsLen + indexLen + dataSize + crcLen; total != uint64(len(b)) {
		return nil, bocError("the header describes %d bytes, there are %d", total, len(b))
	}
	if hasCRC {
		end := len(b) - 4
		if got, want := binary.LittleEndian.Uint32(b[end:]), crc32.Checksum(b[:end], castagnoli); got != want {
			return nil, bocError("CRC32C %08x, the bytes give %08x", got, want)
		}
	}
	bag := &bagOfCells{cells: make([]cell, cellCount), roots: make([]int32, rootCount)}
	for i := range bag.roots {
		idx := uint64(0)
		if rootsLen > 0 {
			idx = readUint(b[p+i*refSize:], refSize)
		}
		if idx >= cellCount {
			return nil, bocError("root %d is cell %d of %d", i, idx, cellCount)
		}
		bag.roots[i] = int32(idx)
	}
	p += int(rootsLen)
	index := b[p : p+int(indexLen)]
	data := b[p+int(indexLen) : p+int(indexLen)+int(dataSize)]
	ends, err := bag.readCells(data, refSize, hasIndex)
	if err != nil {
		return nil, err
	}
	if hasIndex {
		if err := bag.checkIndex(index, ends, offSize, hasCache); err != nil {
			return nil, err
		}
	}
	return bag, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// readCells reads the cells one after the other from data, which they must
// fill exactly. With wantEnds it returns the end offset of each cell.
func (bag *bagOfCells) readCells(data []byte, refSize int, wantEnds bool) ([]int, error) {
	var ends []int
	if wantEnds {
		ends = make([]int, len(bag.cells))
	}
	off := 0
	for i := range bag.cells {
		n, err := readCell(data[off:], refSize, &bag.cells[i])
		if err != nil {
			return nil, bocError("cell %d: %v", i, err)
		}
		off += n
		if wantEnds {
			ends[i] = off
		}
		c := &bag.cells[i]
		for k := range int(c.nrefs) {
			if ref := int(c.refs[k]); ref <= i || ref >= len(bag.cells) {
				return nil, bocError("cell %d: reference %d is to cell %d (only cells %d to %d may be)", i, k, ref, i+1, len(bag.cells)-1)
			}
		}
	}
	if off != len(data) {
		return nil, bocError("the cells end at byte %d of %d", off, len(data))
	}
	return ends, nil
}

// readCell reads one serialised cell at the start of b: the descriptor
// bytes d1 and d2, the stored hashes and depths (d1 bit 4) skipped, the
// data, the references. It returns the cell's length in b.
func readCell(b []byte, refSize int, c *cell) (int, error) {
	if len(b) < 2 {
		return 0, fmt.Errorf("%d bytes left, a cell needs at least 2", len(b))
	}
	d1, d2 := b[0], b[1]
	refs := int(d1 & 7)
	if refs > maxCellRefs {
		return 0, fmt.Errorf("descriptor %#02x: %d references (7 is an absent cell, not supported)", d1, refs)
	}
	c.exotic = d1&8 != 0
	p := 2
	if d1&16 != 0 {
		hashes := bits.OnesCount8(d1>>5) + 1
		p += hashes * (32 + 2)
	}
	dataLen := int(d2>>1) + int(d2&1)
	end := p + dataLen + refs*refSize
	if len(b) < end {
		return 0, fmt.Errorf("%d bytes left, the cell needs %d", len(b), end)
	}
	c.data = b[p : p+dataLen]
	c.bits = dataLen * 8
	if d2&1 != 0 {
		// The last byte ends with a completion tag: a 1 bit, then zeros.
		last := c.data[dataLen-1]
		if last&0x7f == 0 {
			return 0, fmt.Errorf("last data byte %#02x has no completion tag after a data bit", last)
		}
		c.bits -= bits.TrailingZeros8(last) + 1
	}
	if c.exotic && c.bits < 8 {
		return 0, fmt.Errorf("an exotic cell with %d bits has no type byte", c.bits)
	}
	c.nrefs = uint8(refs)
	for k := range refs {
		c.refs[k] = int32(readUint(b[p+dataLen+k*refSize:], refSize))
	}
	return end, nil
}

// checkIndex checks the index of an indexed bag: entry i is the end offset
// of cell i in data (twice that, plus a cache bit that says whether the cell
// is referred to more than once, with cache bits).
func (bag *bagOfCells) checkIndex(index []byte, ends []int, offSize int, hasCache bool) error {
	var uses []uint8
	if hasCache {
		uses = make([]uint8, len(bag.cells))
		for _, r := range bag.roots {
			uses[r] = min(uses[r]+1, 2)
		}
		for i := range bag.cells {
			c := &bag.cells[i]
			for k := range int(c.nrefs) {
				uses[c.refs[k]] = min(uses[c.refs[k]]+1, 2)
			}
		}
	}
	for i, end := range ends {
		entry := readUint(index[i*offSize:], offSize)
		if hasCache {
			cached := entry&1 != 0
			entry >>= 1
			if cached != (uses[i] > 1) {
				return bocError("cell %d: cache bit %t, but it is referred to %d times", i, cached, uses[i])
			}
		}
		if entry != uint64(end) {
			return bocError("index entry %d is %d, cell %d ends at %d", i, entry, i, end)
		}
	}
	return nil
}

// cellSlice reads a cell's data bits and references in order, as a TL-B
// scheme lays them out.
type cellSlice struct {
	bag *bagOfCells
	c   *cell
	pos int // next data bit
	ref int // next reference
}

// slice returns a reader of cell i.
func (bag *bagOfCells) slice(i int32) cellSlice {
	return cellSlice{bag: bag, c: &bag.cells[i]}
}

// bitsLeft is the number of data bits not read yet.
func (s *cellSlice) bitsLeft() int { return s.c.bits - s.pos }

// refsLeft is the number of references not read yet.
func (s *cellSlice) refsLeft() int { return int(s.c.nrefs) - s.ref }

// loadUint reads an n-bit unsigned integer, n from 0 to 64.
func (s *cellSlice) loadUint(n int) (uint64, error) {
	if n < 0 || n > 64 || n > s.bitsLeft() {
		return 0, fmt.Errorf("%w: %d bits asked for, %d left", errBOC, n, s.bitsLeft())
	}
	var v uint64
	for i := range n {
		bit := s.pos + i
		v = v<<1 | uint64(s.c.data[bit>>3]>>(7-bit&7)&1)
	}
	s.pos += n
	return v, nil
}

// skip passes over n data bits.
func (s *cellSlice) skip(n int) error {
	if n < 0 || n > s.bitsLeft() {
		return fmt.Errorf("%w: %d bits to skip, %d left", errBOC, n, s.bitsLeft())
	}
	s.pos += n
	return nil
}

// loadRest reads the data bits not read yet, packed from the high bit of
// the first byte, the bits after the last zero; and their number.
func (s *cellSlice) loadRest() ([]byte, int) {
	n := s.bitsLeft()
	b, _ := s.loadBits(n)
	return b, n
}

// loadBits reads n data bits, packed from the high bit of the first byte
// (the bits after the n-th are zero).
func (s *cellSlice) loadBits(n int) ([]byte, error) {
	if n < 0 || n > s.bitsLeft() {
		return nil, fmt.Errorf("%w: %d bits asked for, %d left", errBOC, n, s.bitsLeft())
	}
	out := make([]byte, (n+7)/8)
	for i := range n {
		bit := s.pos + i
		out[i>>3] |= (s.c.data[bit>>3] >> (7 - bit&7) & 1) << (7 - i&7)
	}
	s.pos += n
	return out, nil
}

// loadRef returns a reader of the next reference.
func (s *cellSlice) loadRef() (cellSlice, error) {
	if s.refsLeft() == 0 {
		return cellSlice{}, fmt.Errorf("%w: no reference left", errBOC)
	}
	r := s.c.refs[s.ref]
	s.ref++
	return s.bag.slice(r), nil
}
