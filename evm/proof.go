package evm

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
)

// opProof is eth_getProof (Proof); nodeaccess.WithCost takes it as the
// method name, as for CallContext.
const opProof = "eth_getProof"

// AccountProof is an account and some of its storage slots at a block, with
// the Merkle proofs (EIP-1186) that tie them to the block's state root, as
// Proof returns them: raw and unverified, every field only the provider's
// word (package evm/verified proves them).
type AccountProof struct {
	// Address is the account.
	Address common.Address
	// Balance is its balance in wei.
	Balance *big.Int
	// Nonce is its nonce.
	Nonce uint64
	// CodeHash is the Keccak-256 hash of its code. For an account without
	// code it is the hash of nothing (0xc5d2…a470); for an account that
	// does not exist it is that hash or zero, as the node spells it.
	CodeHash common.Hash
	// StorageHash is the root of its storage trie. For an account without
	// storage it is the root of the empty trie (0x56e8…b421); for an
	// account that does not exist it is that root or zero, as the node
	// spells it.
	StorageHash common.Hash
	// AccountProof is the state trie's nodes on the path to the account,
	// each RLP-encoded, the root node first.
	AccountProof [][]byte
	// StorageProof holds one proof per slot asked for, in the order asked.
	StorageProof []StorageProof
}

// StorageProof is one storage slot of an account and the Merkle proof that
// ties it to the account's storage root.
type StorageProof struct {
	// Key is the slot.
	Key common.Hash
	// Value is the slot's value, 0 for a slot never written or cleared.
	Value *big.Int
	// Proof is the storage trie's nodes on the path to the slot, each
	// RLP-encoded, the root node first.
	Proof [][]byte
}

// Proof runs eth_getProof (EIP-1186): account's balance, nonce, code hash
// and storage root, and the values of slots, at block, with the Merkle
// proofs of each. What it returns is the provider's word, raw and
// unverified: package evm/verified checks the proofs against the state
// root of a block its anchor (a light client) verified, and returns only
// what they prove.
//
// Proof checks that the answer is for account and for slots, in the order
// asked, each once; an answer for anything else is an error matching
// nodeaccess.ErrUnverified. A member that is missing or malformed matches
// nodeaccess.ErrInvalidResponse and names the member. A slot asked for twice
// is an *nodeaccess.InputError naming it, and nothing is sent. Proof costs
// the request units of eth_getProof (1 unless nodeaccess.WithCost names
// "eth_getProof").
func (c *Client) Proof(ctx context.Context, account common.Address, slots []common.Hash, block Block) (*AccountProof, error) {
	if err := transport.NilContext(ctx); err != nil {
		return nil, c.t.Wrap(opProof, err)
	}
	bp := transport.GetBuf()
	defer transport.PutBuf(bp)
	params, err := proofParams((*bp)[:0], account, slots, block)
	*bp = params
	if err == nil {
		err = c.checkLatest(notLatest(block))
	}
	if err != nil {
		return nil, c.t.Wrap(opProof, err)
	}
	p, err := rpc(ctx, c, opProof, params, 0, func(raw []byte) (*AccountProof, error) {
		return decodeProofFor(raw, account, slots)
	})
	if err != nil {
		return nil, c.t.Wrap(opProof, err)
	}
	return p, nil
}

// proofParams appends eth_getProof's params to dst: the address, the slots
// as 32-byte hex, the block. A slot given twice or a bad block is an
// *nodeaccess.InputError; nothing is to be sent.
func proofParams(dst []byte, account common.Address, slots []common.Hash, block Block) ([]byte, error) {
	seen := make(map[common.Hash]int, len(slots))
	for i, s := range slots {
		if j, ok := seen[s]; ok {
			return dst, &nodeaccess.InputError{Arg: fmt.Sprintf("slots[%d]", i), Reason: fmt.Sprintf("%s is slots[%d] again: ask for each slot once", s.Hex(), j)}
		}
		seen[s] = i
	}
	dst = append(dst, `["0x`...)
	dst = hex.AppendEncode(dst, account[:])
	dst = append(dst, `",[`...)
	for i, s := range slots {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `"0x`...)
		dst = hex.AppendEncode(dst, s[:])
		dst = append(dst, '"')
	}
	dst = append(dst, "],"...)
	dst, err := appendBlockJSON(dst, block)
	if err != nil {
		return dst, err
	}
	return append(dst, ']'), nil
}

