package ton

import (
	"fmt"
	"strings"
	"testing"
)

// tlbCell packs a bit string written as '0' and '1' (spaces ignored) into
// a one-cell bag and returns a reader of it: the cell is built from the
// TL-B fields spelled out by hand, not by this package's encoder.
func tlbCell(t *testing.T, bits string) cellSlice {
	t.Helper()
	bits = strings.ReplaceAll(bits, " ", "")
	data := make([]byte, (len(bits)+7)/8)
	for i, ch := range bits {
		if ch == '1' {
			data[i/8] |= 0x80 >> (i % 8)
		}
	}
	bag, err := parseBOC(testBOC{}.write([]cell{mkCell(len(bits), data)}, []int32{0}))
	if err != nil {
		t.Fatal(err)
	}
	return bag.slice(bag.roots[0])
}

// uintBits is v as an n-bit unsigned TL-B field (## n, uint n).
func uintBits(v uint64, n int) string { return fmt.Sprintf("%0*b", n, v) }

// TestMsgAddressStringAnycastDepths: anycast_info$_ depth:(#<= 30)
// rewrite_pfx:(bits depth) carries depth bits, 1 to 30, and String writes
// exactly those: ceil(depth/4) hex digits, the unused low bits of the last
// one zero. The expected text is worked out by hand from the bits.
func TestMsgAddressStringAnycastDepths(t *testing.T) {
	id := strings.Repeat("10100101", 32) // 0xa5 × 32
	for _, tc := range []struct {
		pfx  string // the rewrite_pfx bits
		want string // their hex in String
	}{
		{"1", "8"},
		{"0", "0"},
		{"1010", "a"},
		{"10101", "a8"},
		{"10101011", "ab"},
		{"1010101111", "abc"},
		{strings.Repeat("1", 30), "fffffffc"},
		{"0000 0001 0010 0011 0100 0101 0110 01", "01234564"},
	} {
		pfx := strings.ReplaceAll(tc.pfx, " ", "")
		depth := len(pfx)
		// addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256
		s := tlbCell(t, "10"+"1"+uintBits(uint64(depth), 5)+pfx+"11111111"+id)
		a, err := loadMsgAddress(&s)
		if err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		want := fmt.Sprintf("addr_std+anycast:%d:%s:-1:256:%s", depth, tc.want, strings.Repeat("a5", 32))
		if got := a.String(); got != want || a.AnycastBits != depth || a.Std != nil {
			t.Errorf("depth %d: %q (AnycastBits %d, Std %v), want %q", depth, got, a.AnycastBits, a.Std, want)
		}

		// addr_var$11 anycast:(Maybe Anycast) addr_len:(## 9)
		// workchain_id:int32 address:(bits addr_len), the address 13 bits.
		s = tlbCell(t, "11"+"1"+uintBits(uint64(depth), 5)+pfx+uintBits(13, 9)+uintBits(7, 32)+"1100110011001")
		a, err = loadMsgAddress(&s)
		if err != nil {
			t.Fatalf("addr_var, depth %d: %v", depth, err)
		}
		want = fmt.Sprintf("addr_var+anycast:%d:%s:7:13:ccc8", depth, tc.want)
		if got := a.String(); got != want {
			t.Errorf("addr_var, depth %d: %q, want %q", depth, got, want)
		}
	}

	// addr_extern$01 len:(## 9) external_address:(bits len).
	for bits, want := range map[string]string{"10111": "addr_extern:5:b8", "1": "addr_extern:1:8", "": "addr_extern:0:", "11110000111": "addr_extern:11:f0e"} {
		s := tlbCell(t, "01"+uintBits(uint64(len(bits)), 9)+bits)
		a, err := loadMsgAddress(&s)
		if err != nil {
			t.Fatalf("addr_extern %q: %v", bits, err)
		}
		if got := a.String(); got != want {
			t.Errorf("addr_extern %q: %q, want %q", bits, got, want)
		}
	}

	// Depth 0 and 31 are no anycast_info (depth >= 1, depth <= 30).
	for _, depth := range []uint64{0, 31} {
		s := tlbCell(t, "10"+"1"+uintBits(depth, 5)+strings.Repeat("1", int(depth))+"00000000"+id)
		if _, err := loadMsgAddress(&s); err == nil {
			t.Errorf("depth %d read", depth)
		}
	}

	// A hand-made value: the bits past the length, and the length past
	// the bits, are not written.
	for a, want := range map[*MsgAddress]string{
		{Form: "addr_extern", BitLen: 4, Bits: []byte{0xaf}}:   "addr_extern:4:a",
		{Form: "addr_extern", BitLen: 3, Bits: []byte{0xff}}:   "addr_extern:3:e",
		{Form: "addr_extern", BitLen: 400, Bits: []byte{0x12}}: "addr_extern:400:12",
	} {
		if got := a.String(); got != want {
			t.Errorf("%+v: %q, want %q", *a, got, want)
		}
	}
}
