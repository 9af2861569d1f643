package hypertest

import (
	"encoding/binary"
	"math"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
)

// HyperEVM's read precompiles, 0x…0800 to 0x…0813, as hyper-evm-lib's
// HLConstants.sol names them (data/SOURCES.md).
const (
	pcPosition         = 0x800
	pcSpotBalance      = 0x801
	pcVaultEquity      = 0x802
	pcWithdrawable     = 0x803
	pcDelegations      = 0x804
	pcDelegatorSummary = 0x805
	pcMarkPx           = 0x806
	pcOraclePx         = 0x807
	pcSpotPx           = 0x808
	pcL1BlockNumber    = 0x809
	pcPerpAssetInfo    = 0x80a
	pcSpotInfo         = 0x80b
	pcTokenInfo        = 0x80c
	pcBBO              = 0x80e
	pcMarginSummary    = 0x80f
	pcPosition2        = 0x813
	pcFirst, pcLast    = 0x800, 0x813
)

// l1BlockNumber is the L1 block number the server answers: hand-written,
// not a real block.
const l1BlockNumber = 800_000_000

// isPrecompile reports whether a is one of the read precompiles.
func isPrecompile(a common.Address) bool {
	for _, b := range a[:18] {
		if b != 0 {
			return false
		}
	}
	n := int(binary.BigEndian.Uint16(a[18:]))
	return n >= pcFirst && n <= pcLast
}

// precompile answers a read: the answer SetPrecompile set for these bytes,
// else one built from the server's data. ok is false for input the
// precompile refuses (an asset, token, vault or dex it does not know, or
// call data of the wrong shape), and for the precompiles the server does
// not model.
func (st *coreState) precompile(to common.Address, in []byte) (out []byte, ok bool) {
	if b, set := st.s.data.precompileAnswer(to, in); set {
		return b, true
	}
	n := int(binary.BigEndian.Uint16(to[18:]))
	switch n {
	case pcPosition, pcPosition2:
		_, perp, ok := readUserAnd(in, 32)
		if !ok || (n == pcPosition && perp > math.MaxUint16) {
			return nil, false
		}
		if _, ok := st.perp(perp); !ok {
			return nil, false
		}
		return pack(positionType, struct {
			Szi            int64
			EntryNtl       uint64
			IsolatedRawUsd int64
			Leverage       uint32
			IsIsolated     bool
		}{})
	case pcSpotBalance:
		_, token, ok := readUserAnd(in, 64)
		if !ok {
			return nil, false
		}
		if _, ok := st.spot().tokens[token]; !ok {
			return nil, false
		}
		return pack(spotBalanceType, struct{ Total, Hold, EntryNtl uint64 }{})
	case pcVaultEquity:
		if len(in) != 64 || !isAddressWord(in[:32]) || !isAddressWord(in[32:]) {
			return nil, false
		}
		eq, locked, ok := st.vaultEquity(common.BytesToAddress(in[12:32]), common.BytesToAddress(in[44:64]))
		if !ok {
			return nil, false
		}
		return pack(vaultEquityType, struct{ Equity, LockedUntilTimestamp uint64 }{eq, locked})
	case pcWithdrawable, pcDelegatorSummary, pcDelegations:
		if len(in) != 32 || !isAddressWord(in) {
			return nil, false
		}
		switch n {
		case pcWithdrawable:
			return pack(uint64Type, uint64(0))
		case pcDelegatorSummary:
			return pack(delegatorSummaryType, struct{ Delegated, Undelegated, TotalPendingWithdrawal, NPendingWithdrawals uint64 }{})
		}
		return pack(delegationsType, []struct {
			Validator            common.Address
			Amount               uint64
			LockedUntilTimestamp uint64
		}{})
	case pcMarkPx, pcOraclePx:
		idx, ok := readUint(in, 32)
		if !ok {
			return nil, false
		}
		p, ok := st.perp(idx)
		if !ok {
			return nil, false
		}
		return pack(uint64Type, st.scaled(p.mid, 6-p.sz))
	case pcSpotPx:
		idx, ok := readUint(in, 64)
		if !ok {
			return nil, false
		}
		p, ok := st.spotPair(idx)
		if !ok {
			return nil, false
		}
		return pack(uint64Type, st.scaled(p.mid, 8-p.baseSz))
	case pcL1BlockNumber:
		if len(in) != 0 {
			return nil, false
		}
		return pack(uint64Type, uint64(l1BlockNumber))
	case pcPerpAssetInfo:
		idx, ok := readUint(in, 32)
		if !ok {
			return nil, false
		}
		p, ok := st.perp(idx)
		if !ok || p.maxLeverage > math.MaxUint8 || p.sz > math.MaxUint8 {
			return nil, false
		}
		return pack(perpAssetInfoType, struct {
			Coin          string
			MarginTableId uint32
			SzDecimals    uint8
			MaxLeverage   uint8
			OnlyIsolated  bool
		}{p.name, uint32(p.marginTable), uint8(p.sz), uint8(p.maxLeverage), p.onlyIsolated})
	case pcSpotInfo:
		idx, ok := readUint(in, 64)
		if !ok {
			return nil, false
		}
		p, ok := st.spotPair(idx)
		if !ok {
			return nil, false
		}
		return pack(spotInfoType, struct {
			Name   string
			Tokens [2]uint64
		}{p.name, [2]uint64{p.base, p.quote}})
	case pcTokenInfo:
		idx, ok := readUint(in, 32)
		if !ok {
			return nil, false
		}
		t, ok := st.spot().tokens[idx]
		if !ok {
			return nil, false
		}
		return pack(tokenInfoType, struct {
			Name                    string
			Spots                   []uint64
			DeployerTradingFeeShare uint64
			Deployer                common.Address
			EvmContract             common.Address
			SzDecimals              uint8
			WeiDecimals             uint8
			EvmExtraWeiDecimals     int8
		}{t.name, t.spots, 0, common.Address{}, t.evmContract, t.sz, t.wei, t.extra})
	case pcBBO:
		asset, ok := readUint(in, 32)
		if !ok {
			return nil, false
		}
		px, ok := st.assetPx(asset)
		if !ok {
			return nil, false
		}
		return pack(bboType, struct{ Bid, Ask uint64 }{px, px})
	case pcMarginSummary:
		if len(in) != 64 {
			return nil, false
		}
		dex, ok := readUint(in[:32], 32)
		if !ok || !isAddressWord(in[32:]) {
			return nil, false
		}
		if _, known := st.dexNames()[dex]; !known {
			return nil, false
		}
		return pack(marginSummaryType, struct {
			AccountValue int64
			MarginUsed   uint64
			NtlPos       uint64
			RawUsd       int64
		}{})
	}
	return nil, false
}

