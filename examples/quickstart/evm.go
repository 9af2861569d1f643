package main

import (
	"context"
	"fmt"
	"io"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/shopspring/decimal"
)

// evmTarget is where the EVM calls go and what they ask for.
type evmTarget struct {
	client *evm.Client // eth_call, eth_getCode
	ots    *evm.Client // ots_getInternalOperations
	where  string
	to     common.Address
	data   []byte
	token  bool // to is the local token and data its balanceOf(Holder): print the amount
	txs    []common.Hash
}

// evmClients returns the clients for NODEACCESS_EVM_URL, or on a local
// evmtest chain when it is unset.
func evmClients(getenv func(string) string) (t evmTarget, stop func(), err error) {
	url, key := getenv("NODEACCESS_EVM_URL"), getenv("NODEACCESS_EVM_KEY")
	if url == "" {
		srv, err := evmtest.New()
		if err != nil {
			return t, nil, fmt.Errorf("starting the local EVM: %w", err)
		}
		t.client, err = srv.Client()
		if err == nil {
			// Otterscan's method is served, as on the exchange chain, at {key}/evm.
			t.ots, err = srv.Client(evm.WithPathSuffix("evm"))
		}
		if err != nil {
			srv.Close()
			return t, nil, err
		}
		t.where = "local evmtest " + srv.URL
		t.to, t.token = evmtest.Token(), true
		t.data = append(common.FromHex("0x70a08231"), common.LeftPadBytes(evmtest.Holder().Bytes(), 32)...) // balanceOf(Holder)
		for _, tx := range srv.Scenario().Transactions() {
			t.txs = append(t.txs, tx.Hash)
		}
		return t, srv.Close, nil
	}
	if key != "" {
		t.client, err = evm.New(url, key)
	} else {
		t.client, err = evm.NewFromURL(url)
	}
	if err != nil {
		return t, nil, err
	}
	t.ots, t.where = t.client, fmt.Sprint(t.client)
	if s := getenv("NODEACCESS_EVM_TO"); s != "" {
		if !common.IsHexAddress(s) {
			return t, nil, fmt.Errorf("NODEACCESS_EVM_TO %q is not a 20-byte hex address", s)
		}
		t.to = common.HexToAddress(s)
	}
	if s := getenv("NODEACCESS_EVM_DATA"); s != "" {
		if t.data, err = hexutil.Decode(s); err != nil {
			return t, nil, fmt.Errorf("NODEACCESS_EVM_DATA %q is not 0x-prefixed hex with an even number of digits", s)
		}
	}
	if s := getenv("NODEACCESS_EVM_TX"); s != "" {
		var h common.Hash // UnmarshalText takes exactly 0x and 64 hex digits
		if err := h.UnmarshalText([]byte(s)); err != nil {
			return t, nil, fmt.Errorf("NODEACCESS_EVM_TX: %q is not a transaction hash: %w", s, err)
		}
		t.txs = []common.Hash{h}
	}
	return t, func() {}, nil
}

// runEVM makes the EVM calls and prints what they return.
func runEVM(ctx context.Context, out io.Writer, getenv func(string) string) error {
	t, stop, err := evmClients(getenv)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Fprintf(out, "\n== EVM (%s)\n", t.where)
	if t.to == (common.Address{}) {
		fmt.Fprintln(out, "eth_call, eth_getCode: skipped (set NODEACCESS_EVM_TO)")
	} else {
		res, err := t.client.Call(ctx, evm.CallMsg{To: t.to, Data: t.data}, evm.Latest)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "eth_call %s at latest: 0x%x\n", t.to.Hex(), res)
		if t.token && len(res) == 32 {
			amount := decimal.NewFromBigInt(new(big.Int).SetBytes(res), -evmtest.TokenDecimals)
			fmt.Fprintf(out, "  balanceOf(%s) = %s %s\n", evmtest.Holder().Hex(), amount.StringFixed(evmtest.TokenDecimals), evmtest.TokenSymbol)
		}
		code, err := t.client.Code(ctx, t.to, evm.Latest)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "eth_getCode %s: %s\n", t.to.Hex(), count(len(code), "byte"))
	}
	if len(t.txs) == 0 {
		fmt.Fprintln(out, "ots_getInternalOperations: skipped (set NODEACCESS_EVM_TX)")
	}
	for _, tx := range t.txs {
		ops, err := t.ots.InternalOperations(ctx, tx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "ots_getInternalOperations %s: %s\n", tx.Hex(), count(len(ops), "operation"))
		for _, op := range ops {
			fmt.Fprintf(out, "  %-12s %s -> %s %s wei\n", op.Type, op.From.Hex(), op.To.Hex(), op.Value)
		}
	}
	return nil
}
