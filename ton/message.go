package ton

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"github.com/nodeaccess/nodeaccess/internal/jsontext"
	"github.com/nodeaccess/nodeaccess/internal/transport"
	"github.com/nodeaccess/nodeaccess/ton/internal/wire"
)

// Message is one message of a transaction, its in-message or one of its
// out-messages, typed from any of the shapes real servers send: the v2
// tonlib shape (raw.message: addresses as accountAddress objects or
// strings, msg_data with msg.dataText or msg.dataRaw, the Python server's
// decoded "message", extra_currencies as a list) and the v3 indexer's shape
// (message_content with a decoded text_comment, bounce, bounced,
// created_at, and since protocol version 12 extra_flags, opcode,
// decoded_opcode, hash_norm and value_extra_currencies as a map).
type Message struct {
	// Source is the sender; nil for a message from outside the chain (an
	// external in-message, the one that starts a wallet's transaction),
	// which servers send as "", null or without the member, and for an
	// address that is not a standard one, which the v3 indexer sends as a
	// literal ("addr_none", "addr_extern", "addr_var", "ext$…", "var$…"),
	// kept in Raw.
	Source *Address
	// Destination is the receiver; nil for a message to outside the chain
	// (an external out-message: a log or event), sent as "", null or
	// absent, and for an address that is not a standard one, as for
	// Source.
	Destination *Address
	// Value is the amount carried, in nanotons, exactly; nil when the
	// server sent none (external messages carry no value: the indexer sends
	// null for them).
	Value *big.Int
	// ExtraCurrencies are the extra currencies carried beside Value: exact
	// amounts keyed by currency id. v2 sends them as a list of
	// {"id","amount"} with the id as a signed 32-bit number, v3 as a map
	// (value_extra_currencies) keyed by the unsigned id; both give the same
	// key (v2's -17 is 4294967279). Nil when not sent (null, as the indexer
	// sends for external messages, or absent); empty when sent empty.
	ExtraCurrencies map[uint32]*big.Int
	// FwdFee is the forwarding fee in nanotons; nil when not sent.
	FwdFee *big.Int
	// IHRFee is the instant-hypercube-routing fee in nanotons (ihr_fee);
	// nil when not sent. Since protocol version 12 the message's bits that
	// held it hold ExtraFlags, and servers send 0 for new messages: tonlib,
	// behind the v2 servers, always sends 0; the v3 indexer sends "0" for
	// messages of blocks after version 12 and the fee for older ones.
	IHRFee *big.Int
	// ExtraFlags are the message's extra_flags (protocol version 12 on):
	// bit 0 asks for a bounce in the new format (see ParseBounce), bit 1
	// (with bit 0) for the whole body in it. Only the v3 indexer sends
	// them; nil when not sent (v2, external messages, messages older than
	// version 12).
	ExtraFlags *big.Int
	// CreatedLt is the logical time the message was created at; 0 when not
	// sent.
	CreatedLt uint64
	// CreatedAt is the time the message was created (created_at, the v3
	// indexer's), UTC; the zero time.Time when not sent, null or 0 (the v2
	// shape has none).
	CreatedAt time.Time
	// Bounce is the message's bounce flag: a failed delivery sends the
	// value back. False when not sent (v2 sends none).
	Bounce bool
	// Bounced marks a message that is itself a bounce, the value coming
	// back from a failed delivery. False when not sent (v2 sends none).
	Bounced bool
	// Hash is the message's hash (v3 hash, and v2 hash where the server
	// sends it); zero when not sent.
	Hash Hash
	// HashNorm is the normalised hash of an external in-message (v3
	// hash_norm), which stays the same when the message is sent again with
	// other fields of no consequence; zero when not sent (the indexer sends
	// it only where it differs from Hash).
	HashNorm Hash
	// BodyHash is the hash of the message body (v2 body_hash, v3
	// message_content.hash); zero when not sent.
	BodyHash Hash
	// Opcode is the first 32 bits of the body, the operation a contract
	// message asks for, as the v3 indexer sends it (opcode: a string
	// "0x…", or a number as its published schema has it); nil when not
	// sent (v2, or a body shorter than 32 bits).
	Opcode *uint32
	// DecodedOpcode is the name the v3 indexer gives Opcode (decoded_opcode,
	// such as "jetton_transfer"); "" when not sent or null.
	DecodedOpcode string
	// Body is the body as a serialised bag of cells (v2 msg_data.body, v3
	// message_content.body); nil when not sent (v2 msg.dataText carries
	// only the text).
	Body []byte
	// HasComment is true when the body is a text comment (op 0) the server
	// decoded: a v2 msg.dataText, a v2 non-empty "message" beside a
	// msg.dataText, or a v3 text_comment. A comment the server left
	// encoded in Body is not reported.
	HasComment bool
	// Comment is the text comment when HasComment, as sent (not checked
	// for valid UTF-8: a comment is the bytes its sender chose); ""
	// otherwise.
	Comment string
	// Raw is the message as the server sent it, for members not typed.
	Raw json.RawMessage
	// Unread names the secondary members of the message the SDK could not
	// read ("value_extra_currencies", "opcode", …; see the package
	// documentation): the fields they fill are left as when not sent, and
	// their values are in Raw as sent. Nil when every member was read. A
	// load-bearing member (source, destination, value, hash, created_lt)
	// that cannot be read is an error of the page instead.
	Unread []string
}

