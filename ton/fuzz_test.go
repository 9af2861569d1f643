package ton

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/ton/internal/wire"
)

func seedFile(f *testing.F, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	return b
}

func FuzzParseAddress(f *testing.F) {
	for _, line := range strings.Split(string(seedFile(f, "address_vectors.txt")), "\n") {
		if fields := strings.Fields(line); len(fields) > 1 && line[0] != '#' {
			f.Add(fields[len(fields)-1])
		}
	}
	for _, s := range []string{"", ":", "-1:", "0:zz", "-128:" + strings.Repeat("ff", 32), "127:" + strings.Repeat("00", 32), "EQ", strings.Repeat("A", 48)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAddress(s)
		if err != nil {
			return
		}
		// The raw form is accepted only in its canonical spelling, the
		// account id in either case.
		if strings.Contains(s, ":") && !strings.EqualFold(s, a.String()) {
			t.Fatalf("%q is accepted as %s", s, a.String())
		}
		for _, form := range []string{a.String(), a.rawUpper(), a.Friendly(true, false).String(), stdBase64(a.Friendly(false, true))} {
			b, err := ParseAddress(form)
			if err != nil || b != a {
				t.Fatalf("%q -> %v -> %q -> %v, %v", s, a, form, b, err)
			}
		}
		if len(s) == wire.FriendlyLen {
			fa, err := ParseFriendlyAddress(s)
			if err != nil || fa.Address != a {
				t.Fatalf("%q: ParseFriendlyAddress %v, %v", s, fa, err)
			}
			// The flags and bytes survive: one of the two alphabets gives s back.
			if fa.String() != s && stdBase64(fa) != s {
				t.Fatalf("%q formats back as %q / %q", s, fa.String(), stdBase64(fa))
			}
		}
	})
}

func FuzzParseShardID(f *testing.F) {
	for _, s := range []string{"-9223372036854775808", "8000000000000000", "6917529027641081856", "6000000000000000", "E000000000000000", "0x8", "0", "-1", "+1", "0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseShardID(s)
		if err != nil {
			return
		}
		if id == 0 {
			t.Fatalf("%q: zero shard accepted", s)
		}
		if back, err := ParseShardID(id.String()); err != nil || back != id {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, id, id.String(), back, err)
		}
		// A 16-digit positive decimal reads as hex (documented); others round-trip.
		if d := strconv.FormatInt(int64(id), 10); len(d) != 16 {
			if back, err := ParseShardID(d); err != nil || back != id {
				t.Fatalf("%q -> %d -> %q -> %d, %v", s, id, d, back, err)
			}
		}
		// "0x" always reads hex.
		if back, err := ParseShardID("0x" + id.String()); err != nil || back != id {
			t.Fatalf("%q -> %d -> ParseShardID(0x%s) = %d, %v", s, id, id.String(), back, err)
		}
		if ref, err := ParseBlockRef(BlockRef{Workchain: -1, Shard: id, Seqno: 1}.String()); err != nil || ref.Shard != id {
			t.Fatalf("block ref with shard %d: %v, %v", id, ref, err)
		}
	})
}

func FuzzParseHash(f *testing.F) {
	for _, s := range []string{"RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk=", "RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk", "0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im-A=", strings.Repeat("ab", 32)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHash(s)
		if err != nil {
			return
		}
		for _, form := range []string{h.String(), h.Hex()} {
			if back, err := ParseHash(form); err != nil || back != h {
				t.Fatalf("%q -> %q -> %v, %v", s, form, back, err)
			}
		}
	})
}

