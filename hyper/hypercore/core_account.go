package hypercore

import (
	"fmt"
	"math"

	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/internal/assets"
	"github.com/nodeaccess/nodeaccess/internal/transport"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
)

// The reads of a user's state on HyperCore (see Core).

// Position reads user's position in the perp perp (a Market of kind
// KeyPerp or KeyBuilderDex), through the precompile 0x…0813, which takes a
// builder-dex perp as 10000 × its dex's index + its index. The size is in
// the perp's coin, scaled by perp.SzDecimals; the notional amounts in USD.
// A user without a position in it reads as the zero Position.
func (k Core) Position(user common.Address, perp hyper.Market) *Read[Position] {
	const op = "position"
	if user == (common.Address{}) {
		return refused[Position](k, op, "user", zeroUserReason)
	}
	idx, why := perpArg(perp)
	if why != "" {
		return refused[Position](k, op, "perp", why)
	}
	in := wordUint(wordAddress(nil, user), idx)
	sz := perp.SzDecimals
	return addRead(k, op, fmt.Sprintf(userWhat+", perp %s (%d)", user.Hex(), transport.Quote(perp.Key), idx), pcPosition2, in, 5*32, func(b []byte) (Position, error) {
		a, err := answerWords(b, 5)
		if err != nil {
			return Position{}, err
		}
		var (
			p               Position
			szi, isoRaw     int64
			entry, leverage uint64
			errs            [5]error
		)
		szi, errs[0] = a.int(0, 64)
		entry, errs[1] = a.uint(1, 64)
		isoRaw, errs[2] = a.int(2, 64)
		leverage, errs[3] = a.uint(3, 32)
		p.Isolated, errs[4] = a.bool(4)
		if err := firstErr(errs[:]); err != nil {
			return Position{}, err
		}
		p.Size, p.EntryNotional, p.IsolatedRawUSD = scaledSigned(szi, sz), scaled(entry, usdDecimals), scaledSigned(isoRaw, usdDecimals)
		p.Leverage = int(leverage)
		return p, nil
	})
}

// SpotBalance reads user's balance of token (its Index and WeiDecimals are
// read; a Token from Markets.Tokens, a Market's Base or Quote, or
// TokenInfo), in the token. A user without the token reads as zero.
func (k Core) SpotBalance(user common.Address, token hyper.Token) *Read[SpotBalance] {
	const op = "spotBalance"
	switch {
	case user == (common.Address{}):
		return refused[SpotBalance](k, op, "user", zeroUserReason)
	case token.Index < 0 || token.WeiDecimals < 0 || token.WeiDecimals > assets.MaxDecimals:
		return refused[SpotBalance](k, op, "token", fmt.Sprintf("token index %d with %d wei decimals is not a token", token.Index, token.WeiDecimals))
	}
	in := wordUint(wordAddress(nil, user), uint64(token.Index))
	wei := token.WeiDecimals
	return addRead(k, op, fmt.Sprintf(userWhat+", token %s (%d)", user.Hex(), transport.Quote(token.Name), token.Index), pcSpotBalance, in, 3*32,
		func(b []byte) (SpotBalance, error) {
			a, err := answerWords(b, 3)
			if err != nil {
				return SpotBalance{}, err
			}
			var v [3]uint64
			for i := range v {
				if v[i], err = a.uint(i, 64); err != nil {
					return SpotBalance{}, err
				}
			}
			return SpotBalance{Total: scaled(v[0], wei), Hold: scaled(v[1], wei), EntryNotionalRaw: v[2]}, nil
		})
}

// VaultEquity reads user's equity in vault, through the precompile
// 0x…0802: the same position UserVaultEquities reads from /info. The
// precompile answers the equity in millionths of a USD (an integer: that
// unit is hyper-evm-lib's, which Hyperliquid's docs do not state), so
// Equity has at most 6 decimals; userVaultEquities writes the same USD
// amount as a decimal string that may carry more digits ("688536.0314879999"
// for 688536031488 millionths). For one position,
//
//	precompile.Equity == api.Equity.Round(6)
//
// and LockedUntil is the same Unix-millisecond time in both (hypertest
// serves both from one body, and its tests check this), as long as both
// read the same state: the precompile reads HyperCore at the start of the
// EVM block being built, the public API reads it now. A vault the user has
// no deposit in reads as zero; an address that is not a vault fails with
// ErrPrecompile.
func (k Core) VaultEquity(user, vault common.Address) *Read[hyper.VaultEquity] {
	const op = "userVaultEquity"
	switch {
	case user == (common.Address{}):
		return refused[hyper.VaultEquity](k, op, "user", zeroUserReason)
	case vault == (common.Address{}):
		return refused[hyper.VaultEquity](k, op, "vault", "the zero address is not a vault (is the address unset?)")
	}
	in := wordAddress(wordAddress(nil, user), vault)
	return addRead(k, op, fmt.Sprintf(userWhat+", vault %s", user.Hex(), vault.Hex()), pcVaultEquity, in, 2*32, func(b []byte) (hyper.VaultEquity, error) {
		a, err := answerWords(b, 2)
		if err != nil {
			return hyper.VaultEquity{}, err
		}
		eq, err := a.uint(0, 64)
		if err != nil {
			return hyper.VaultEquity{}, err
		}
		ms, err := a.uint(1, 64)
		if err != nil {
			return hyper.VaultEquity{}, err
		}
		locked, err := unixMilli(ms)
		if err != nil {
			return hyper.VaultEquity{}, err
		}
		return hyper.VaultEquity{VaultAddress: vault, Equity: scaled(eq, usdDecimals), LockedUntil: locked}, nil
	})
}

