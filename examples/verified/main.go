// Command verified reads Ethereum believing its provider nothing that a
// proof can check. A light client (package beacon/light) starts from one
// checkpoint, a block root the user trusts, and follows the chain through
// the signatures of its sync committees; everything else stands on what it
// verified:
//
//   - an account's balance and a storage slot, proven (EIP-1186) against
//     the state root of the execution block the light client verified;
//
//   - an ERC-20 balanceOf through a verified eth_call: run here on
//     go-ethereum's EVM over proven state (package evm/verified);
//
//   - a validator's balance, proven from the beacon state whose root the
//     sync committee signed.
//
//     go run ./examples/verified
//
// With no configuration it starts two local servers in-process and says so
// in its first line: an EVM node (evmtest) and a beacon node (beacontest)
// whose blocks carry the EVM node's blocks and whose sync committee signs
// them. It reads all of the above, then has each server lie once and shows
// that the lie is refused (an error matching nodeaccess.ErrUnverified),
// never believed. To read a real chain, set:
//
//	NODEACCESS_BEACON_URL    the beacon node's base URL (or https://host/<KEY>)
//	NODEACCESS_BEACON_KEY    its access key (unset when the URL carries it)
//	NODEACCESS_EVM_URL       the EVM node's base URL (or https://host/<KEY>)
//	NODEACCESS_EVM_KEY       its access key (unset when the URL carries it)
//	NODEACCESS_CHECKPOINT    the trusted block root (0x…, 32 bytes): a recent
//	                         finalized block root from a source you trust
//	NODEACCESS_NETWORK       mainnet (the default), sepolia or hoodi
//	NODEACCESS_EVM_TOKEN     an ERC-20 token's address
//	NODEACCESS_EVM_HOLDER    the account whose balances are read
//	NODEACCESS_VALIDATOR     a validator index: its balance is proven from the
//	                         finalized state (a download of a few hundred MB on
//	                         mainnet); unset: skipped
//
// Amounts are printed in wei, the token's smallest unit and Gwei.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/beacon/beacontest"
	"github.com/nodeaccess/nodeaccess/beacon/light"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/evm/evmtest"
	"github.com/nodeaccess/nodeaccess/evm/verified"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// setup is what the program reads through.
type setup struct {
	bc        *beacon.Client
	ec        *evm.Client
	cfg       light.Config
	trusted   beacon.Root
	token     common.Address
	holder    common.Address
	validator int64 // -1: none
	// The local servers; nil with a URL.
	bsrv *beacontest.Server
	esrv *evmtest.Server
}

// run is the program, with its output and environment passed in so that a
// test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	s, err := configure(ctx, out, getenv)
	if err != nil {
		return err
	}
	if s.bsrv != nil {
		defer s.bsrv.Close()
		defer s.esrv.Close()
	}
	lc, err := light.New(s.bc, s.cfg, s.trusted)
	if err != nil {
		return err
	}
	if err := lc.Sync(ctx); err != nil {
		return fmt.Errorf("following the beacon chain from the checkpoint: %w", err)
	}
	fin, _ := lc.Finalized()
	head, _ := lc.Optimistic()
	fmt.Fprintf(out, "Light client: finalized slot %d, head slot %d, execution block %s verified.\n",
		fin.Beacon.Slot, head.Beacon.Slot, short(head.ExecutionBlockHash))

	v, err := verified.New(s.ec, lc) // *light.Client is the Anchor
	if err != nil {
		return err
	}
	if err := readEVM(ctx, out, v, s); err != nil {
		return err
	}
	if s.validator >= 0 {
		if err := proveValidator(ctx, out, s.bc, fin, beacon.ValidatorIndex(s.validator)); err != nil {
			return err
		}
	}
	if s.bsrv == nil {
		return nil
	}
	return lies(ctx, out, s, v)
}

