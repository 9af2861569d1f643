package hypertest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nodeaccess/nodeaccess/hyper"
)

//go:embed data/userVaultEquities_2025-08.json data/allMids_2025-12_filtered.json data/spotMeta_2025-08.json data/meta_2025-12.json
//go:embed data/meta_xyz_2026-02.json data/perpDexs_hypertest.json data/outcomeMeta_handbuilt.json
var recorded embed.FS

// DefaultUser returns the user whose vault equities the server knows by default:
// the address of the recorded userVaultEquities body (data/SOURCES.md), with
// two vaults:
//
//	0x07fd993f0fa3a185f7207adccd29f7a87404689d  688536.0314879999  locked until 2025-01-24T05:48:51.869Z
//	0x7f6ce756bdee0db22a8fbda15aa48023aae5a8be  100.003834         locked until 2025-06-13T23:27:19.3Z
//
// Any other user has no vaults ([]) until one is set.
func DefaultUser() common.Address {
	return common.HexToAddress("0x2b804617c6f63c040377e95bb276811747006f4b")
}

// BuilderDex is the builder-deployed perp dex the public API knows by
// default, besides the first perp dex "": allMids with dex "xyz" answers
// {"xyz:CL":"60.123","xyz:GOLD":"4210.25"}. These two prices are
// hand-written to show the "<dex>:<COIN>" key form; they are not recorded
// market data. Any other dex name is unknown (the public API answers null).
const BuilderDex = "xyz"

// outcomeMids are the HIP-4 outcome sides the public API serves by default
// with the first perp dex "", besides its recorded mids: two outcome
// markets, ids 1 and 2, each with side 0 ("#10", "#20") and side 1 ("#11",
// "#21"), keys "#N" with N = 10*outcome + side as Hyperliquid documents
// them; the default outcomeMeta names the sides ("Yes" and "No" for outcome
// 1, "Hypurr" and "Usain Bolt" for outcome 2). The prices are hand-written (the two sides of an outcome
// add up to 1), not market data: no recorded allMids body with outcome keys
// exists in the project's fixtures (data/SOURCES.md).
var outcomeMids = map[string]string{"#10": "0.735", "#11": "0.265", "#20": "0.5125", "#21": "0.4875"}

// The default data, as the server serves it.
var (
	defaultEquities = mustRead("data/userVaultEquities_2025-08.json")
	defaultMids     = withOutcomes(mustRead("data/allMids_2025-12_filtered.json"))
	builderDexMids  = map[string]string{"xyz:CL": "60.123", "xyz:GOLD": "4210.25"}
)

// withOutcomes puts outcomeMids into the recorded allMids body, whose
// bytes stay as they are: the entries go right after its opening brace,
// where their keys sort ('#' comes before digits, '@' and letters).
func withOutcomes(recordedBody []byte) []byte {
	extra, err := encodeMids(outcomeMids)
	if err != nil || len(recordedBody) < 2 || recordedBody[0] != '{' {
		panic("hypertest: default allMids body") // a build defect
	}
	b := append([]byte(nil), extra[:len(extra)-1]...) // without its closing brace
	b = append(b, ',')
	return append(b, recordedBody[1:]...)
}

func mustRead(name string) []byte {
	b, err := recorded.ReadFile(name)
	if err != nil {
		panic("hypertest: embedded file missing: " + name) // a build defect, not a runtime condition
	}
	return b
}

// DefaultMids returns the mid prices the public API serves by default for
// dex: for "" the recorded allMids body cut to the spot pairs its spot
// metadata lists (422 keys, data/SOURCES.md) with the four hand-written
// HIP-4 outcome sides "#10", "#11", "#20" and "#21" (outcomes 1 and 2,
// sides 0 and 1; not market data), 426 keys in all; the hand-written two
// keys for BuilderDex; nil for any other name. The values are the wire's
// decimal strings. Every key resolves through the default metadata.
func DefaultMids(dex string) map[string]string {
	switch dex {
	case "":
		m := make(map[string]string, 512)
		if err := json.Unmarshal(defaultMids, &m); err != nil {
			panic("hypertest: embedded allMids body does not decode") // a build defect
		}
		return m
	case BuilderDex:
		return maps.Clone(builderDexMids)
	}
	return nil
}

// store holds what the server answers: the raw JSON body for each user,
// each dex and each request of another type, kept as bytes so that what
// was set is what is served.
type store struct {
	mu       sync.RWMutex
	equities map[common.Address][]byte
	mids     map[string][]byte
	other    map[string][]byte // by the request's canonical JSON
	// precompiles are SetPrecompile's answers, by the precompile's address
	// and the call data, in hex.
	precompiles map[string][]byte
}

// The metadata the public API serves by default: recorded bodies
// (data/SOURCES.md), and a hand-built outcomeMeta; and without defaults,
// the metadata of an exchange with no markets.
var (
	defaultMetadata = map[string][]byte{
		`{"type":"spotMeta"}`:         mustRead("data/spotMeta_2025-08.json"),
		`{"type":"meta"}`:             mustRead("data/meta_2025-12.json"),
		`{"dex":"xyz","type":"meta"}`: mustRead("data/meta_xyz_2026-02.json"),
		`{"type":"perpDexs"}`:         mustRead("data/perpDexs_hypertest.json"),
		`{"type":"outcomeMeta"}`:      mustRead("data/outcomeMeta_handbuilt.json"),
	}
	emptyMetadata = map[string][]byte{
		`{"type":"spotMeta"}`:    []byte(`{"universe":[],"tokens":[]}`),
		`{"type":"meta"}`:        []byte(`{"universe":[],"marginTables":[],"collateralToken":0}`),
		`{"type":"perpDexs"}`:    []byte(`[null]`),
		`{"type":"outcomeMeta"}`: []byte(`{"outcomes":[],"questions":[]}`),
	}
)

