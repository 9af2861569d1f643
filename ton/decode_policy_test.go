package ton

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess/internal/testkit"
)

// The decoding policy (docs/options-and-errors.md): a load-bearing member
// (what identifies an item or carries its value) that cannot be read
// refuses the page, naming the item; a secondary one costs neither the
// item nor the page: it is named in the item's Unread, its field left as
// when not sent, its value kept in the item's raw JSON. Enumerations
// (finality, status) are kept as sent in the field itself.

// policy classifies every member of a wire struct: secondary members and
// enumerations; every other json tag must be listed as load-bearing, so
// that a member added later without a decision fails the test.
type policy struct {
	wire        any
	loadBearing []string
	secondary   []string
	enums       []string
}

var policies = map[string]policy{
	"message": {wireMessage{},
		[]string{"source", "destination", "value", "created_lt", "hash"},
		[]string{"extra_currencies", "value_extra_currencies", "fwd_fee", "ihr_fee", "extra_flags", "created_at", "opcode",
			"decoded_opcode", "bounce", "bounced", "hash_norm", "body_hash", "message", "msg_data", "message_content"},
		nil},
	"pending": {wirePending{},
		[]string{"account", "hash", "lt", "total_fees", "in_msg", "out_msgs", "prev_trans_lt", "prev_trans_hash"},
		[]string{"now", "mc_block_seqno", "trace_id", "trace_external_hash", "emulated"},
		[]string{"finality"}},
	"block": {wireBlockTx{},
		[]string{"account", "address", "hash", "lt", "transaction_id", "transaction", "fee", "total_fees", "in_msg", "out_msgs", "prev_trans_lt", "prev_trans_hash"},
		[]string{"utime", "data", "storage_fee", "other_fee"},
		nil},
	"state": {wireAccountState{},
		[]string{"account", "address", "hash", "account_state_hash", "balance", "last_trans_lt", "last_transaction_lt", "last_trans_hash", "last_transaction_hash"},
		[]string{"frozen_hash", "code_hash", "data_hash", "code_boc", "data_boc"},
		[]string{"account_status", "status"}},
}

// TestDecodePolicyCoversEveryMember fails when a wire struct gains a member
// the policy does not classify.
func TestDecodePolicyCoversEveryMember(t *testing.T) {
	for name, p := range policies {
		typ := reflect.TypeOf(p.wire)
		var tags []string
		for i := range typ.NumField() {
			tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			tags = append(tags, tag)
		}
		all := slices.Concat(p.loadBearing, p.secondary, p.enums)
		slices.Sort(all)
		slices.Sort(tags)
		assert.Equal(t, tags, all, "%s: every member is load-bearing, secondary or an enumeration", name)
	}
}

// wrongShape is, for each secondary member, a shape that can never be
// read there: its test checks that the member is reported.
func wrongShape(member string) string {
	switch member {
	case "extra_currencies", "value_extra_currencies", "msg_data", "message_content":
		return `"garbage"`
	}
	return `["x"]`
}

// pendingBody is the recorded pending transaction twice, the second with
// another hash: a page with a neighbour.
func pendingBody(t *testing.T) []byte {
	raw, err := os.ReadFile("testdata/v3_pendingTransactions_one_emulated_HANDBUILT.json")
	require.NoError(t, err)
	var page map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &page))
	var txs []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(page["transactions"], &txs))
	second := map[string]json.RawMessage{}
	for k, v := range txs[0] {
		second[k] = v
	}
	second["hash"] = json.RawMessage(`"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="`)
	b, err := json.Marshal([]any{txs[0], second})
	require.NoError(t, err)
	page["transactions"] = b
	out, err := json.Marshal(page)
	require.NoError(t, err)
	return out
}

// page decodes one kind of page and returns its items, each with its
// Unread and its raw JSON.
type item struct {
	value  any
	unread []string
	raw    []byte
}

type decoder struct {
	body   func(t *testing.T) []byte
	decode func(body []byte) ([]item, error)
	// items is the path to the page's list of items.
	items []any
}