// readEVM reads the holder's balance, its token balance from the token's
// storage, and the same through a verified balanceOf call, at the verified
// head.
func readEVM(ctx context.Context, out io.Writer, v *verified.Client, s *setup) error {
	wei, err := v.Balance(ctx, s.holder, evm.Latest)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Balance of %s: %s wei (proven).\n", short(s.holder), wei)
	if s.bsrv != nil {
		// The local token keeps balanceOf in the mapping at slot 1.
		slot := crypto.Keccak256Hash(common.LeftPadBytes(s.holder[:], 32), common.LeftPadBytes([]byte{1}, 32))
		word, err := v.StorageAt(ctx, s.token, slot, evm.Latest)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "Storage of %s at balanceOf[%s]: %s (proven).\n", short(s.token), short(s.holder), word.Big())
	}
	data := append(crypto.Keccak256([]byte("balanceOf(address)"))[:4], common.LeftPadBytes(s.holder[:], 32)...)
	res, err := v.Call(ctx, evm.CallMsg{To: s.token, Data: data}, evm.Latest)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "balanceOf(%s) on %s: %s (a verified eth_call).\n", short(s.holder), short(s.token), new(big.Int).SetBytes(res))
	return nil
}

// proveValidator proves validator i's balance from the finalized state,
// which must hash to the state root the sync committee signed.
func proveValidator(ctx context.Context, out io.Writer, bc *beacon.Client, fin light.Header, i beacon.ValidatorIndex) error {
	st, _, err := bc.State(ctx, beacon.RootID(fin.Beacon.StateRoot), beacon.StateOptions{})
	if err != nil {
		return err
	}
	if err := light.CheckState(st, fin); err != nil {
		return err
	}
	p, err := beacon.NewProver(st)
	if err != nil {
		return err
	}
	proof, gwei, err := p.ProveBalance(i)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Validator %d: %d Gwei, proven by %d hashes against the signed state root %s.\n",
		i, gwei, len(proof.Branch), short(fin.Beacon.StateRoot))
	return nil
}

