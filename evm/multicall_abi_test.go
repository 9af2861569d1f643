package evm

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aggregate3ABI is aggregate3 as the Multicall3 ABI (the mds1/multicall3
// README's) declares it, for go-ethereum's accounts/abi.
var aggregate3ABI = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"aggregate3","stateMutability":"payable",
	"inputs":[{"name":"calls","type":"tuple[]","components":[{"name":"target","type":"address"},{"name":"allowFailure","type":"bool"},{"name":"callData","type":"bytes"}]}],
	"outputs":[{"name":"returnData","type":"tuple[]","components":[{"name":"success","type":"bool"},{"name":"returnData","type":"bytes"}]}]}]`))
	if err != nil {
		panic(err)
	}
	return a
}()

type gethCall3 struct {
	Target       common.Address
	AllowFailure bool
	CallData     []byte
}

type gethResult struct {
	Success    bool
	ReturnData []byte
}

func TestAggregate3Selector(t *testing.T) {
	assert.Equal(t, crypto.Keccak256([]byte("aggregate3((address,bool,bytes)[])"))[:4], aggregate3Selector[:])
	assert.Equal(t, aggregate3ABI.Methods["aggregate3"].ID, aggregate3Selector[:])
}

// randomBytes returns n random bytes, n drawn so that the lengths around
// the 32-byte boundaries come up often.
func randomBytes(r *rand.Rand) []byte {
	n := [...]int{0, 1, 4, 31, 32, 33, 36, 64, 68, 100, 255}[r.IntN(11)]
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// The call data is byte for byte what go-ethereum's abi packs.
func TestEncodeAggregate3MatchesGeth(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		calls := make([]Call3, r.IntN(6))
		geth := make([]gethCall3, len(calls))
		for i := range calls {
			var to common.Address
			for j := range to {
				to[j] = byte(r.Uint32())
			}
			calls[i] = Call3{Target: to, AllowFailure: r.IntN(2) == 1, Data: randomBytes(r)}
			geth[i] = gethCall3{to, calls[i].AllowFailure, calls[i].Data}
		}
		want, err := aggregate3ABI.Pack("aggregate3", geth)
		require.NoError(t, err)
		require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(encodeAggregate3(calls)), "%d calls", len(calls))
	}
}

// packResults encodes results as aggregate3 returns them, with go-ethereum's
// abi.
func packResults(t testing.TB, res []gethResult) []byte {
	t.Helper()
	out, err := aggregate3ABI.Methods["aggregate3"].Outputs.Pack(res)
	require.NoError(t, err)
	return out
}

// gethDecode decodes aggregate3's output with go-ethereum's abi.
func gethDecode(data []byte) ([]gethResult, error) {
	var res []gethResult
	v, err := aggregate3ABI.Unpack("aggregate3", data)
	if err != nil {
		return nil, err
	}
	err = aggregate3ABI.Methods["aggregate3"].Outputs.Copy(&res, v)
	return res, err
}

// The decoder reads what go-ethereum's abi packs, and reads it as
// go-ethereum's abi does.
func TestDecodeAggregate3MatchesGeth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		res := make([]gethResult, r.IntN(6))
		for i := range res {
			res[i] = gethResult{r.IntN(2) == 1, randomBytes(r)}
		}
		data := packResults(t, res)
		got, err := decodeAggregate3(data, len(res))
		require.NoError(t, err)
		require.Len(t, got, len(res))
		for i := range res {
			assert.Equal(t, res[i].Success, got[i].Success)
			assert.Equal(t, hex.EncodeToString(res[i].ReturnData), hex.EncodeToString(got[i].ReturnData))
			assert.Equal(t, len(got[i].ReturnData), cap(got[i].ReturnData), "capped: an append copies")
		}
	}
}

// abiWord is a 32-byte ABI word holding v.
func abiWord(v uint64) []byte {
	b := make([]byte, 32)
	binary.BigEndian.PutUint64(b[24:], v)
	return b
}

func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// Malformed output is refused with an error, never a panic, and without
// allocating what a length claims: offsets and lengths past the end, huge
// words, a bool that is not 0 or 1, another count than the calls sent.
func TestDecodeAggregate3Malformed(t *testing.T) {
	good := packResults(t, []gethResult{{true, []byte{1, 2, 3}}, {false, nil}})
	_, err := decodeAggregate3(good, 2)
	require.NoError(t, err)
	huge := bytes.Repeat([]byte{0xff}, 32)
	set := func(off int, w []byte) []byte {
		b := bytes.Clone(good)
		copy(b[off:], w)
		return b
	}
	for name, tc := range map[string]struct {
		data []byte
		want int
	}{
		"empty":                      {nil, 0},
		"short":                      {good[:31], 2},
		"array offset past the end":  {set(0, abiWord(uint64(len(good)))), 2},
		"array offset huge":          {set(0, huge), 2},
		"count other than sent":      {good, 3},
		"count huge":                 {set(32, huge), 2},
		"count beyond the data":      {concat(abiWord(32), abiWord(1000)), 1000},
		"tuple offset past the end":  {set(64, abiWord(uint64(len(good)))), 2},
		"tuple offset huge":          {set(64, huge), 2},
		"success is 2":               {set(128, abiWord(2)), 2},
		"bytes offset huge":          {set(160, huge), 2},
		"bytes length past the end":  {set(192, abiWord(uint64(len(good)))), 2},
		"bytes length huge":          {set(192, huge), 2},
		"truncated in the last data": {good[:len(good)-64], 2},
		"not whole words":            {good[:len(good)-1], 2},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := decodeAggregate3(tc.data, tc.want)
			assert.Error(t, err)
			assert.Nil(t, got)
		})
	}
	// A count that the data cannot hold allocates nothing of its size.
	claim := concat(abiWord(32), abiWord(8192), make([]byte, 8192))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		_, err := decodeAggregate3(claim, 8192)
		require.Error(t, err)
	}
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), "bytes allocated by 10 refusals")
}

// multicallSeeds are real aggregate3 outputs of the Multicall3 contract in
// evmtest (testdata/multicall3/, see testdata/SOURCES.md).
func multicallSeeds(t testing.TB) [][]byte {
	files, err := filepath.Glob("testdata/multicall3/*.hex")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		data, err := hex.DecodeString(strings.TrimSpace(string(b)))
		require.NoError(t, err, f)
		out = append(out, data)
	}
	return out
}

// FuzzDecodeAggregate3: whatever the bytes, the decoder does not panic, it
// accepts nothing that go-ethereum's abi refuses, and what it accepts it
// reads as go-ethereum does. (It may refuse what go-ethereum accepts: it
// also checks the words go-ethereum skips, such as the high bytes of an
// offset.)
func FuzzDecodeAggregate3(f *testing.F) {
	for _, s := range multicallSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The count the data claims (its low byte: a larger one is refused
		// anyway), so that the decoder is asked for what is there.
		n := 0
		if len(data) >= 64 {
			if off := int(data[31]); off+32 <= len(data) {
				n = int(data[off+31])
			}
		}
		got, err := decodeAggregate3(data, n)
		if err != nil {
			return // refused
		}
		// go-ethereum's decoder runs only on what ours accepted: on some
		// malformed inputs it takes very long.
		geth, gerr := gethDecode(data)
		require.NoError(t, gerr, "accepted what go-ethereum refuses: %x", data)
		require.Len(t, got, len(geth))
		for i := range geth {
			require.Equal(t, geth[i].Success, got[i].Success)
			require.Equal(t, geth[i].ReturnData, got[i].ReturnData)
		}
	})
}