// FuzzParseBlockRef: what ParseBlockRef accepts prints (String) a form
// that parses back to the same reference; what it refuses is an
// *nodeaccess.InputError.
func FuzzParseBlockRef(f *testing.F) {
	for _, s := range []string{"(-1,8000000000000000,39984096)", "-1,-9223372036854775808,1", "(0,6000000000000000,0)", "(0,0x8,4294967295)",
		"(2147483648,8000000000000000,1)", "(-1,8000000000000000,+1)", "(+1,8,1)", "(,,)", "()", "(-1,8000000000000000,1", "(0,0,1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseBlockRef(s)
		if err != nil {
			var ie *nodeaccess.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%q: %v (%T) is not an InputError", s, err, err)
			}
			return
		}
		if back, err := ParseBlockRef(ref.String()); err != nil || back != ref {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, ref, ref.String(), back, err)
		}
	})
}

// blockSeeds are getBlockTransactionsExt bodies: the recorded one, the
// interface's shape, JSON-RPC envelopes and error bodies.
func blockSeeds(f *testing.F) []string {
	rec := string(seedFile(f, "v2_getBlockTransactionsExt_blockpi_mc39984096.json"))
	return []string{
		rec,
		strings.Replace(rec, `"ok": true,`, `"ok": true, "id": "1", "jsonrpc": "2.0",`, 1),
		`{"id":{"workchain":-1,"shard":"-9223372036854775808","seqno":1,"root_hash":"b26/Pw8BYz6VY7RyYB/w2Nf8pKBebsg+H4rT1pH5ZEM=","file_hash":""},"incomplete":true,"transactions":[{"account":"0:` + strings.Repeat("AB", 32) + `","hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=","lt":"7","transaction":{"utime":1,"fee":"5","data":"te6cckEBAQEAAgAAAEysuc0="}}]}`,
		`{"jsonrpc":"2.0","id":1,"result":{"id":{"workchain":0,"shard":-1,"seqno":"1"},"transactions":[]}}`,
		`{"ok":false,"error":"Incorrect address","code":416}`,
		`{"ok":false,"result":"Ratelimit exceed","code":429}`,
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"no"}}`,
		`{"ok":true}`, `null`, `[]`, `{}`,
		// Real transactions of the other shapes as block entries: v2
		// getTransactions (external in, a msg.dataText comment) and v3.
		blockOf(f, seedFile(f, "v2_getTransactions_toncenter_wallet_tutorial.json"), "result"),
		blockOf(f, seedFile(f, "v3_transactions_crosschain_comment.json"), "transactions"),
		blockOf(f, seedFile(f, "v3_transactions_axelar_amplifier.json"), "transactions"),
		// Protocol version 12: v2 extra currencies with a negative id (the
		// published example, whose data is cut short), a v3 element with
		// extra_flags and an empty value_extra_currencies, a v3 trace with
		// opcode strings and hash_norm.
		string(seedFile(f, "v2_getBlockTransactionsExt_docs_example_mc_seqno1.json")),
		`{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":1},"incomplete":false,"transactions":[` + string(seedFile(f, "v3_transactions_element_mainnet_2026-07_dataset_doc.json")) + `]}`,
		traceBlock(f),
		// getBlockTransactions: ids only (the walk reads them past a
		// transaction the server cannot read).
		string(seedFile(f, "v2_getBlockTransactions_blockpi_mc39984096.json")),
	}
}

// traceBlock wraps the transactions of the recorded v3 trace as a
// getBlockTransactionsExt result.
func traceBlock(f *testing.F) string {
	var body struct {
		Traces []struct {
			Transactions map[string]json.RawMessage `json:"transactions"`
		} `json:"traces"`
	}
	if err := json.Unmarshal(seedFile(f, "v3_traces_mainnet_2025-09-26_docs_cookbook.json"), &body); err != nil || len(body.Traces) != 1 {
		f.Fatal("the trace body: ", err)
	}
	var txs []string
	for _, tx := range body.Traces[0].Transactions {
		txs = append(txs, string(tx))
	}
	return `{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":1},"incomplete":false,"transactions":[` + strings.Join(txs, ",") + `]}`
}

// blockOf wraps the transactions list member of a recorded body as a
// getBlockTransactionsExt result.
func blockOf(f *testing.F, body []byte, member string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		f.Fatal(err)
	}
	return `{"id":{"workchain":0,"shard":"-9223372036854775808","seqno":1},"incomplete":false,"transactions":` + string(m[member]) + `}`
}