// Withdrawable reads the USD user can withdraw from the first perp dex.
func (k Core) Withdrawable(user common.Address) *Read[decimal.Decimal] {
	const op = "withdrawable"
	if user == (common.Address{}) {
		return refused[decimal.Decimal](k, op, "user", zeroUserReason)
	}
	return pxRead(k, op, fmt.Sprintf(userWhat, user.Hex()), pcWithdrawable, wordAddress(nil, user), usdDecimals)
}

// Staking reads user's HYPE staking: the sums (the precompile 0x…0805,
// delegatorSummary) and the delegations, one per validator (0x…0804), two
// calls of the batch whose results make one Staking. The Result's error is
// the first of the two that failed, naming its call.
func (k Core) Staking(user common.Address) *Read[Staking] {
	if user == (common.Address{}) {
		return refused[Staking](k, "staking", "user", zeroUserReason)
	}
	sum, dels := k.delegatorSummary(user), k.delegations(user)
	sum.then = func(s Staking) (Staking, error) {
		d, err := dels.Result()
		if err != nil {
			return Staking{}, err
		}
		s.Delegations = d
		return s, nil
	}
	return sum
}

// delegations reads user's HYPE delegations, one per validator.
func (k Core) delegations(user common.Address) *Read[[]Delegation] {
	const op = "delegations"
	if user == (common.Address{}) {
		return refused[[]Delegation](k, op, "user", zeroUserReason)
	}
	return addRead(k, op, fmt.Sprintf(userWhat, user.Hex()), pcDelegations, wordAddress(nil, user), 64+96*maxDelegations,
		func(b []byte) ([]Delegation, error) {
			a, err := dynamic(b)
			if err != nil {
				return nil, err
			}
			n, err := a.uint(0, 32)
			if err != nil {
				return nil, err
			}
			if n > uint64((len(a)/32-1)/3) {
				return nil, fmt.Errorf("%d delegations beyond the answer", n)
			}
			out := make([]Delegation, n)
			for i := range out {
				d := &out[i]
				if d.Validator, err = a.address(1 + 3*i); err != nil {
					return nil, err
				}
				amount, err := a.uint(2+3*i, 64)
				if err != nil {
					return nil, err
				}
				ms, err := a.uint(3+3*i, 64)
				if err != nil {
					return nil, err
				}
				if d.LockedUntil, err = unixMilli(ms); err != nil {
					return nil, err
				}
				d.Amount = scaled(amount, hypeWeiDecimals)
			}
			return out, nil
		})
}

// delegatorSummary reads user's staking in sum.
func (k Core) delegatorSummary(user common.Address) *Read[Staking] {
	const op = "delegatorSummary"
	return addRead(k, op, fmt.Sprintf(userWhat, user.Hex()), pcDelegatorSummary, wordAddress(nil, user), 4*32,
		func(b []byte) (Staking, error) {
			a, err := answerWords(b, 4)
			if err != nil {
				return Staking{}, err
			}
			var v [4]uint64
			for i := range v {
				if v[i], err = a.uint(i, 64); err != nil {
					return Staking{}, err
				}
			}
			if v[3] > math.MaxInt32 {
				return Staking{}, fmt.Errorf("%d pending withdrawals", v[3])
			}
			return Staking{Delegated: scaled(v[0], hypeWeiDecimals), Undelegated: scaled(v[1], hypeWeiDecimals),
				PendingWithdrawal: scaled(v[2], hypeWeiDecimals), PendingWithdrawals: int(v[3])}, nil
		})
}

// MarginSummary reads user's margin on the perp dex of index dex (0 for the
// first perp dex, PerpDex.Index or Market.DexIndex for a builder dex).
func (k Core) MarginSummary(dex int, user common.Address) *Read[MarginSummary] {
	const op = "accountMarginSummary"
	switch {
	case dex < 0 || int64(dex) > math.MaxUint32:
		return refused[MarginSummary](k, op, "dex", fmt.Sprintf("perp dex index %d is out of range", dex))
	case user == (common.Address{}):
		return refused[MarginSummary](k, op, "user", zeroUserReason)
	}
	in := wordAddress(wordUint(nil, uint64(dex)), user)
	return addRead(k, op, fmt.Sprintf(userWhat+", dex %d", user.Hex(), dex), pcMarginSummary, in, 4*32, func(b []byte) (MarginSummary, error) {
		a, err := answerWords(b, 4)
		if err != nil {
			return MarginSummary{}, err
		}
		var (
			value, raw int64
			used, ntl  uint64
			errs       [4]error
		)
		value, errs[0] = a.int(0, 64)
		used, errs[1] = a.uint(1, 64)
		ntl, errs[2] = a.uint(2, 64)
		raw, errs[3] = a.int(3, 64)
		if err := firstErr(errs[:]); err != nil {
			return MarginSummary{}, err
		}
		return MarginSummary{AccountValue: scaledSigned(value, usdDecimals), MarginUsed: scaled(used, usdDecimals),
			NotionalPosition: scaled(ntl, usdDecimals), RawUSD: scaledSigned(raw, usdDecimals)}, nil
	})
}