var decoders = map[string]decoder{
	"pending": {pendingBody, func(body []byte) ([]item, error) {
		p, err := decodePendingTransactions(body)
		if err != nil {
			return nil, err
		}
		var out []item
		for _, tx := range p.Transactions {
			out = append(out, item{tx, tx.Unread, tx.Raw})
		}
		return out, nil
	}, []any{"transactions"}},
	"block": {func(t *testing.T) []byte {
		b, err := os.ReadFile("testdata/v2_getBlockTransactionsExt_blockpi_mc39984096.json")
		require.NoError(t, err)
		return b
	}, func(body []byte) ([]item, error) {
		p, err := decodeBlockTransactions(body)
		if err != nil {
			return nil, err
		}
		var out []item
		for _, tx := range p.Transactions {
			out = append(out, item{tx, tx.Unread, tx.Transaction})
		}
		return out, nil
	}, []any{"result", "transactions"}},
	"state": {func(t *testing.T) []byte {
		b, err := os.ReadFile("testdata/v3_accountStates_two_accounts_HANDBUILT.json")
		require.NoError(t, err)
		return b
	}, func(body []byte) ([]item, error) {
		p, err := decodeAccountStates(body)
		if err != nil {
			return nil, err
		}
		var out []item
		for _, s := range p.States {
			out = append(out, item{s, s.Unread, s.Raw})
		}
		return out, nil
	}, []any{"accounts"}},
}

// TestDecodePolicyOddShapes feeds every odd shape to every secondary member
// and enumeration of every decoded item (a message's through the pending
// page's in_msg and out_msgs[0]), and a wrong shape to every load-bearing
// member the recorded bodies carry.
func TestDecodePolicyOddShapes(t *testing.T) {
	type target struct {
		kind   string // the page
		policy string // whose members
		prefix []any  // within item 0
		name   string // how Unread names a member under prefix
	}
	for _, tg := range []target{
		{"pending", "pending", nil, ""},
		{"pending", "message", []any{"in_msg"}, "in_msg."},
		{"pending", "message", []any{"out_msgs", 0}, "out_msgs[0]."},
		{"block", "block", nil, ""},
		{"state", "state", nil, ""},
	} {
		dec, p := decoders[tg.kind], policies[tg.policy]
		// The body re-encoded as setMember encodes it, so that the
		// neighbours' raw JSON is byte for byte the same.
		body := testkit.RoundTripJSON(t, dec.body(t))
		base, err := dec.decode(body)
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(base), 2, tg.kind)
		item0 := append(slices.Clone(dec.items), 0)
		for _, member := range slices.Concat(p.secondary, p.enums) {
			shapes := slices.Concat(testkit.OddJSONShapes, []string{wrongShape(member)})
			for _, shape := range shapes {
				what := tg.kind + " " + tg.name + member + " = " + shape
				path := append(slices.Concat(item0, tg.prefix), member)
				odd := testkit.SetJSON(t, body, shape, path...)
				got, err := dec.decode(odd)
				require.NoError(t, err, "%s: one odd member lost the page", what)
				require.Len(t, got, len(base), what)
				for i := 1; i < len(base); i++ {
					if !reflect.DeepEqual(base[i].value, got[i].value) {
						t.Errorf("%s: item %d changed", what, i)
					}
				}
				if slices.Contains(p.enums, member) {
					assert.NotContains(t, got[0].unread, tg.name+member, "%s: an enumeration is kept as sent", what)
					continue
				}
				var compact bytes.Buffer
				require.NoError(t, json.Compact(&compact, []byte(shape)))
				assert.Contains(t, string(got[0].raw), compact.String(), "%s: kept as sent", what)
				if shape == wrongShape(member) {
					assert.Contains(t, got[0].unread, tg.name+member, "%s: reported on the item", what)
				}
			}
		}
		for _, member := range p.loadBearing {
			path := append(slices.Concat(item0, tg.prefix), member)
			if !testkit.HasJSON(t, body, path...) {
				continue // not in this recorded body's shape
			}
			what := tg.kind + " " + tg.name + member
			bad := `{"x":[1]}`
			if member == "in_msg" || member == "transaction" {
				bad = `"garbage"` // an object is a message with nothing
			}
			_, err := dec.decode(testkit.SetJSON(t, body, bad, path...))
			require.Error(t, err, "%s: a load-bearing member that cannot be read refuses the page", what)
			assert.Regexp(t, `^(transaction|account state) 0( \((hash|account) "[^"]+"\))?: `, err.Error(), what)
		}
	}
}
