package hyper

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/nodeaccess/nodeaccess/hyper/internal/assets"
	"github.com/nodeaccess/nodeaccess/internal/jsontext"
)

// Token is a token of HyperCore: an entry of the spot metadata's tokens
// (the public API's spotMeta), or the answer of the tokenInfo read
// precompile (Core.TokenInfo). Amounts of a token on HyperCore are integers
// of 10^-WeiDecimals of it ("wei"); order sizes have SzDecimals decimals.
type Token struct {
	// Index is the token's index, which the precompiles and spot balances
	// take: 0 is USDC, 150 HYPE on mainnet. It is not the index of a spot
	// pair (HYPE's pair is "@107").
	Index int
	// Name is the token's name ("HYPE"). Hyperliquid does not require
	// names to be unique: Index is the token's identity.
	Name string
	// FullName is the token's long name, "" when it has none.
	FullName string
	// SzDecimals is the number of decimals of an order size in this token.
	SzDecimals int
	// WeiDecimals is the number of decimals of its amounts on HyperCore.
	WeiDecimals int
	// TokenID is the token's id as spotMeta writes it ("0x" and 32 hex
	// digits); "" from the precompile, which does not return it.
	TokenID string
	// IsCanonical is spotMeta's isCanonical; false from the precompile.
	IsCanonical bool
	// EVMContract is the token's linked contract on HyperEVM, the zero
	// address when it has none.
	EVMContract common.Address
	// EVMExtraWeiDecimals is how many more decimals the EVM contract's
	// amounts have than WeiDecimals (negative: fewer).
	EVMExtraWeiDecimals int
	// DeployerTradingFeeShare is spotMeta's deployerTradingFeeShare, a
	// fraction ("0.5"); zero from the precompile, whose integer for it has
	// no documented scale and is not read.
	DeployerTradingFeeShare decimal.Decimal
	// Spots are the indexes of the spot pairs whose base token this is,
	// as tokenInfo returns them; in Markets they are worked out from the
	// spot universe, in its order.
	Spots []int
	// Deployer is the token's deployer as tokenInfo returns it; the zero
	// address in Markets (spotMeta does not say).
	Deployer common.Address
	// Unread names the secondary members the SDK could not read (see the
	// package documentation): the fields they fill are left as when not
	// sent. Nil when every member was read.
	Unread []string
}

// SpotPair is a spot market: an entry of spotMeta's universe, or the
// answer of the spotInfo read precompile (Core.AssetInfo).
type SpotPair struct {
	// Index is the pair's index: allMids keys the pair "@<Index>" (or
	// "PURR/USDC" for pair 0), and its asset id is 10000 + Index. The
	// universe is not ordered by it and has gaps: look pairs up by it, not
	// by position.
	Index int
	// Name is the name the metadata gives the pair: "PURR/USDC" for pair
	// 0, "@107" for the others. Market.Name is the readable name made of
	// the tokens' names ("HYPE/USDC").
	Name string
	// Base and Quote are the token indexes of the pair's two tokens.
	Base, Quote int
	// IsCanonical is spotMeta's isCanonical; false from the precompile.
	IsCanonical bool
	// Unread names the pair's secondary members the SDK could not read
	// (see the package documentation); nil when every member was read.
	Unread []string
}

// wireSpotPair is one element of spotMeta's universe.
type wireSpotPair struct {
	Tokens      []int               `json:"tokens"`
	Name        *string             `json:"name"`
	Index       *int                `json:"index"`
	IsCanonical jsontext.Soft[bool] `json:"isCanonical"`
}

// wireToken is one element of spotMeta's tokens.
type wireToken struct {
	Name        *string `json:"name"`
	SzDecimals  *int    `json:"szDecimals"`
	WeiDecimals *int    `json:"weiDecimals"`
	Index       *int    `json:"index"`
	EVMContract *struct {
		Address json.RawMessage `json:"address"`
		Extra   int             `json:"evm_extra_wei_decimals"`
	} `json:"evmContract"`
	// Secondary: one that cannot be read is named in Unread.
	TokenID     jsontext.Soft[string]  `json:"tokenId"`
	IsCanonical jsontext.Soft[bool]    `json:"isCanonical"`
	FullName    jsontext.Soft[*string] `json:"fullName"`
	FeeShare    json.RawMessage        `json:"deployerTradingFeeShare"`
}