// proofWire is eth_getProof's result as it comes, each member kept raw so
// that an error names the member that is wrong.
type proofWire struct {
	Address      json.RawMessage `json:"address"`
	Balance      json.RawMessage `json:"balance"`
	Nonce        json.RawMessage `json:"nonce"`
	CodeHash     json.RawMessage `json:"codeHash"`
	StorageHash  json.RawMessage `json:"storageHash"`
	AccountProof json.RawMessage `json:"accountProof"`
	StorageProof json.RawMessage `json:"storageProof"`
}

// storageWire is one storage proof as it comes.
type storageWire struct {
	Key   json.RawMessage `json:"key"`
	Value json.RawMessage `json:"value"`
	Proof json.RawMessage `json:"proof"`
}

// decodeProofFor decodes eth_getProof's result (decodeProof) and checks
// that it answers account and slots; an answer for anything else matches
// nodeaccess.ErrUnverified. An answer without an address is account's.
func decodeProofFor(raw []byte, account common.Address, slots []common.Hash) (*AccountProof, error) {
	p, hasAddress, err := decodeProof(raw)
	if err != nil {
		return nil, err
	}
	if !hasAddress {
		p.Address = account
	}
	if p.Address != account {
		return nil, fmt.Errorf("%w: the answer is for account %s, not %s", nodeaccess.ErrUnverified, p.Address.Hex(), account.Hex())
	}
	if len(p.StorageProof) != len(slots) {
		return nil, fmt.Errorf("%w: %d storage proofs for %d slots asked for", nodeaccess.ErrUnverified, len(p.StorageProof), len(slots))
	}
	for i, sp := range p.StorageProof {
		if sp.Key != slots[i] {
			return nil, fmt.Errorf("%w: storageProof[%d] is for slot %s, not %s", nodeaccess.ErrUnverified, i, sp.Key.Hex(), slots[i].Hex())
		}
	}
	return p, nil
}

// decodeProof decodes eth_getProof's result: every member but address is
// required, and one that is missing or malformed fails the whole result,
// named. It reports whether the answer has an address (EIP-1186 does not
// list one; every node sends it).
func decodeProof(raw []byte) (*AccountProof, bool, error) {
	raw = bytes.TrimSpace(raw)
	if k := jsontext.Kind(raw); k != "an object" {
		return nil, false, fmt.Errorf("want an object, got %s", k)
	}
	var w proofWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, false, fmt.Errorf("want an object of eth_getProof's members: %w", err)
	}
	p := &AccountProof{}
	hasAddress := len(w.Address) > 0 && !jsontext.IsNull(w.Address)
	if hasAddress {
		if err := json.Unmarshal(w.Address, &p.Address); err != nil {
			return nil, false, fmt.Errorf("address: want a 20-byte hex string, got %s", jsonKind(w.Address))
		}
	}
	var err error
	if p.Balance, err = quantityMember("balance", w.Balance, 256); err != nil {
		return nil, false, err
	}
	nonce, err := quantityMember("nonce", w.Nonce, 64)
	if err != nil {
		return nil, false, err
	}
	p.Nonce = nonce.Uint64()
	if p.CodeHash, err = hashMember("codeHash", w.CodeHash); err != nil {
		return nil, false, err
	}
	if p.StorageHash, err = hashMember("storageHash", w.StorageHash); err != nil {
		return nil, false, err
	}
	if p.AccountProof, err = nodesMember("accountProof", w.AccountProof); err != nil {
		return nil, false, err
	}
	if k := jsontext.Kind(w.StorageProof); k != "an array" {
		return nil, false, fmt.Errorf("storageProof: want an array of storage proofs, got %s", k)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(w.StorageProof, &items); err != nil {
		return nil, false, fmt.Errorf("storageProof: want an array of storage proofs: %w", err)
	}
	p.StorageProof = make([]StorageProof, len(items))
	for i, rs := range items {
		if err := decodeStorageProof(&p.StorageProof[i], fmt.Sprintf("storageProof[%d]", i), rs); err != nil {
			return nil, false, err
		}
	}
	return p, hasAddress, nil
}