func newStore(defaults bool) *store {
	s := &store{equities: make(map[common.Address][]byte), mids: make(map[string][]byte), other: make(map[string][]byte),
		precompiles: make(map[string][]byte)}
	meta := emptyMetadata
	if defaults {
		meta = defaultMetadata
	}
	for req, body := range meta {
		s.other[req] = body
	}
	if defaults {
		s.equities[DefaultUser()] = defaultEquities
		s.mids[""] = defaultMids
		b, err := encodeMids(builderDexMids)
		if err != nil {
			panic("hypertest: default builder-dex mids: " + err.Error()) // a defect in this file
		}
		s.mids[BuilderDex] = b
	}
	return s
}

// vaultEquities returns the body for user: what was set, or [].
func (s *store) vaultEquities(user common.Address) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if b, ok := s.equities[user]; ok {
		return b
	}
	return []byte("[]")
}

// allMids returns the body for dex. A dex without data is unknown: the
// first perp dex "" answers {} (it always exists), any other null.
func (s *store) allMids(dex string) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if b, ok := s.mids[dex]; ok {
		return b
	}
	if dex == "" {
		return []byte("{}")
	}
	return []byte("null")
}

// answer returns the body set for a request of another type by its
// canonical JSON, or nil.
func (s *store) answer(canonical string) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.other[canonical]
}

// precompileAnswer returns the answer set for a call of in to the
// precompile at to.
func (s *store) precompileAnswer(to common.Address, in []byte) ([]byte, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b, ok := s.precompiles[precompileKey(to, in)]
	return b, ok
}

func (s *store) setPrecompile(to common.Address, in, out []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if out == nil {
		delete(s.precompiles, precompileKey(to, in))
		return
	}
	s.precompiles[precompileKey(to, in)] = bytes.Clone(out)
}

func precompileKey(to common.Address, in []byte) string {
	return hexutil.Encode(to[:]) + hexutil.Encode(in)
}

// isVault reports whether some user has a deposit in vault, by the
// userVaultEquities bodies the node serves.
func (s *store) isVault(vault common.Address) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, body := range s.equities {
		var entries []struct{ VaultAddress string }
		if json.Unmarshal(body, &entries) != nil {
			continue
		}
		for _, e := range entries {
			if common.HexToAddress(e.VaultAddress) == vault {
				return true
			}
		}
	}
	return false
}

func (s *store) setAnswer(canonical string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if body == nil {
		delete(s.other, canonical)
		return
	}
	s.other[canonical] = body
}

func (s *store) setEquities(user common.Address, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if body == nil {
		delete(s.equities, user)
		return
	}
	s.equities[user] = body
}

func (s *store) setMids(dex string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if body == nil {
		delete(s.mids, dex)
		return
	}
	s.mids[dex] = body
}

// encodeEquities writes v as the node writes userVaultEquities: the vault
// address in lower-case hex, the equity as a decimal string with the scale
// it carries (a decimal read from "100.50" is written "100.50"), and
// lockedUntilTimestamp in Unix milliseconds (left out for the zero time).
func encodeEquities(v []hyper.VaultEquity) ([]byte, error) {
	b := make([]byte, 0, 2+len(v)*128)
	b = append(b, '[')
	for i, e := range v {
		if e.Equity.Exponent() > 100 || e.Equity.Exponent() < -100 {
			return nil, fmt.Errorf("vault equity %d: equity exponent %d is out of the range clients read (±100)", i, e.Equity.Exponent())
		}
		if !e.LockedUntil.IsZero() && e.LockedUntil.UnixMilli() < 1 {
			return nil, fmt.Errorf("vault equity %d: LockedUntil %s is not after 1970-01-01 (the wire carries Unix milliseconds)", i, e.LockedUntil.UTC())
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"vaultAddress":"`...)
		b = append(b, hexutil.Encode(e.VaultAddress[:])...)
		b = append(b, `","equity":"`...)
		if exp := e.Equity.Exponent(); exp < 0 {
			b = append(b, e.Equity.StringFixed(-exp)...)
		} else {
			b = append(b, e.Equity.String()...)
		}
		b = append(b, '"')
		if !e.LockedUntil.IsZero() {
			b = append(b, `,"lockedUntilTimestamp":`...)
			b = strconv.AppendInt(b, e.LockedUntil.UnixMilli(), 10)
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// encodeMids writes mids as the public API writes allMids: one JSON object,
// keys in byte order, each price a decimal string exactly as given. A price
// must be digits with an optional fraction ("89926.5", "1.0").
func encodeMids(mids map[string]string) ([]byte, error) {
	keys := slices.Sorted(maps.Keys(mids))
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if !isPrice(mids[k]) {
			return nil, fmt.Errorf("price of %s is %s: want digits with an optional fraction, such as \"89926.5\"", strconv.Quote(k), strconv.Quote(mids[k]))
		}
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, k)
		b.WriteByte(':')
		writeJSONString(&b, mids[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSONString writes s as a JSON string, with '<', '>' and '&' kept
// as they are (encoding/json would escape them).
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // the newline Encode adds
}

// isPrice reports whether s is a non-negative decimal: digits, then
// optionally '.' and digits.
func isPrice(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != '.' || i+1 == len(s) {
		return false
	}
	for i++; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// checkDex validates a dex name as hyper.Client.AllMids does: "" or 1 to 32 ASCII
// letters, digits, '-' or '_'.
func checkDex(name string) error {
	if len(name) > 32 {
		return fmt.Errorf("dex name of %d bytes is longer than 32", len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("dex name %s: want ASCII letters, digits, '-' or '_'", strconv.Quote(name))
		}
	}
	return nil
}