// decodeSpotMeta decodes a spotMeta body: {"universe":[pair…],
// "tokens":[token…]}. Unknown members are ignored; fullName and
// evmContract may be null or absent, deployerTradingFeeShare and
// isCanonical absent. A pair or token without its index, a pair without
// exactly two tokens, and an index given twice are errors.
func decodeSpotMeta(body []byte) ([]SpotPair, []Token, error) {
	var wire struct {
		Universe *[]json.RawMessage `json:"universe"`
		Tokens   *[]json.RawMessage `json:"tokens"`
	}
	if err := unmarshalObject("spotMeta", body, &wire); err != nil {
		return nil, nil, err
	}
	if wire.Universe == nil || wire.Tokens == nil {
		return nil, nil, fmt.Errorf(`spotMeta: want "universe" and "tokens" arrays`)
	}
	pairs := make([]SpotPair, len(*wire.Universe))
	seen := make(map[int]bool, len(pairs))
	for i, raw := range *wire.Universe {
		var w wireSpotPair
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, nil, fmt.Errorf("spotMeta: pair %d: %v", i, err)
		}
		switch {
		case w.Index == nil || *w.Index < 0:
			return nil, nil, fmt.Errorf("spotMeta: pair %d has no index", i)
		case seen[*w.Index]:
			return nil, nil, fmt.Errorf("spotMeta: pair index %d appears twice", *w.Index)
		case len(w.Tokens) != 2 || w.Tokens[0] < 0 || w.Tokens[1] < 0:
			return nil, nil, fmt.Errorf("spotMeta: pair %d: want two token indexes, got %d", *w.Index, len(w.Tokens))
		case w.Name == nil:
			return nil, nil, fmt.Errorf("spotMeta: pair %d has no name", *w.Index)
		}
		seen[*w.Index] = true
		pairs[i] = SpotPair{Index: *w.Index, Name: *w.Name, Base: w.Tokens[0], Quote: w.Tokens[1], IsCanonical: w.IsCanonical.V}
		(*jsontext.Unread)(&pairs[i].Unread).Check("isCanonical", w.IsCanonical.Err)
	}
	tokens := make([]Token, len(*wire.Tokens))
	clear(seen)
	for i, raw := range *wire.Tokens {
		var w wireToken
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, nil, fmt.Errorf("spotMeta: token %d: %v", i, err)
		}
		switch {
		case w.Index == nil || *w.Index < 0:
			return nil, nil, fmt.Errorf("spotMeta: token %d has no index", i)
		case seen[*w.Index]:
			return nil, nil, fmt.Errorf("spotMeta: token index %d appears twice", *w.Index)
		case w.Name == nil || w.SzDecimals == nil || w.WeiDecimals == nil:
			return nil, nil, fmt.Errorf("spotMeta: token %d lacks its name, szDecimals or weiDecimals", *w.Index)
		case *w.SzDecimals < 0 || *w.WeiDecimals < 0 || *w.SzDecimals > maxDecimals || *w.WeiDecimals > maxDecimals:
			return nil, nil, fmt.Errorf("spotMeta: token %d: decimals %d and %d out of range", *w.Index, *w.SzDecimals, *w.WeiDecimals)
		}
		seen[*w.Index] = true
		t := Token{Index: *w.Index, Name: *w.Name, SzDecimals: *w.SzDecimals, WeiDecimals: *w.WeiDecimals, TokenID: w.TokenID.V, IsCanonical: w.IsCanonical.V}
		u := (*jsontext.Unread)(&t.Unread)
		u.Check("tokenId", w.TokenID.Err)
		u.Check("isCanonical", w.IsCanonical.Err)
		if u.Check("fullName", w.FullName.Err) && w.FullName.V != nil {
			t.FullName = *w.FullName.V
		}
		if w.EVMContract != nil {
			if err := decodeAddress(w.EVMContract.Address, &t.EVMContract); err != nil {
				return nil, nil, fmt.Errorf("spotMeta: token %d: evmContract: %v", t.Index, err)
			}
			if w.EVMContract.Extra < -maxDecimals || w.EVMContract.Extra > maxDecimals {
				return nil, nil, fmt.Errorf("spotMeta: token %d: evm_extra_wei_decimals %d out of range", t.Index, w.EVMContract.Extra)
			}
			t.EVMExtraWeiDecimals = w.EVMContract.Extra
		}
		if len(w.FeeShare) > 0 && string(w.FeeShare) != "null" {
			d, err := parseDecimal(w.FeeShare)
			if u.Check("deployerTradingFeeShare", err) {
				t.DeployerTradingFeeShare = d
			}
		}
		tokens[i] = t
	}
	return pairs, tokens, nil
}

// maxDecimals bounds the decimals the metadata decoders accept.
const maxDecimals = assets.MaxDecimals

// unmarshalObject decodes body, which must be a JSON object, into v.
func unmarshalObject(what string, body []byte, v any) error {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' {
		return fmt.Errorf("%s: want a JSON object, got %s", what, jsonKind(b))
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	return nil
}

// decodeAddress reads a JSON string of "0x" and 40 hex digits into a;
// null leaves a as it is.
func decodeAddress(raw json.RawMessage, a *common.Address) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || len(s) != 42 || !common.IsHexAddress(s) {
		return fmt.Errorf("%s is not a 42-character hex address", short(raw))
	}
	*a = common.HexToAddress(s)
	return nil
}