// decodeStorageProof decodes one storage proof, named name, into sp.
func decodeStorageProof(sp *StorageProof, name string, raw json.RawMessage) error {
	if k := jsontext.Kind(raw); k != "an object" {
		return fmt.Errorf("%s: want an object of key, value and proof, got %s", name, k)
	}
	var w storageWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return fmt.Errorf("%s: want an object of key, value and proof: %w", name, err)
	}
	s, err := stringMember(name+".key", w.Key)
	if err != nil {
		return err
	}
	// A key is hex of at most 32 bytes, left-padded: go-ethereum sends a
	// 32-byte key back as it came, others as a quantity.
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return fmt.Errorf("%s.key: hex string lacks the 0x prefix", name)
	}
	digits := s[2:]
	if len(digits) == 0 || len(digits) > 64 {
		return fmt.Errorf("%s.key: want 1 to 64 hex digits, got %d", name, len(digits))
	}
	if len(digits)%2 == 1 {
		digits = "0" + digits
	}
	b, err := hex.DecodeString(digits)
	if err != nil {
		return fmt.Errorf("%s.key: hex string: %v", name, err)
	}
	sp.Key = common.BytesToHash(b)
	if sp.Value, err = quantityMember(name+".value", w.Value, 256); err != nil {
		return err
	}
	sp.Proof, err = nodesMember(name+".proof", w.Proof)
	return err
}

// stringMember reads the JSON string member name; a missing member, null
// and anything but a string are errors naming it.
func stringMember(name string, raw json.RawMessage) (string, error) {
	if len(raw) == 0 || jsontext.IsNull(raw) {
		return "", fmt.Errorf("%s: missing or null", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s: want a string, got %s", name, jsonKind(raw))
	}
	return s, nil
}

// quantityMember reads the hex quantity member name, of at most bits bits.
func quantityMember(name string, raw json.RawMessage, bits int) (*big.Int, error) {
	s, err := stringMember(name, raw)
	if err != nil {
		return nil, err
	}
	v, err := parseQuantity(s)
	if err != nil {
		return nil, fmt.Errorf("%s: want a hex quantity, got a %d-byte string that is not one", name, len(s))
	}
	if v.BitLen() > bits {
		return nil, fmt.Errorf("%s: %d bits, more than the %d it can have", name, v.BitLen(), bits)
	}
	return v, nil
}

// hashMember reads the 32-byte hash member name.
func hashMember(name string, raw json.RawMessage) (common.Hash, error) {
	s, err := stringMember(name, raw)
	if err != nil {
		return common.Hash{}, err
	}
	h, err := parseHash(s)
	if err != nil {
		return common.Hash{}, fmt.Errorf("%s: want 0x and 64 hex digits, got a %d-byte string", name, len(s))
	}
	return h, nil
}

// nodesMember reads the member name, an array of hex strings (trie nodes).
func nodesMember(name string, raw json.RawMessage) ([][]byte, error) {
	if len(raw) == 0 || jsontext.IsNull(raw) {
		return nil, fmt.Errorf("%s: missing or null", name)
	}
	var items []json.RawMessage
	if k := jsontext.Kind(raw); k != "an array" {
		return nil, fmt.Errorf("%s: want an array of hex strings, got %s", name, k)
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s: want an array of hex strings: %w", name, err)
	}
	out := make([][]byte, len(items))
	for i, it := range items {
		b, err := decodeHexBytes(it)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", name, i, err)
		}
		if len(b) == 0 {
			return nil, fmt.Errorf("%s[%d]: an empty node", name, i)
		}
		out[i] = b
	}
	return out, nil
}

// decodeProofArgs decodes the result of an eth_getProof call sent with
// CallContext or Add into an AccountProof, as Proof decodes its own: every
// member checked, and, when the call's first two args are an address and
// its slots (a common.Address and a []common.Hash), the answer checked to
// be for them (decodeProofFor).
func decodeProofArgs(raw []byte, method string, args []any) (*AccountProof, error) {
	if method == opProof && len(args) >= 2 {
		account, okA := args[0].(common.Address)
		slots, okS := args[1].([]common.Hash)
		if okA && okS {
			return decodeProofFor(raw, account, slots)
		}
	}
	p, _, err := decodeProof(raw)
	return p, err
}
