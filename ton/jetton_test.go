package ton_test

import (
	"encoding/base64"
	"encoding/hex"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/require"
)

// jettonBody reads a body of testdata/jetton: hex or base64 as the file's
// name says.
func jettonBody(t testing.TB, name string) []byte {
	t.Helper()
	text := strings.TrimSpace(string(testdata(t, filepath.Join("jetton", name))))
	var b []byte
	var err error
	if strings.HasSuffix(name, ".hex") {
		b, err = hex.DecodeString(text)
	} else {
		b, err = base64.StdEncoding.DecodeString(text)
	}
	require.NoError(t, err)
	return b
}

func bigInt(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	require.True(t, ok, s)
	return v
}

// std is a standard MsgAddress from its raw form.
func std(t *testing.T, raw string) ton.MsgAddress {
	t.Helper()
	a, err := ton.ParseAddress(raw)
	require.NoError(t, err)
	id := a.ID
	return ton.MsgAddress{Form: "addr_std", Std: &a, Workchain: int32(a.Workchain), Bits: id[:], BitLen: 256}
}

var addrNone = ton.MsgAddress{Form: "addr_none"}

// TestParseJettonTransferTongoVectors checks the real bodies against the
// values tongo's own tests assert for them (abi/jetton_test.go,
// generated_test.go, decoder_test.go at v1.22.47), and against the
// independent decodes of testdata/SOURCES.md for the crosschain body.
func TestParseJettonTransferTongoVectors(t *testing.T) {
	src := &ton.Address{Workchain: 0, ID: [32]byte{1, 2, 3}}
	dst := &ton.Address{Workchain: 0, ID: [32]byte{9, 8, 7}}
	cases := []struct {
		file string
		want ton.JettonTransfer
	}{
		{"transfer_comment_in_ref_tongo.hex", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 6083770388301355627, Amount: big.NewInt(884501240679),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:a32d52ced80a23fe4fe90ba94593ef686de03f9fbdaa069e642826a95234b982"),
			ResponseDestination: std(t, "0:dfbd5be8497fdc0c9fcbdfc676864840ddf8ad6423d6d5657d9b0e8270d6c8ac"),
			ForwardAmount:       big.NewInt(1), HasComment: true, Comment: "1847398082"}},
		{"transfer_custom_payload_and_comment_ref_tongo.hex", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 8314205675871287026, Amount: big.NewInt(247521090170),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:f9bdc0de461c1a2e002fada9550bbb095c8f9f73668d70c517a9cc7e050f8e5a"),
			ResponseDestination: std(t, "0:ccf1e662a2e76399a76060c2b4f6a806860dfdcb0a30072f1e3343b9baa68152"),
			HasCustomPayload:    true, ForwardAmount: big.NewInt(1), HasComment: true, Comment: "9820121"}},
		// tongo: "Jetton transfer with invalid forward payload" decodes as
		// right with an empty payload; so does this reader (no comment).
		{"transfer_MALFORMED_either_right_without_ref_tongo.hex", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 8314205675871287026, Amount: big.NewInt(247521090170),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:f9bdc0de461c1a2e002fada9550bbb095c8f9f73668d70c517a9cc7e050f8e5a"),
			ResponseDestination: std(t, "0:ccf1e662a2e76399a76060c2b4f6a806860dfdcb0a30072f1e3343b9baa68152"),
			ForwardAmount:       big.NewInt(1)}},
		// tongo: "without forward payload": empty payload.
		{"transfer_no_either_bit_tongo.hex", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 8314205675871287026, Amount: big.NewInt(247521090170),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:f9bdc0de461c1a2e002fada9550bbb095c8f9f73668d70c517a9cc7e050f8e5a"),
			ResponseDestination: std(t, "0:ccf1e662a2e76399a76060c2b4f6a806860dfdcb0a30072f1e3343b9baa68152"),
			ForwardAmount:       big.NewInt(1)}},
		{"transfer_either_left_empty_tongo.hex", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 8314205675871287026, Amount: big.NewInt(247521090170),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:f9bdc0de461c1a2e002fada9550bbb095c8f9f73668d70c517a9cc7e050f8e5a"),
			ResponseDestination: std(t, "0:ccf1e662a2e76399a76060c2b4f6a806860dfdcb0a30072f1e3343b9baa68152"),
			ForwardAmount:       big.NewInt(1)}},
		{"transfer_notification_comment_in_ref_tongo.hex", ton.JettonTransfer{Op: 0x7362d09c, QueryID: 6083770386919049922, Amount: big.NewInt(2191876121148),
			Sender:      std(t, "0:09e8d72f00bbe73f7e626baeb590a06fe613d89ad9a06c9a29818c1bde97c52f"),
			Destination: std(t, "0:0908070000000000000000000000000000000000000000000000000000000000"),
			HasComment:  true, Comment: "4705001320"}},
		{"internal_transfer_empty_comment_in_ref_tongo.hex", ton.JettonTransfer{Op: 0x178d4519, QueryID: 1728470142, Amount: big.NewInt(111269393861727),
			Sender:              std(t, "0:c3f1da8ecda8f8cd42bace224ea3f1b6971eaa7f54c492d4d190527b4f573f7c"),
			ResponseDestination: std(t, "0:c3f1da8ecda8f8cd42bace224ea3f1b6971eaa7f54c492d4d190527b4f573f7c"),
			ForwardAmount:       big.NewInt(1), HasComment: true, Comment: ""}},
		{"transfer_notification_inline_empty_comment_tongo.b64", ton.JettonTransfer{Op: 0x7362d09c, QueryID: 109442484237271, Amount: big.NewInt(626500000),
			Sender:      std(t, "0:c1e476000d79d9e2309dd90f229a6f4192c66b8f5b34804dde19891e871480f3"),
			Destination: std(t, "0:0908070000000000000000000000000000000000000000000000000000000000"),
			HasComment:  true}},
		{"transfer_tongo_decoder.hex", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 0, Amount: big.NewInt(1000000000000000),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:ae69fc571c934d38dfd6ca239aa399ca55c68baf2d8b5b29d9b015bb210c69de"),
			ResponseDestination: std(t, "0:d76767392e7035d84ba6f83960b9399f62430ebcd7850a1e2b043d2d826c2370"),
			ForwardAmount:       big.NewInt(1), HasComment: true}},
		// The comment sits in custom_payload, which is not a TEP-74 comment.
		{"transfer_comment_in_custom_payload_testnet_crosschain.b64", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 1721068295, Amount: big.NewInt(22000000),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:a1a2dca202d48faacd016cf0fce75332b3dfcb74c54cecdf9ab6c158bd431ce3"),
			ResponseDestination: std(t, "0:237e5119ffa2a028cc4f95c9ca37566852f1dd4d3ea15704d6f791065507de4a"),
			HasCustomPayload:    true, ForwardAmount: big.NewInt(0)}},
		{"transfer_inline_comment_response_none_HANDBUILT.b64", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 42, Amount: big.NewInt(1000000),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:a1a2dca202d48faacd016cf0fce75332b3dfcb74c54cecdf9ab6c158bd431ce3"),
			ResponseDestination: addrNone, ForwardAmount: big.NewInt(1), HasComment: true, Comment: "deposit 12345"}},
		{"transfer_snake_comment_two_cells_HANDBUILT.b64", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 7, Amount: bigInt(t, "1000000000000000000000000"),
			Sender:              std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination:         std(t, "0:a1a2dca202d48faacd016cf0fce75332b3dfcb74c54cecdf9ab6c158bd431ce3"),
			ResponseDestination: std(t, "0:237e5119ffa2a028cc4f95c9ca37566852f1dd4d3ea15704d6f791065507de4a"),
			ForwardAmount:       big.NewInt(100000000), HasComment: true, Comment: strings.Repeat("x", 123) + "tail-of-comment"}},
		{"transfer_notification_binary_comment_HANDBUILT.b64", ton.JettonTransfer{Op: 0x7362d09c, QueryID: 9, Amount: big.NewInt(5),
			Sender:      std(t, "0:237e5119ffa2a028cc4f95c9ca37566852f1dd4d3ea15704d6f791065507de4a"),
			Destination: std(t, "0:0908070000000000000000000000000000000000000000000000000000000000"),
			HasComment:  true, BinaryComment: []byte{1, 2, 3}}},
		{"transfer_notification_invalid_utf8_comment_HANDBUILT.b64", ton.JettonTransfer{Op: 0x7362d09c, QueryID: 9, Amount: big.NewInt(5),
			Sender:      std(t, "0:237e5119ffa2a028cc4f95c9ca37566852f1dd4d3ea15704d6f791065507de4a"),
			Destination: std(t, "0:0908070000000000000000000000000000000000000000000000000000000000"),
			HasComment:  true, Comment: "\xc3("}},
		{"transfer_addr_var_dest_addr_extern_response_HANDBUILT.b64", ton.JettonTransfer{Op: 0x0f8a7ea5, QueryID: 1, Amount: big.NewInt(1),
			Sender: std(t, "0:0102030000000000000000000000000000000000000000000000000000000000"),
			Destination: ton.MsgAddress{Form: "addr_var", Workchain: 0, BitLen: 256,
				Bits: mustHex(t, "a1a2dca202d48faacd016cf0fce75332b3dfcb74c54cecdf9ab6c158bd431ce3")},
			ResponseDestination: ton.MsgAddress{Form: "addr_extern", BitLen: 8, Bits: []byte{0xab}},
			ForwardAmount:       big.NewInt(0)}},
		{"internal_transfer_response_none_HANDBUILT.b64", ton.JettonTransfer{Op: 0x178d4519, QueryID: 3, Amount: big.NewInt(77),
			Sender:              std(t, "0:237e5119ffa2a028cc4f95c9ca37566852f1dd4d3ea15704d6f791065507de4a"),
			ResponseDestination: addrNone, ForwardAmount: big.NewInt(0)}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			m := ton.Message{Body: jettonBody(t, tc.file), Source: src, Destination: dst}
			got, ok := m.ParseJettonTransfer()
			require.True(t, ok)
			require.Equal(t, tc.want, got)
		})
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// TestParseJettonTransferRefuses: bodies that are no jetton transfer, or
// that break the scheme before the forward payload, read as not ok. The
// custom-payload body is where this reader and tongo part: tongo reads the
// missing reference as no custom payload and goes on; a jetton wallet's
// load_maybe_ref throws on it, so the transfer moves nothing.
func TestParseJettonTransferRefuses(t *testing.T) {
	for _, file := range []string{
		"transfer_MALFORMED_custom_payload_bit_without_ref_tongo.hex",
		"burn_with_custom_payload_tongo.b64", "burn_with_custom_payload_2_tongo.b64",
		"burn_notification_trailing_bits_tongo.b64", "excesses_tongo_decoder.hex",
		"text_comment_body_tongo_decoder.hex", "forward_payload_text_comment_Hello_tongo.hex",
	} {
		m := ton.Message{Body: jettonBody(t, file)}
		_, ok := m.ParseJettonTransfer()
		require.False(t, ok, file)
	}
	// A transaction with no in-message has a nil InMsg: no transfer, no panic.
	var none *ton.Message
	_, ok := none.ParseJettonTransfer()
	require.False(t, ok, "nil message")
	// Every cut of a real transfer before its forward payload is refused.
	body := jettonBody(t, "transfer_comment_in_ref_tongo.hex")
	for _, m := range []ton.Message{{}, {Body: body[:len(body)-1]}, {Body: []byte("not a bag")}} {
		_, ok := m.ParseJettonTransfer()
		require.False(t, ok)
	}
}

