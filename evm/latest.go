package evm

import (
	"bytes"
	"fmt"
	"time"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/config"
	"github.com/nodeaccess/nodeaccess/internal/evmlatest"
)

// A client may be told to read state at the latest block only (package
// hyper does, for HyperEVM, whose RPC answers any other block from the
// latest state without an error). It then refuses every state read at
// another block selector before sending anything.

type latestOnlyKey struct{}

// unanchoredKey holds why no light client anchors the client's chain
// (evmlatest.Unanchored).
type unanchoredKey struct{}

// followProfileKey holds a chain's eth_getLogs range limit and block
// time (evmlatest.Follow).
type followProfileKey struct{}

type followProfile struct {
	maxRange uint64
	poll     time.Duration
}

func init() {
	evmlatest.Option = func(why string) nodeaccess.Option {
		return option("latestOnly", func(c *config.Config) error {
			c.SetExt(latestOnlyKey{}, why)
			return nil
		})
	}
	evmlatest.Unanchored = func(why string) nodeaccess.Option {
		return option("unanchored", func(c *config.Config) error {
			c.SetExt(unanchoredKey{}, why)
			return nil
		})
	}
	evmlatest.WhyUnanchored = func(c any) string {
		if cl, ok := c.(*Client); ok && cl != nil {
			return cl.unanchored
		}
		return ""
	}
	evmlatest.Follow = func(maxRange uint64, blockTime time.Duration) nodeaccess.Option {
		return option("followProfile", func(c *config.Config) error {
			c.SetExt(followProfileKey{}, followProfile{maxRange: maxRange, poll: blockTime})
			return nil
		})
	}
}

// stateBlockArg is the position of the block parameter of the methods
// that read the state at a block; a call of one of them, sent through
// CallContext or Add, is checked as Call is.
var stateBlockArg = map[string]int{
	"eth_call":                1,
	"eth_estimateGas":         1,
	"eth_createAccessList":    1,
	"eth_simulateV1":          1,
	"eth_getBalance":          1,
	"eth_getCode":             1,
	"eth_getTransactionCount": 1,
	"eth_getStorageAt":        2,
	"eth_getProof":            2,
}

// notLatest describes b when it selects a block other than the latest, ""
// for Latest and nil.
func notLatest(b Block) string {
	switch b := b.(type) {
	case nil:
		return ""
	case Tag:
		if b == Latest {
			return ""
		}
		return "tag " + string(b)
	case BlockNumber:
		return "block number " + b.String()
	case BlockHash:
		return "block hash " + b.Hash.Hex()
	}
	return "a block selector of another type"
}

// notLatestJSON describes an encoded block parameter when it selects a
// block other than the latest: "" when it is "latest" or null.
func notLatestJSON(param []byte) string {
	p := bytes.TrimSpace(param)
	if len(p) == 0 || string(p) == "null" || string(p) == `"latest"` {
		return ""
	}
	return "block parameter " + string(p)
}

// checkLatest refuses a state read at a block other than the latest when
// the client reads the latest state only; what describes the block
// (notLatest). Other clients accept every block.
func (c *Client) checkLatest(what string) error {
	if c.latestOnly == "" || what == "" {
		return nil
	}
	return &nodeaccess.InputError{Arg: "block", Reason: fmt.Sprintf("%s refused: %s", what, c.latestOnly)}
}