// lies has each local server lie once: every lie is refused.
func lies(ctx context.Context, out io.Writer, s *setup, v *verified.Client) error {
	s.esrv.Lie(evmtest.Lie{Balance: true})
	_, err := v.Balance(ctx, s.holder, evm.Latest)
	s.esrv.Lie(evmtest.Lie{})
	fmt.Fprintf(out, "The EVM node adds one wei to the balance: refused (%v).\n", errors.Is(err, nodeaccess.ErrUnverified))

	s.esrv.Lie(evmtest.Lie{AccessList: true})
	data := append(crypto.Keccak256([]byte("balanceOf(address)"))[:4], common.LeftPadBytes(s.holder[:], 32)...)
	res, err := v.Call(ctx, evm.CallMsg{To: s.token, Data: data}, evm.Latest)
	s.esrv.Lie(evmtest.Lie{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "The EVM node leaves the slot out of the access list: fetched with its proof, balanceOf is still %s.\n", new(big.Int).SetBytes(res))

	s.bsrv.Lie(beacontest.Lie{Signature: true})
	defer s.bsrv.Lie(beacontest.Lie{})
	lc, err := light.New(s.bc, s.cfg, s.trusted)
	if err != nil {
		return err
	}
	err = lc.Sync(ctx)
	var ve *light.VerifyError
	if errors.As(err, &ve) {
		fmt.Fprintf(out, "The beacon node's committee signs another message: refused (check %q).\n", ve.Check)
		return nil
	}
	return fmt.Errorf("a forged signature was not refused: %v", err)
}

// configure reads the environment, or starts the local servers.
func configure(ctx context.Context, out io.Writer, getenv func(string) string) (*setup, error) {
	burl, eurl := getenv("NODEACCESS_BEACON_URL"), getenv("NODEACCESS_EVM_URL")
	if burl == "" && eurl == "" {
		if getenv("NODEACCESS_BEACON_KEY") != "" || getenv("NODEACCESS_EVM_KEY") != "" {
			return nil, errors.New("a key is set but no URL: set NODEACCESS_BEACON_URL and NODEACCESS_EVM_URL, or neither to read the local servers")
		}
		return local(ctx, out)
	}
	if burl == "" || eurl == "" {
		return nil, errors.New("set both NODEACCESS_BEACON_URL and NODEACCESS_EVM_URL (or neither, to read the local servers)")
	}
	s := &setup{validator: -1}
	var err error
	if s.bc, err = newClient(burl, getenv("NODEACCESS_BEACON_KEY"), beacon.New, beacon.NewFromURL); err != nil {
		return nil, err
	}
	if s.ec, err = newClient(eurl, getenv("NODEACCESS_EVM_KEY"), evm.New, evm.NewFromURL); err != nil {
		return nil, err
	}
	network := getenv("NODEACCESS_NETWORK")
	if network == "" {
		network = "mainnet"
	}
	if s.cfg, err = light.Chain(network); err != nil {
		return nil, err
	}
	if err := s.trusted.UnmarshalText([]byte(getenv("NODEACCESS_CHECKPOINT"))); err != nil || s.trusted == (beacon.Root{}) {
		return nil, fmt.Errorf("NODEACCESS_CHECKPOINT %q is not a block root (0x and 64 hex digits): it is required with a URL", getenv("NODEACCESS_CHECKPOINT"))
	}
	for name, a := range map[string]*common.Address{"NODEACCESS_EVM_TOKEN": &s.token, "NODEACCESS_EVM_HOLDER": &s.holder} {
		if !common.IsHexAddress(getenv(name)) {
			return nil, fmt.Errorf("%s %q is not an address: it is required with a URL", name, getenv(name))
		}
		*a = common.HexToAddress(getenv(name))
	}
	if x := getenv("NODEACCESS_VALIDATOR"); x != "" {
		n, err := strconv.ParseUint(x, 10, 63)
		if err != nil {
			return nil, fmt.Errorf("NODEACCESS_VALIDATOR %q is not a validator index", x)
		}
		s.validator = int64(n)
	}
	return s, nil
}

// newClient makes a client from a base URL and a key, or from an endpoint
// that carries its key.
func newClient[C any](url, key string, withKey func(string, string, ...nodeaccess.Option) (C, error), fromURL func(string, ...nodeaccess.Option) (C, error)) (C, error) {
	if key == "" {
		return fromURL(url)
	}
	return withKey(url, key)
}

// local starts the local servers: an EVM node with its token, and a beacon
// node whose blocks carry the EVM node's newest block and whose chain
// finalizes two epochs behind its head.
func local(ctx context.Context, out io.Writer) (*setup, error) {
	esrv, err := evmtest.New()
	if err != nil {
		return nil, err
	}
	var execHead atomic.Pointer[types.Header]
	h, err := esrv.EthClient().HeaderByNumber(ctx, nil)
	if err != nil {
		esrv.Close()
		return nil, err
	}
	execHead.Store(h)
	bsrv, err := beacontest.New(
		beacontest.WithStates(beacontest.NewState(beacon.Electra, beacon.MinimalPreset(), 64, 1)),
		beacontest.WithExecution(func(beacon.Slot) *beacon.ExecutionPayloadHeader {
			h := execHead.Load()
			return &beacon.ExecutionPayloadHeader{BlockHash: h.Hash(), BlockNumber: h.Number.Uint64(), StateRoot: h.Root, ParentHash: h.ParentHash, Timestamp: h.Time}
		}))
	if err != nil {
		esrv.Close()
		return nil, err
	}
	s := &setup{esrv: esrv, bsrv: bsrv, cfg: bsrv.LightConfig(), token: evmtest.Token(), holder: evmtest.Holder(), validator: 5}
	fail := func(err error) (*setup, error) { bsrv.Close(); esrv.Close(); return nil, err }
	if s.ec, err = esrv.Client(); err != nil {
		return fail(err)
	}
	if s.bc, err = bsrv.Client(); err != nil {
		return fail(err)
	}
	var g struct {
		Data struct {
			Root beacon.Root `json:"root"`
		} `json:"data"`
	}
	if err := s.bc.Get(ctx, &g, "/eth/v1/beacon/headers/genesis", nil); err != nil {
		return fail(err)
	}
	s.trusted = g.Data.Root // here the local chain's first block; in real use, a root you trust
	// Two sync committee periods of 8 epochs of 8 slots, finalizing two
	// epochs behind the head as a healthy chain does.
	for epoch := beacon.Epoch(1); epoch <= 16; epoch++ {
		if err := bsrv.Advance(8); err != nil {
			return fail(err)
		}
		if epoch >= 2 {
			if err := bsrv.Finalize(epoch - 2); err != nil {
				return fail(err)
			}
		}
	}
	if err := bsrv.Advance(2); err != nil {
		return fail(err)
	}
	fmt.Fprintf(out, "No NODEACCESS_BEACON_URL or NODEACCESS_EVM_URL set: reading a local EVM node at %s and a local beacon node at %s (keys REDACTED).\n", esrv.URL, bsrv.URL)
	return s, nil
}

// short abbreviates a hash or an address for printing.
func short(b interface{ Hex() string }) string {
	h := b.Hex()
	return h[:6] + "…" + h[len(h)-4:]
}