func TestMsgAddressString(t *testing.T) {
	require.Equal(t, "0:a1a2dca202d48faacd016cf0fce75332b3dfcb74c54cecdf9ab6c158bd431ce3",
		std(t, "0:a1a2dca202d48faacd016cf0fce75332b3dfcb74c54cecdf9ab6c158bd431ce3").String())
	require.Equal(t, "addr_none", addrNone.String())
	require.Equal(t, "addr_extern:8:ab", ton.MsgAddress{Form: "addr_extern", BitLen: 8, Bits: []byte{0xab}}.String())
	require.Equal(t, "addr_var:-5:12:abc", ton.MsgAddress{Form: "addr_var", Workchain: -5, BitLen: 12, Bits: []byte{0xab, 0xc0}}.String())
	require.Equal(t, "addr_std+anycast:4:a:0:256:"+strings.Repeat("00", 32),
		ton.MsgAddress{Form: "addr_std", BitLen: 256, Bits: make([]byte, 32), Anycast: []byte{0xa0}, AnycastBits: 4}.String())
	require.Equal(t, "", ton.MsgAddress{}.String())
}

// FuzzParseJettonTransfer: any body reads without panicking, and a body
// that reads gives an exact, non-negative amount and a comment of either
// kind, never both.
func FuzzParseJettonTransfer(f *testing.F) {
	for _, dir := range []string{"jetton"} {
		entries, err := filepathGlob(dir)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range entries {
			f.Add(jettonBody(f, name))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m := ton.Message{Body: body}
		got, ok := m.ParseJettonTransfer()
		if !ok {
			return
		}
		if got.Amount == nil || got.Amount.Sign() < 0 || got.Amount.BitLen() > 120 {
			t.Fatalf("amount %v", got.Amount)
		}
		if got.BinaryComment != nil && (got.Comment != "" || !got.HasComment) {
			t.Fatalf("binary and text comment: %+v", got)
		}
		if !got.HasComment && got.Comment != "" {
			t.Fatalf("comment without HasComment: %+v", got)
		}
		_ = utf8.ValidString(got.Comment)
	})
}

// filepathGlob lists the body files of testdata/<dir>.
func filepathGlob(dir string) ([]string, error) {
	var names []string
	for _, pat := range []string{"*.hex", "*.b64"} {
		m, err := filepath.Glob(filepath.Join("testdata", dir, pat))
		if err != nil {
			return nil, err
		}
		for _, p := range m {
			names = append(names, filepath.Base(p))
		}
	}
	return names, nil
}

// BenchmarkParseJettonTransfer measures the package's own reader on a
// small (2 cells) and a large (55 cells) real transfer, to weigh it against
// third-party cell libraries.
func BenchmarkParseJettonTransfer(b *testing.B) {
	for _, name := range []string{"transfer_comment_in_ref_tongo.hex", "transfer_custom_payload_and_comment_ref_tongo.hex"} {
		m := ton.Message{Body: jettonBody(b, name)}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := m.ParseJettonTransfer(); !ok {
					b.Fatal("not read")
				}
			}
		})
	}
}
