package hyper

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// VaultEquity is a user's position in one vault, as userVaultEquities
// returns it.
type VaultEquity struct {
	// VaultAddress is the vault's address; other vault requests take it.
	VaultAddress common.Address
	// Equity is the current value of the position in USD, exactly as the
	// server wrote it (688536.0314879999 stays that number).
	Equity decimal.Decimal
	// LockedUntil is the end of the deposit's lock-up period (the server's
	// lockedUntilTimestamp, Unix milliseconds, in UTC), or the zero time
	// when the server sent none: the position is locked up at now while
	// now.Before(LockedUntil).
	LockedUntil time.Time
	// Unread names the secondary members the SDK could not read (see the
	// package documentation): the fields they fill are left as when not
	// sent. Nil when every member was read.
	Unread []string
}

// UserVaultEquities asks the node for the vaults user has deposited into
// and the equity of each (POST {base}/{key}/info with
// {"type":"userVaultEquities","user":"0x…"}, the address in lower-case hex).
// A user without deposits gets an empty, non-nil slice. The zero address is
// refused as input (it is what an unset common.Address holds), and nothing
// is sent. An address typed by a person is read with evm.ParseAddress first.
func (c *Client) UserVaultEquities(ctx context.Context, user common.Address) ([]VaultEquity, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.node.Wrap("userVaultEquities", err)
	}
	const op = "userVaultEquities"
	if user == (common.Address{}) {
		return nil, c.node.Wrap(op, &nodeaccess.InputError{Arg: "user", Reason: "the zero address is not a user (is the address unset?)"})
	}
	// Each attempt copies the body, so a small stack buffer will do.
	var buf [96]byte
	body := append(buf[:0], `{"type":"userVaultEquities","user":"0x`...)
	body = hex.AppendEncode(body, user[:])
	body = append(body, `"}`...)
	t, resp, err := c.post(ctx, onNode, op, body)
	if err != nil {
		return nil, err
	}
	defer resp.Release()
	out, err := decode(t, &resp, decodeVaultEquities)
	if err != nil {
		return nil, c.node.Wrap(op, err)
	}
	return out, nil
}

// decodeVaultEquities decodes a userVaultEquities body: a JSON array of
// {vaultAddress, equity, lockedUntilTimestamp}. equity and the timestamp may
// come as strings or as numbers; unknown members are ignored. Its errors
// quote only short values.
func decodeVaultEquities(body []byte) ([]VaultEquity, error) {
	var wire []struct {
		VaultAddress json.RawMessage `json:"vaultAddress"`
		Equity       json.RawMessage `json:"equity"`
		LockedUntil  json.RawMessage `json:"lockedUntilTimestamp"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return nil, fmt.Errorf("userVaultEquities: want a JSON array, got %s", jsonKind(trimmed))
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		return nil, fmt.Errorf("userVaultEquities: %v", err)
	}
	out := make([]VaultEquity, len(wire))
	for i, w := range wire {
		if len(w.VaultAddress) == 0 || string(w.VaultAddress) == "null" {
			return nil, fmt.Errorf("vault equity %d has no vaultAddress", i)
		}
		if err := out[i].VaultAddress.UnmarshalJSON(jsontext.Unescaped(w.VaultAddress)); err != nil {
			return nil, fmt.Errorf("vault equity %d: vaultAddress %s is not a 42-character hex address", i, short(w.VaultAddress))
		}
		if len(w.Equity) == 0 || string(w.Equity) == "null" {
			return nil, fmt.Errorf("vault equity %d has no equity", i)
		}
		d, err := parseDecimal(w.Equity)
		if err != nil {
			return nil, fmt.Errorf("vault equity %d: equity: %v", i, err)
		}
		out[i].Equity = d
		// Secondary: one that cannot be read is named in Unread.
		t, err := parseUnixMilli(w.LockedUntil)
		if (*jsontext.Unread)(&out[i].Unread).Check("lockedUntilTimestamp", err) {
			out[i].LockedUntil = t
		}
	}
	return out, nil
}