// addrPtr returns the address of a message member, nil when not sent.
func addrPtr(f wire.MsgAddr) *Address {
	if !f.Set {
		return nil
	}
	a := Address(f.A)
	return &a
}

type wireMessage struct {
	// Load-bearing: a member that cannot be read refuses the page.
	Source      wire.MsgAddr `json:"source"`
	Destination wire.MsgAddr `json:"destination"`
	Value       wire.Num     `json:"value"`
	CreatedLt   wire.Num     `json:"created_lt"`
	Hash        wire.Hash    `json:"hash"`
	// Secondary: one that cannot be read is named in Message.Unread.
	ExtraCurrencies jsontext.Soft[wire.Extra]      `json:"extra_currencies"`
	ValueExtra      jsontext.Soft[wire.Extra]      `json:"value_extra_currencies"`
	FwdFee          jsontext.Soft[wire.Num]        `json:"fwd_fee"`
	IHRFee          jsontext.Soft[wire.Num]        `json:"ihr_fee"`
	ExtraFlags      jsontext.Soft[wire.Num]        `json:"extra_flags"`
	CreatedAt       jsontext.Soft[wire.Num]        `json:"created_at"`
	Opcode          jsontext.Soft[wire.Opcode]     `json:"opcode"`
	DecodedOpcode   jsontext.Soft[*string]         `json:"decoded_opcode"`
	Bounce          jsontext.Soft[*bool]           `json:"bounce"`
	Bounced         jsontext.Soft[*bool]           `json:"bounced"`
	HashNorm        jsontext.Soft[wire.Hash]       `json:"hash_norm"`
	BodyHash        jsontext.Soft[wire.Hash]       `json:"body_hash"`
	Message         jsontext.Soft[*string]         `json:"message"`
	MsgData         jsontext.Soft[*wireMsgData]    `json:"msg_data"`
	Content         jsontext.Soft[*wireMsgContent] `json:"message_content"`
}

// wireMsgData is v2's msg_data.
type wireMsgData struct {
	Type string   `json:"@type"`
	Text *string  `json:"text"`
	Body wire.BOC `json:"body"`
}

// wireMsgContent is v3's message_content.
type wireMsgContent struct {
	Hash    wire.Hash `json:"hash"`
	Body    wire.BOC  `json:"body"`
	Decoded *struct {
		Type    string  `json:"type"`
		Comment *string `json:"comment"`
	} `json:"decoded"`
}

