package evm

import (
	"encoding/binary"
	"fmt"
)

// The ABI of Multicall3's aggregate3, written out by hand: one allocation
// for the call data, none per call for the results (each ReturnData is a
// slice of the decoded output). multicall_abi_test.go checks both
// directions against go-ethereum's accounts/abi.
//
//	function aggregate3((address target, bool allowFailure, bytes callData)[] calls)
//	    payable returns ((bool success, bytes returnData)[] returnData)

// aggregate3Selector is the first four bytes of
// keccak256("aggregate3((address,bool,bytes)[])").
var aggregate3Selector = [4]byte{0x82, 0xad, 0x56, 0xcb}

// pad32 rounds n up to a multiple of 32.
func pad32(n int) int { return (n + 31) &^ 31 }

// putWord writes v as a 32-byte big-endian word at dst[0:32] (the first 24
// bytes are left as they are: zero in a fresh buffer).
func putWord(dst []byte, v uint64) { binary.BigEndian.PutUint64(dst[24:32], v) }

// encodeAggregate3 returns the call data of aggregate3(calls):
//
//	selector
//	0x20                       offset of the array
//	n                          its length
//	n offsets                  of each tuple, from the first offset
//	n tuples                   target, allowFailure, 0x60, len, data padded
func encodeAggregate3(calls []Call3) []byte {
	size := 4 + 32 + 32 + 32*len(calls)
	for i := range calls {
		size += 4*32 + pad32(len(calls[i].Data))
	}
	out := make([]byte, size)
	copy(out, aggregate3Selector[:])
	putWord(out[4:], 0x20)
	putWord(out[36:], uint64(len(calls)))
	heads := out[68:]
	off := 32 * len(calls) // from the start of heads
	for i := range calls {
		putWord(heads[32*i:], uint64(off))
		t := heads[off:]
		copy(t[12:32], calls[i].Target[:])
		if calls[i].AllowFailure {
			t[63] = 1
		}
		putWord(t[64:], 0x60)
		putWord(t[96:], uint64(len(calls[i].Data)))
		copy(t[128:], calls[i].Data)
		off += 4*32 + pad32(len(calls[i].Data))
	}
	return out
}

// abiReader reads ABI words from data, refusing what points outside it.
type abiReader struct{ data []byte }

// word returns the 32-byte word at off as a uint64; ok is false when the
// word is not inside the data or does not fit in an int (which no real
// offset or length does).
func (r abiReader) word(off int) (int, error) {
	if off < 0 || off > len(r.data)-32 {
		return 0, fmt.Errorf("word at byte %d is past the end (%d bytes)", off, len(r.data))
	}
	w := r.data[off : off+32]
	for _, b := range w[:24] {
		if b != 0 {
			return 0, fmt.Errorf("word at byte %d is too large (0x%x)", off, w)
		}
	}
	v := binary.BigEndian.Uint64(w[24:])
	if v > uint64(len(r.data)) {
		return 0, fmt.Errorf("word at byte %d (%d) points past the end (%d bytes)", off, v, len(r.data))
	}
	return int(v), nil
}

// decodeAggregate3 decodes aggregate3's return data, which must hold
// exactly want results. Each ReturnData is a slice of data (capped, so
// that appending to it copies). Malformed data (an offset or length out of
// range, a bool that is not 0 or 1, another count than want, a length that
// is not a whole number of words) is an error;
// nothing is allocated before the count is checked against want.
func decodeAggregate3(data []byte, want int) ([]Call3Result, error) {
	if len(data)%32 != 0 {
		return nil, fmt.Errorf("aggregate3 result: %d bytes, not a whole number of 32-byte words", len(data))
	}
	r := abiReader{data}
	arr, err := r.word(0)
	if err != nil {
		return nil, fmt.Errorf("aggregate3 result: array offset: %w", err)
	}
	n, err := r.word(arr)
	if err != nil {
		return nil, fmt.Errorf("aggregate3 result: array length: %w", err)
	}
	if n != want {
		return nil, fmt.Errorf("aggregate3 result: %d results for %d calls", n, want)
	}
	heads := arr + 32
	if n > (len(data)-heads)/32 {
		return nil, fmt.Errorf("aggregate3 result: %d results do not fit in %d bytes", n, len(data))
	}
	out := make([]Call3Result, n)
	for i := range out {
		rel, err := r.word(heads + 32*i)
		if err != nil {
			return nil, fmt.Errorf("aggregate3 result %d: offset: %w", i, err)
		}
		t := heads + rel
		ok, err := r.word(t)
		if err != nil || ok > 1 {
			return nil, fmt.Errorf("aggregate3 result %d: success is not a bool", i)
		}
		brel, err := r.word(t + 32)
		if err != nil {
			return nil, fmt.Errorf("aggregate3 result %d: returnData offset: %w", i, err)
		}
		b := t + brel
		size, err := r.word(b)
		if err != nil {
			return nil, fmt.Errorf("aggregate3 result %d: returnData length: %w", i, err)
		}
		if size > len(data)-b-32 {
			return nil, fmt.Errorf("aggregate3 result %d: returnData of %d bytes runs past the end (%d bytes)", i, size, len(data))
		}
		out[i] = Call3Result{Success: ok == 1, ReturnData: data[b+32 : b+32+size : b+32+size]}
	}
	return out, nil
}
