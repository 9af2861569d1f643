package evm

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/nodeaccess/nodeaccess"
)

// simulationSeeds are the result members of testdata/simulate's recorded
// answers (the error answers have none).
func simulationSeeds(f *testing.F) []string {
	files, err := filepath.Glob("testdata/simulate/*.io")
	if err != nil || len(files) == 0 {
		f.Fatalf("no recordings: %v", err)
	}
	var seeds []string
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "<< "); ok {
				var resp struct{ Result json.RawMessage }
				if err := json.Unmarshal([]byte(line), &resp); err == nil && resp.Result != nil {
					seeds = append(seeds, string(resp.Result))
				}
			}
		}
		fh.Close()
	}
	return seeds
}

// FuzzDecodeSimulation: whatever the answer, the decoder returns blocks or
// an error, never panics; a call has an error exactly when it failed, a
// *RevertError or a *nodeaccess.RPCError; and what it decodes agrees with
// go-ethereum's ethclient decoding of the same answer where that succeeds.
func FuzzDecodeSimulation(f *testing.F) {
	for _, s := range simulationSeeds(f) {
		f.Add([]byte(s))
	}
	f.Add([]byte(`[{"number":"0x01","hash":"0x0fa3b104fefa31b78486265bea6faf4d4f5a9ef4a89b71ba09167451cd4b727d","timestamp":"0x2","gasLimit":"0x3","gasUsed":"0x4","calls":[{"returnData":"0x","gasUsed":"0x1","status":"0x0","error":{"code":-32000,"message":"Execution reverted","data":"0x"}}]}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		blocks, err := decodeSimulation(raw, func(s string) string { return s })
		if err != nil {
			return
		}
		for _, b := range blocks {
			if !json.Valid(b.Raw) {
				t.Fatalf("raw block %q", b.Raw)
			}
			for _, c := range b.Calls {
				if c.Success != (c.Err == nil) {
					t.Fatalf("success %v with error %v", c.Success, c.Err)
				}
				var rev *RevertError
				var re *nodeaccess.RPCError
				if c.Err != nil && !errors.As(c.Err, &rev) && !errors.As(c.Err, &re) {
					t.Fatalf("error %T", c.Err)
				}
			}
		}
		var geth []ethclient.SimulateBlockResult
		if json.Unmarshal(raw, &geth) != nil {
			return
		}
		if len(geth) != len(blocks) {
			t.Fatalf("%d blocks, go-ethereum %d", len(blocks), len(geth))
		}
		for i, g := range geth {
			b := blocks[i]
			if g.Number == nil || g.Number.Uint64() != b.Number || g.Hash != b.Hash || g.GasUsed != b.GasUsed || len(g.Calls) != len(b.Calls) {
				t.Fatalf("block %d differs from go-ethereum's decoding", i)
			}
			for j, gc := range g.Calls {
				if (gc.Status == 1) != b.Calls[j].Success || gc.GasUsed != b.Calls[j].GasUsed || len(gc.Logs) != len(b.Calls[j].Logs) {
					t.Fatalf("block %d call %d differs from go-ethereum's decoding", i, j)
				}
			}
		}
	})
}