// decodeMessage decodes one message in any shape Message lists. A
// load-bearing member it cannot read is an error; a secondary one is named
// in the message's Unread.
func decodeMessage(raw json.RawMessage) (*Message, error) {
	var w wireMessage
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	m := &Message{Source: addrPtr(w.Source), Destination: addrPtr(w.Destination), Hash: Hash(w.Hash.H), Raw: raw}
	var err error
	if m.Value, err = w.Value.OptAmount("value"); err != nil {
		return nil, err
	}
	if w.CreatedLt.Set {
		if m.CreatedLt, err = w.CreatedLt.Uint64("created_lt"); err != nil {
			return nil, err
		}
	}
	u := (*jsontext.Unread)(&m.Unread)
	v2Extra, v3Extra := w.ExtraCurrencies, w.ValueExtra
	if u.Check("extra_currencies", v2Extra.Err) && u.Check("value_extra_currencies", v3Extra.Err) {
		var extra map[uint32]*big.Int
		if extra, err = wire.PickExtra(v2Extra.V, v3Extra.V); u.Check("value_extra_currencies", err) {
			m.ExtraCurrencies = extra
		}
	}
	amount := func(name string, f jsontext.Soft[wire.Num]) *big.Int {
		if !u.Check(name, f.Err) {
			return nil
		}
		v, err := f.V.OptAmount(name)
		if !u.Check(name, err) {
			return nil
		}
		return v
	}
	m.ExtraFlags = amount("extra_flags", w.ExtraFlags)
	m.FwdFee = amount("fwd_fee", w.FwdFee)
	m.IHRFee = amount("ihr_fee", w.IHRFee)
	if u.Check("created_at", w.CreatedAt.Err) {
		t, err := wire.UnixTime(w.CreatedAt.V, "created_at")
		if u.Check("created_at", err) {
			m.CreatedAt = t
		}
	}
	if u.Check("opcode", w.Opcode.Err) {
		m.Opcode = w.Opcode.V.Ptr()
	}
	if u.Check("decoded_opcode", w.DecodedOpcode.Err) && w.DecodedOpcode.V != nil {
		m.DecodedOpcode = *w.DecodedOpcode.V
	}
	if u.Check("bounce", w.Bounce.Err) {
		m.Bounce = w.Bounce.V != nil && *w.Bounce.V
	}
	if u.Check("bounced", w.Bounced.Err) {
		m.Bounced = w.Bounced.V != nil && *w.Bounced.V
	}
	if u.Check("hash_norm", w.HashNorm.Err) {
		m.HashNorm = Hash(w.HashNorm.V.H)
	}
	if u.Check("body_hash", w.BodyHash.Err) {
		m.BodyHash = Hash(w.BodyHash.V.H)
	}
	u.Check("message", w.Message.Err)
	if d := w.MsgData.V; u.Check("msg_data", w.MsgData.Err) && d != nil {
		m.Body = d.Body
		if d.Type == "msg.dataText" {
			switch {
			case w.Message.V != nil && *w.Message.V != "":
				// The Python server's own decoding of the same text.
				m.Comment, m.HasComment = *w.Message.V, true
			case d.Text != nil:
				text, err := wire.DecodeBase64(*d.Text)
				if err != nil && *d.Text != "" {
					u.Check("msg_data", fmt.Errorf("msg_data text is not base64"))
					break
				}
				m.Comment, m.HasComment = string(text), true
			}
		}
	}
	if c := w.Content.V; u.Check("message_content", w.Content.Err) && c != nil {
		switch {
		case m.BodyHash != (Hash{}) && c.Hash.Set && Hash(c.Hash.H) != m.BodyHash:
			// Two hashes of one body that differ: neither is taken.
			m.BodyHash = Hash{}
			u.Check("message_content", fmt.Errorf("body_hash and message_content.hash differ"))
		default:
			m.Body = c.Body
			if c.Hash.Set {
				m.BodyHash = Hash(c.Hash.H)
			}
			if d := c.Decoded; d != nil && d.Type == "text_comment" && d.Comment != nil {
				m.Comment, m.HasComment = *d.Comment, true
			}
		}
	}
	return m, nil
}

// decodeMessages decodes the in-message and out-messages of a transaction
// (members in_msg and out_msgs; null or absent give nil).
func decodeMessages(in json.RawMessage, outs []json.RawMessage) (*Message, []Message, error) {
	var inMsg *Message
	if t := bytes.TrimSpace(in); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		m, err := decodeMessage(t)
		if err != nil {
			return nil, nil, fmt.Errorf("in_msg: %v", err)
		}
		inMsg = m
	}
	var out []Message
	if outs != nil {
		out = make([]Message, len(outs))
	}
	for i, raw := range outs {
		m, err := decodeMessage(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("out_msgs %d: %v", i, err)
		}
		out[i] = *m
	}
	return inMsg, out, nil
}

// nestedUnread adds the unread members of a transaction's messages to its
// own, each under the message's member name.
func nestedUnread(u *jsontext.Unread, in *Message, outs []Message) {
	if in != nil {
		u.Nested("in_msg", in.Unread)
	}
	for i := range outs {
		u.Nested(fmt.Sprintf("out_msgs[%d]", i), outs[i].Unread)
	}
}

// decodePrevTx reads the previous transaction's lt and hash from v3's
// prev_trans_lt and prev_trans_hash (v2 transactions carry none).
func decodePrevTx(lt wire.Num, hash wire.Hash) (uint64, Hash, error) {
	if !lt.Set {
		return 0, Hash(hash.H), nil
	}
	v, err := lt.Uint64("prev lt")
	if err != nil {
		return 0, Hash{}, err
	}
	return v, Hash(hash.H), nil
}

// itemName names item i of a page in an error: its index and, where the
// entry holds one that reads as text, its hash (a transaction's) or its
// account (a state's), quoted as sent.
func itemName(kind string, i int, raw json.RawMessage) string {
	var id struct {
		Hash    json.RawMessage `json:"hash"`
		Account json.RawMessage `json:"account"`
		Address json.RawMessage `json:"address"`
		TxID    *struct {
			Hash json.RawMessage `json:"hash"`
		} `json:"transaction_id"`
	}
	name := fmt.Sprintf("%s %d", kind, i)
	if json.Unmarshal(raw, &id) != nil {
		return name
	}
	text := func(b json.RawMessage) string {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return ""
		}
		return s
	}
	hash := text(id.Hash)
	if hash == "" && id.TxID != nil {
		hash = text(id.TxID.Hash)
	}
	switch {
	case hash != "":
		return name + " (hash " + transport.Quote(hash) + ")"
	case text(id.Account) != "":
		return name + " (account " + transport.Quote(text(id.Account)) + ")"
	case text(id.Address) != "":
		return name + " (account " + transport.Quote(text(id.Address)) + ")"
	}
	return name
}