func FuzzDecodeBlockTransactions(f *testing.F) {
	for _, s := range blockSeeds(f) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		out, err := decodeBlockTransactions(body)
		if err != nil {
			return
		}
		for i, tx := range out.Transactions {
			if tx.Transaction == nil {
				t.Fatalf("transaction %d: no raw transaction", i)
			}
			if tx.Fee != nil && tx.Fee.Sign() < 0 || tx.StorageFee != nil && tx.StorageFee.Sign() < 0 || tx.OtherFee != nil && tx.OtherFee.Sign() < 0 {
				t.Fatalf("transaction %d: negative fee", i)
			}
			msgs := tx.OutMsgs
			if tx.InMsg != nil {
				msgs = append([]Message{*tx.InMsg}, msgs...)
			}
			for j, m := range msgs {
				if m.Raw == nil || m.Value != nil && m.Value.Sign() < 0 || m.FwdFee != nil && m.FwdFee.Sign() < 0 || m.IHRFee != nil && m.IHRFee.Sign() < 0 {
					t.Fatalf("transaction %d message %d: %+v", i, j, m)
				}
				if !m.HasComment && m.Comment != "" {
					t.Fatalf("transaction %d message %d: comment without HasComment", i, j)
				}
				if m.ExtraFlags != nil && m.ExtraFlags.Sign() < 0 {
					t.Fatalf("transaction %d message %d: extra_flags %v", i, j, m.ExtraFlags)
				}
				for id, v := range m.ExtraCurrencies {
					if v == nil || v.Sign() < 0 || v.BitLen() > 248 { // VarUInteger 32
						t.Fatalf("transaction %d message %d: extra currency %d amount %v", i, j, id, v)
					}
				}
				_, _ = m.ParseBounce()
			}
		}
		if _, more := out.Next(); more && !out.Incomplete {
			t.Fatal("a cursor for a complete block")
		}
	})
}