// readUserAnd reads (address, uintN) call data, N bits.
func readUserAnd(in []byte, bits int) (common.Address, uint64, bool) {
	if len(in) != 64 || !isAddressWord(in[:32]) {
		return common.Address{}, 0, false
	}
	n, ok := readUint(in[32:], bits)
	return common.BytesToAddress(in[12:32]), n, ok
}

// readUint reads call data of one word holding a uintN.
func readUint(in []byte, bits int) (uint64, bool) {
	if len(in) != 32 {
		return 0, false
	}
	for _, b := range in[:24] {
		if b != 0 {
			return 0, false
		}
	}
	v := binary.BigEndian.Uint64(in[24:])
	if bits < 64 && v>>bits != 0 {
		return 0, false
	}
	return v, true
}

func isAddressWord(w []byte) bool {
	for _, b := range w[:12] {
		if b != 0 {
			return false
		}
	}
	return true
}

// scaled is round(mid × 10^exp) as the precompiles' integer, 0 for no mid
// (or one beyond a uint64).
func (st *coreState) scaled(mid string, exp int) uint64 {
	if mid == "" {
		return 0
	}
	d, err := decimal.NewFromString(mid)
	if err != nil {
		return 0
	}
	v := d.Shift(int32(exp)).Round(0).BigInt()
	if v.Sign() < 0 || !v.IsUint64() {
		return 0
	}
	return v.Uint64()
}

// The ABI types of the answers: the structs of hyper-evm-lib's
// PrecompileLib.sol (data/SOURCES.md), packed by go-ethereum's ABI encoder
// (abi.encode of the struct: a dynamic struct starts with its offset).
var (
	uint64Type           = abiType("uint64", nil)
	positionType         = abiType("tuple", fields("szi", "int64", "entryNtl", "uint64", "isolatedRawUsd", "int64", "leverage", "uint32", "isIsolated", "bool"))
	spotBalanceType      = abiType("tuple", fields("total", "uint64", "hold", "uint64", "entryNtl", "uint64"))
	vaultEquityType      = abiType("tuple", fields("equity", "uint64", "lockedUntilTimestamp", "uint64"))
	delegationsType      = abiType("tuple[]", fields("validator", "address", "amount", "uint64", "lockedUntilTimestamp", "uint64"))
	delegatorSummaryType = abiType("tuple", fields("delegated", "uint64", "undelegated", "uint64", "totalPendingWithdrawal", "uint64",
		"nPendingWithdrawals", "uint64"))
	perpAssetInfoType = abiType("tuple", fields("coin", "string", "marginTableId", "uint32", "szDecimals", "uint8", "maxLeverage", "uint8",
		"onlyIsolated", "bool"))
	spotInfoType  = abiType("tuple", fields("name", "string", "tokens", "uint64[2]"))
	tokenInfoType = abiType("tuple", fields("name", "string", "spots", "uint64[]", "deployerTradingFeeShare", "uint64", "deployer", "address",
		"evmContract", "address", "szDecimals", "uint8", "weiDecimals", "uint8", "evmExtraWeiDecimals", "int8"))
	bboType           = abiType("tuple", fields("bid", "uint64", "ask", "uint64"))
	marginSummaryType = abiType("tuple", fields("accountValue", "int64", "marginUsed", "uint64", "ntlPos", "uint64", "rawUsd", "int64"))
)

func fields(nameType ...string) []abi.ArgumentMarshaling {
	out := make([]abi.ArgumentMarshaling, 0, len(nameType)/2)
	for i := 0; i < len(nameType); i += 2 {
		out = append(out, abi.ArgumentMarshaling{Name: nameType[i], Type: nameType[i+1]})
	}
	return out
}

func abiType(t string, components []abi.ArgumentMarshaling) abi.Arguments {
	typ, err := abi.NewType(t, "", components)
	if err != nil {
		panic("hypertest: ABI type " + t + ": " + err.Error()) // a defect in this file
	}
	return abi.Arguments{{Type: typ}}
}

// pack ABI-encodes v as the one value of args.
func pack(args abi.Arguments, v any) ([]byte, bool) {
	b, err := args.Pack(v)
	if err != nil {
		panic("hypertest: packing a precompile answer: " + err.Error()) // a defect in this file
	}
	return b, true
}
