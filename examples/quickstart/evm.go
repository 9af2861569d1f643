package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/evm"
)

// evmEP is where the EVM calls go and what they ask for.
type evmEP struct {
	describe string // the first line the program prints
	client   *evm.Client
	to       common.Address
	data     []byte
	tx       common.Hash
}

// evmEndpoint reads the environment, or starts the local node when
// NODEACCESS_EVM_URL is unset.
func evmEndpoint(getenv func(string) string) (evmEP, func(), error) {
	url := getenv("NODEACCESS_EVM_URL")
	if url == "" {
		n, err := startLocalNode()
		if err != nil {
			return evmEP{}, nil, fmt.Errorf("starting the local node: %w", err)
		}
		c, err := evm.New(n.baseURL, n.key)
		if err != nil {
			n.close()
			return evmEP{}, nil, err
		}
		return evmEP{
			describe: fmt.Sprintf("No NODEACCESS_EVM_URL set: calling a local go-ethereum node at %s (key %s).", n.baseURL, "REDACTED"),
			client:   c, to: n.contract, tx: n.tx,
		}, n.close, nil
	}
	var c *evm.Client
	var err error
	if key := getenv("NODEACCESS_EVM_KEY"); key != "" {
		c, err = evm.New(url, key)
	} else {
		c, err = evm.NewFromURL(url)
	}
	if err != nil {
		return evmEP{}, nil, err
	}
	ep := evmEP{describe: "Calling " + c.String() + ".", client: c}
	if s := getenv("NODEACCESS_EVM_TO"); s != "" {
		if !common.IsHexAddress(s) {
			return evmEP{}, nil, fmt.Errorf("NODEACCESS_EVM_TO %q is not a 20-byte hex address", s)
		}
		ep.to = common.HexToAddress(s)
	}
	if s := getenv("NODEACCESS_EVM_DATA"); s != "" {
		ep.data = common.FromHex(s)
	}
	if s := getenv("NODEACCESS_EVM_TX"); s != "" {
		if ep.tx, err = evm.ParseHash(s); err != nil {
			return evmEP{}, nil, fmt.Errorf("NODEACCESS_EVM_TX: %w", err)
		}
	}
	return ep, func() {}, nil
}

// runEVM makes the EVM calls and prints what they return.
func runEVM(ctx context.Context, out io.Writer, ep evmEP) error {
	fmt.Fprintln(out, "\n== EVM")
	if ep.to == (common.Address{}) {
		fmt.Fprintln(out, "eth_call: skipped (set NODEACCESS_EVM_TO)")
	} else {
		res, err := ep.client.Call(ctx, evm.CallMsg{To: ep.to, Data: ep.data}, evm.Latest)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "eth_call %s at latest: 0x%x", ep.to.Hex(), res)
		if len(res) == 32 {
			fmt.Fprintf(out, " (uint256 %s)", new(big.Int).SetBytes(res))
		}
		fmt.Fprintln(out)
		code, err := ep.client.Code(ctx, ep.to, evm.Latest)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "eth_getCode %s: %d bytes\n", ep.to.Hex(), len(code))
	}
	if ep.tx == (common.Hash{}) {
		fmt.Fprintln(out, "ots_getInternalOperations: skipped (set NODEACCESS_EVM_TX)")
		return nil
	}
	ops, err := ep.client.InternalOperations(ctx, ep.tx)
	var re *nodeaccess.RPCError
	switch {
	case errors.As(err, &re) && re.Code == -32601:
		// go-ethereum (the local node) does not serve Otterscan's methods;
		// Erigon, reth and anvil do.
		fmt.Fprintf(out, "ots_getInternalOperations %s: not served by this node (%s)\n", ep.tx.Hex(), re.Message)
		return nil
	case err != nil:
		return err
	}
	fmt.Fprintf(out, "ots_getInternalOperations %s: %d operations\n", ep.tx.Hex(), len(ops))
	for _, op := range ops {
		fmt.Fprintf(out, "  %-12s %s -> %s %s wei\n", op.Type, op.From.Hex(), op.To.Hex(), op.Value)
	}
	return nil
}