func FuzzDecodeAccountStates(f *testing.F) {
	for _, s := range []string{
		`{"accounts":[{"address":"0:5B6A643CF4E32FF0391C476456FED5BDB17EF10A55CBB7C2980C76D4AAD07875","account_state_hash":"RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk=","balance":"5000","extra_currencies":{},"status":"active","frozen_hash":null,"code_hash":"0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A=","data_hash":null,"code_boc":"te6cckEBAQEAAgAAAEysuc0=","data_boc":null,"last_transaction_hash":"AKRX7V8G5q2Jr9gxsZkkWu8xsnORTIB08SWuMt59Src=","last_transaction_lt":"48756940000002"}],"address_book":{"0:5B6A643CF4E32FF0391C476456FED5BDB17EF10A55CBB7C2980C76D4AAD07875":{"user_friendly":"EQBbamQ89OMv8DkcR2RW_tW9sX7xClXLt8KYDHbUqtB4deEw","domain":null,"interfaces":["wallet_v4r2"]}},"metadata":{}}`,
		`{"account_states":[{"account":"-1:3333333333333333333333333333333333333333333333333333333333333333","hash":"RzoRGcEyx5Ia5tEKUWlCpFbg8B0scpuXSyNXf9a4Nsk=","balance":"0","account_status":"nonexist","last_trans_lt":0,"last_trans_hash":""}],"address_book":{}}`,
		`{"error":"limit should be less than or equal to 1000"}`,
		`{"accounts":[]}`, `{}`, `null`,
		`{"accounts":[],"address_book":{"addr_none":{"user_friendly":"addr_none","domain":null,"interfaces":[]},"0:AB":5},"metadata":{"x":1}}`,
	} {
		f.Add([]byte(s))
	}
	for _, name := range []string{"v3_accountStates_two_accounts_HANDBUILT.json", "v3_accountStates_jetton_metadata_HANDBUILT.json",
		"v3_accountStates_422_no_address_HANDBUILT.json", "v3_accountStates_422_bad_address_HANDBUILT.json", "v3_accountStates_422_db_timeout_HANDBUILT.json"} {
		f.Add(seedFile(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := decodeAccountStates(body)
		if err != nil {
			return
		}
		if page.States == nil || page.AddressBook == nil {
			t.Fatal("nil states or address book")
		}
		for k := range page.UnknownAddresses {
			if _, err := ParseAddress(k); err == nil {
				t.Fatalf("%q is an address, not an unknown key", k)
			}
		}
		for a, e := range page.AddressBook {
			for i, ti := range e.TokenInfo {
				if !json.Valid(ti.Raw) {
					t.Fatalf("metadata of %s, token %d: Raw %q", a, i, ti.Raw)
				}
			}
		}
		for i, s := range page.States {
			if s.Balance != nil && s.Balance.Sign() < 0 {
				t.Fatalf("state %d: balance %v", i, s.Balance)
			}
		}
	})
}

func FuzzDecodePendingTransactions(f *testing.F) {
	f.Add(seedFile(f, "v3_transactions_axelar_amplifier.json"))
	f.Add(seedFile(f, "v3_transactions_crosschain_comment.json"))
	for _, s := range []string{
		`{"transactions":[{"account":"0:00194aad8e422bedf43fee746d6d929d369dbab25468a69d513706ea6978b63a","hash":"L/DSNQ43lWUDdga8h4ci8hVp+nVS6/BxEF7KrAO0yTo=","lt":36582626000003,"now":1751972976,"mc_block_seqno":33013054,"trace_id":"6h4rXxxaXBcwgFnNiyyzXolMBo6wDeqiW2+LIq8feHE="}],"address_book":{}}`,
		`{"error":"emulated traces not found"}`,
		`{"transactions":[]}`, `{}`,
		`{"transactions":[{"account":"0:AB","hash":"","lt":"1","finality":2,"emulated":true,"trace_external_hash":null}]}`,
	} {
		f.Add([]byte(s))
	}
	for _, name := range []string{"v3_pendingTransactions_one_emulated_HANDBUILT.json", "v3_pendingTransactions_book_addr_extern_HANDBUILT.json",
		"v3_pendingTransactions_200_all_completed_HANDBUILT.json", "v3_pendingTransactions_404_HANDBUILT.json",
		"v3_pendingTransactions_422_no_account_HANDBUILT.json", "v3_pendingTransactions_422_bad_account_HANDBUILT.json"} {
		f.Add(seedFile(f, name))
	}
	f.Add([]byte(`{"transactions":[` + string(seedFile(f, "v3_transactions_element_mainnet_2026-07_dataset_doc.json")) + `]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := decodePendingTransactions(body)
		if err != nil {
			return
		}
		if page.Transactions == nil || page.AddressBook == nil {
			t.Fatal("nil transactions or address book")
		}
		// decodePendingTransactions keeps the server's order; the client
		// sorts the page. Sorting is stable and total on (account, lt, hash).
		sorted := slices.Clone(page.Transactions)
		slices.SortStableFunc(sorted, comparePending)
		for i := 1; i < len(sorted); i++ {
			if comparePending(sorted[i-1], sorted[i]) > 0 {
				t.Fatalf("not sorted at %d", i)
			}
		}
		for i, tx := range page.Transactions {
			if tx.Raw == nil || tx.TotalFees != nil && tx.TotalFees.Sign() < 0 {
				t.Fatalf("transaction %d: %+v", i, tx)
			}
		}
	})
}

func FuzzParseErrorBody(f *testing.F) {
	for _, s := range []string{
		`{"ok":false,"error":"Incorrect address","code":416}`,
		`{"ok":false,"result":"Ratelimit exceed","code":429}`,
		`{"error":"emulated traces not found"}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
		`{"ok":false,"code":"99999999999"}`,
		`{"ok":true,"result":{}}`, `null`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"error":"` + strings.Repeat("x", maxMessage-3) + `fuzz-KEY"}`))
	for _, name := range []string{"v2_python_getBlockTransactionsExt_500_failed_to_unpack_balance.json", "v2_python_getBlockTransactions_500_notready_seqno_not_in_db.json",
		"v2_python_getMasterchainBlockSignatures_500_notready_cannot_find_block.json", "v2_python_jsonrpc_getMasterchainInfo_503_no_working_liteservers.json",
		"v2_docs_openapi_504_example.json", "v2_python_504_liteserver_timeout_HANDBUILT.json"} {
		f.Add(seedFile(f, name))
	}
	f.Add([]byte(`{"ok":false,"error":"LITE_SERVER_UNKNOWN: specified mc block is older than block's masterchain ref","code":500}`))
	const key = "fuzz-KEY"
	c, err := New("https://ton.node.example", key)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		_, msg, ok := parseErrorBody(body)
		if !ok {
			return
		}
		if msg == "" {
			t.Fatal("empty message")
		}
		// The message is kept whole; what an error shows is masked, then capped.
		if s := c.scrub(msg); len(s) > maxMessage+len("…") || strings.Contains(s, key) {
			t.Fatalf("message %q shows as %q", msg, s)
		}
		// A classified error keeps its cause and matches one sentinel at most.
		re := &nodeaccess.RPCError{Code: 500, Message: msg}
		err := classify(500, msg, re)
		if !errors.Is(err, re) || errors.Is(err, ErrNotYetAvailable) && errors.Is(err, ErrUnreadableTransaction) {
			t.Fatalf("%q classifies as %v", msg, err)
		}
		if (errors.Is(err, ErrNotYetAvailable) || errors.Is(err, ErrUnreadableTransaction)) != (err != error(re)) || retry5xx(500, body) == errors.Is(err, ErrUnreadableTransaction) {
			t.Fatalf("%q: classified %v, retried %t", msg, err, retry5xx(500, body))
		}
	})
}

// FuzzCallPayload: what Call decodes into out, from any body, for either API
// version: never a panic; for v3 the body itself; for v2 valid JSON
// whenever the body is (the result of the envelope, or the body).
func FuzzCallPayload(f *testing.F) {
	names, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range names {
		f.Add(seedFile(f, filepath.Base(name)))
	}
	for _, s := range []string{`{"ok":true,"result":"1"}`, `{"ok":true}`, `{"ok":false}`, `{"result":null}`, `[1]`, `"x"`, ``, `{"error":null}`, `{"error":{"message":"m"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, ep := range []endpoint{{name: "m"}, {v3: true, name: "p"}} {
			p, err := ep.payload(body)
			if err != nil {
				var re *nodeaccess.RPCError
				if errors.As(err, &re) && re.Message == "" {
					t.Fatalf("%s: an RPCError without a message", body)
				}
				continue
			}
			if ep.v3 && string(p) != string(body) {
				t.Fatalf("v3 payload %q of %q", p, body)
			}
			if json.Valid(body) && !json.Valid(p) {
				t.Fatalf("v2 payload %q of the valid body %q", p, body)
			}
		}
	})
}

// FuzzCallPath: a path Call takes names a v2 method or a v3 path of
// unreserved characters, with no empty, "." or ".." part, and never holds
// the key.
func FuzzCallPath(f *testing.F) {
	for _, s := range []string{"v2/getMasterchainInfo", "v3/jetton/masters", "v3/../x", "v2/a/b", "v3/a%2F", "v3/k3y", "v2/", "v3/a//b"} {
		f.Add(s)
	}
	c, err := New("https://ton.node.example", "k3y")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string) {
		ep, err := c.endpoint(path)
		if err != nil {
			return
		}
		if strings.Contains(path, "k3y") {
			t.Fatalf("%q holds the key", path)
		}
		version, name, _ := strings.Cut(path, "/")
		if version != "v2" && version != "v3" || (version == "v3") != ep.v3 || name != ep.name {
			t.Fatalf("%q parsed as %+v", path, ep)
		}
		parts := strings.Split(name, "/")
		if !ep.v3 && len(parts) != 1 {
			t.Fatalf("v2 %q has %d parts", path, len(parts))
		}
		for _, p := range parts {
			if p == "" || p == "." || p == ".." || !unreserved(p) {
				t.Fatalf("%q: part %q", path, p)
			}
		}
	})
}

