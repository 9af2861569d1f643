package hypercore

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
)

// The read precompiles' answers are Solidity's abi.encode of their result:
// 32-byte words, each value right-aligned (signed values sign-extended), a
// struct of static fields as its words in order, and a dynamic struct or
// array behind a first word holding its offset (0x20).

// abiAnswer reads the words of an answer.
type abiAnswer []byte

// answerWords checks that b is exactly n words.
func answerWords(b []byte, n int) (abiAnswer, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("an empty answer (0x): the node did not run the precompile (does it serve HyperCore's read precompiles?)")
	}
	if len(b) != 32*n {
		return nil, fmt.Errorf("%d bytes, want %d (%d words)", len(b), 32*n, n)
	}
	return abiAnswer(b), nil
}

// word returns word i, or an error when the answer is too short.
func (a abiAnswer) word(i int) ([]byte, error) {
	if i < 0 || 32*(i+1) > len(a) || 32*(i+1) < 0 {
		return nil, fmt.Errorf("%d bytes end before word %d", len(a), i)
	}
	return a[32*i : 32*(i+1)], nil
}

// uint reads word i as an unsigned integer of bits bits.
func (a abiAnswer) uint(i, bits int) (uint64, error) {
	w, err := a.word(i)
	if err != nil {
		return 0, err
	}
	for _, b := range w[:24] {
		if b != 0 {
			return 0, fmt.Errorf("word %d is not a uint%d", i, bits)
		}
	}
	v := binary.BigEndian.Uint64(w[24:])
	if bits < 64 && v>>bits != 0 {
		return 0, fmt.Errorf("word %d is not a uint%d", i, bits)
	}
	return v, nil
}

// int reads word i as a signed integer of bits bits, sign-extended.
func (a abiAnswer) int(i, bits int) (int64, error) {
	w, err := a.word(i)
	if err != nil {
		return 0, err
	}
	v := int64(binary.BigEndian.Uint64(w[24:]))
	fill := byte(0)
	if v < 0 {
		fill = 0xff
	}
	for _, b := range w[:24] {
		if b != fill {
			return 0, fmt.Errorf("word %d is not an int%d", i, bits)
		}
	}
	if bits < 64 && (v < -1<<(bits-1) || v >= 1<<(bits-1)) {
		return 0, fmt.Errorf("word %d is not an int%d", i, bits)
	}
	return v, nil
}

// bool reads word i as a bool: 0 or 1.
func (a abiAnswer) bool(i int) (bool, error) {
	v, err := a.uint(i, 8)
	if err != nil || v > 1 {
		return false, fmt.Errorf("word %d is not a bool", i)
	}
	return v == 1, nil
}

// address reads word i as an address.
func (a abiAnswer) address(i int) (common.Address, error) {
	w, err := a.word(i)
	if err != nil {
		return common.Address{}, err
	}
	for _, b := range w[:12] {
		if b != 0 {
			return common.Address{}, fmt.Errorf("word %d is not an address", i)
		}
	}
	return common.BytesToAddress(w[12:]), nil
}

// offset reads word i as an offset from base into the answer.
func (a abiAnswer) offset(i, base int) (int, error) {
	v, err := a.uint(i, 32)
	if err != nil {
		return 0, err
	}
	off := base + int(v)
	if v%32 != 0 || off > len(a) {
		return 0, fmt.Errorf("word %d: offset %d out of the answer", i, v)
	}
	return off, nil
}

// dynamic returns the dynamic value a head word of offset 0x20 points to:
// what abi.encode of one dynamic struct or array writes.
func dynamic(b []byte) (abiAnswer, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("an empty answer (0x): the node did not run the precompile (does it serve HyperCore's read precompiles?)")
	}
	a := abiAnswer(b)
	off, err := a.offset(0, 0)
	if err != nil {
		return nil, err
	}
	if off != 32 {
		return nil, fmt.Errorf("the answer's offset is %d, want 32", off)
	}
	return a[off:], nil
}

// string reads the string whose offset, from the start of a, is word i.
func (a abiAnswer) string(i int) (string, error) {
	off, err := a.offset(i, 0)
	if err != nil {
		return "", err
	}
	tail := a[off:]
	n, err := tail.uint(0, 32)
	if err != nil {
		return "", err
	}
	if 32+int(n) > len(tail) {
		return "", fmt.Errorf("a string of %d bytes beyond the answer", n)
	}
	s := string(tail[32 : 32+int(n)])
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("a string that is not UTF-8")
	}
	return s, nil
}

// uints reads the uint64[] whose offset, from the start of a, is word i.
func (a abiAnswer) uints(i int) ([]int, error) {
	off, err := a.offset(i, 0)
	if err != nil {
		return nil, err
	}
	tail := a[off:]
	n, err := tail.uint(0, 32)
	if err != nil {
		return nil, err
	}
	if n > uint64(len(tail)/32) {
		return nil, fmt.Errorf("an array of %d elements beyond the answer", n)
	}
	out := make([]int, n)
	for j := range out {
		v, err := tail.uint(1+j, 64)
		if err != nil {
			return nil, err
		}
		if v > math.MaxInt32 {
			return nil, fmt.Errorf("index %d out of range", v)
		}
		out[j] = int(v)
	}
	return out, nil
}

// scaled is v / 10^decimals as an exact decimal (decimals may be negative).
func scaled(v uint64, decimals int) decimal.Decimal {
	if v <= math.MaxInt64 {
		return decimal.New(int64(v), int32(-decimals))
	}
	return decimal.NewFromBigInt(new(big.Int).SetUint64(v), int32(-decimals))
}

// scaledSigned is v / 10^decimals for a signed v.
func scaledSigned(v int64, decimals int) decimal.Decimal {
	return decimal.New(v, int32(-decimals))
}

// unixMilli is a time in Unix milliseconds, UTC; 0 is the zero time.
func unixMilli(ms uint64) (time.Time, error) {
	if ms == 0 {
		return time.Time{}, nil
	}
	if ms > math.MaxInt64/1000 {
		return time.Time{}, fmt.Errorf("%d is not a time in Unix milliseconds", ms)
	}
	return time.UnixMilli(int64(ms)).UTC(), nil
}

// The call data: abi.encode of the arguments, one word each.

func wordUint(dst []byte, v uint64) []byte {
	var w [32]byte
	binary.BigEndian.PutUint64(w[24:], v)
	return append(dst, w[:]...)
}

func wordAddress(dst []byte, a common.Address) []byte {
	var w [32]byte
	copy(w[12:], a[:])
	return append(dst, w[:]...)
}
