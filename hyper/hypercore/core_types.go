package hypercore

import (
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
)

// Position is a user's position in a perp, as Core.Position reads it.
type Position struct {
	// Size is the position's size in the perp's coin: positive for a
	// long, negative for a short, zero for none (the precompile's szi,
	// divided by 10^szDecimals).
	Size decimal.Decimal
	// EntryNotional is the position's notional value at entry, in USD.
	EntryNotional decimal.Decimal
	// IsolatedRawUSD is the isolated margin's raw USD amount (the
	// precompile's isolatedRawUsd), in USD.
	IsolatedRawUSD decimal.Decimal
	// Leverage is the position's leverage.
	Leverage int
	// Isolated is true for isolated margin, false for cross.
	Isolated bool
}

// SpotBalance is a user's balance of a token on HyperCore, as
// Core.SpotBalance reads it.
type SpotBalance struct {
	// Total is the whole balance, in the token (the precompile's integer
	// divided by 10^weiDecimals).
	Total decimal.Decimal
	// Hold is the part of Total held by open orders, in the token.
	Hold decimal.Decimal
	// EntryNotionalRaw is the precompile's entryNtl as it answers it: no
	// public document states its unit, so the SDK does not scale it.
	EntryNotionalRaw uint64
}

// Delegation is a user's HYPE staked with one validator, one of
// Staking.Delegations.
type Delegation struct {
	// Validator is the validator's address.
	Validator common.Address
	// Amount is the HYPE delegated (the precompile's integer divided by
	// 10^8, HYPE's weiDecimals).
	Amount decimal.Decimal
	// LockedUntil is when the delegation can be undelegated (the
	// precompile's Unix milliseconds, in UTC), the zero time for 0.
	LockedUntil time.Time
}

// Staking is a user's HYPE staking, as Core.Staking reads it. Amounts are
// in HYPE.
type Staking struct {
	// Delegated is the HYPE delegated to validators.
	Delegated decimal.Decimal
	// Undelegated is the HYPE in the staking account, not delegated.
	Undelegated decimal.Decimal
	// PendingWithdrawal is the HYPE on its way out of staking.
	PendingWithdrawal decimal.Decimal
	// PendingWithdrawals is the number of those withdrawals.
	PendingWithdrawals int
	// Delegations are the HYPE delegated, one per validator.
	Delegations []Delegation
}

// BBO is a market's best bid and best offer, as Core.BBO reads it, in the
// market's price (0 for a side without orders).
type BBO struct {
	Bid, Ask decimal.Decimal
}

// MarginSummary is a user's margin on one perp dex, as Core.MarginSummary
// reads it (the precompile's accountMarginSummary). Amounts are in USD.
type MarginSummary struct {
	// AccountValue is the account's value, which may be negative.
	AccountValue decimal.Decimal
	// MarginUsed is the margin its positions use.
	MarginUsed decimal.Decimal
	// NotionalPosition is the notional value of its positions.
	NotionalPosition decimal.Decimal
	// RawUSD is the account's raw USD balance, which may be negative.
	RawUSD decimal.Decimal
}