// stdBase64 is the user-friendly form in standard base64, as the
// FriendlyAddress documentation writes it.
func stdBase64(f FriendlyAddress) string {
	return strings.NewReplacer("-", "+", "_", "/").Replace(f.String())
}

// FuzzDecodeV3Tx: a transaction of the indexer as Follow reads it
// (FollowQuery.Indexer). Seeds: every transaction of the recorded v3
// bodies. What decodes names a block on the account's workchain, and
// agrees with the pendingTransactions decoder on the account, hash and
// logical time of the same entry.
func FuzzDecodeV3Tx(f *testing.F) {
	for _, name := range []string{"v3_transactions_axelar_amplifier.json", "v3_transactions_crosschain_comment.json"} {
		var body struct {
			Transactions []json.RawMessage `json:"transactions"`
		}
		if err := json.Unmarshal(seedFile(f, name), &body); err != nil {
			f.Fatal(err)
		}
		for _, tx := range body.Transactions {
			f.Add([]byte(tx), mcSeqno(f, tx))
		}
	}
	element := seedFile(f, "v3_transactions_element_mainnet_2026-07_dataset_doc.json")
	f.Add(element, mcSeqno(f, element))
	f.Add([]byte(`{"account":"0:F447557AB11BD9AD706101E4AF9E68412556CD009132CECE5F29991BB1D7CA4B","hash":"wzu2hXSQSF+LlMBUbD7yGXtZROnVmBuHtuBLXTX0uhU=","lt":"1000040","now":1795923574,"mc_block_seqno":2,"total_fees":"1000","block_ref":{"workchain":0,"shard":"C000000000000000","seqno":1},"in_msg":null,"out_msgs":[]}`), uint32(2))
	f.Add([]byte(`{"account":"-1:5555000000000000000000000000000000000000000000000000000000000000","hash":"7PnlrcB1VG41PmViNnLQS0DEmtG5xjDFl+wI5NHw1S4=","lt":"1","block_ref":{"workchain":-1,"shard":"-9223372036854775808","seqno":2}}`), uint32(0))
	f.Fuzz(func(t *testing.T, raw []byte, seqno uint32) {
		var tx BlockTransaction
		ref, mc, err := decodeV3Tx(raw, &tx)
		if err != nil {
			return
		}
		if int32(tx.Account.Workchain) != ref.Workchain || ref.Shard == 0 {
			t.Fatalf("block %s for account %s", ref, tx.Account)
		}
		if seqno != 0 && mc != seqno {
			return // the seeds' rounds, read as themselves (mcSeqno checks them)
		}
		var p PendingTransaction
		if err := decodePending(raw, &p); err == nil && (p.Account != tx.Account || p.Hash != tx.Hash || p.LT != tx.LT) {
			t.Fatalf("the two decoders disagree: %s %s %d against %s %s %d", tx.Account, tx.Hash, tx.LT, p.Account, p.Hash, p.LT)
		}
	})
}

// mcSeqno reads a seed transaction's mc_block_seqno, which it must have:
// the seeds are to decode.
func mcSeqno(f *testing.F, raw []byte) uint32 {
	var w struct {
		Seqno uint32 `json:"mc_block_seqno"`
	}
	if err := json.Unmarshal(raw, &w); err != nil || w.Seqno == 0 {
		f.Fatalf("seed without mc_block_seqno: %v", err)
	}
	var tx BlockTransaction
	if _, mc, err := decodeV3Tx(raw, &tx); err != nil || mc != w.Seqno {
		f.Fatalf("a recorded transaction does not decode (mc_block_seqno %d): %v", mc, err)
	}
	return w.Seqno
}
