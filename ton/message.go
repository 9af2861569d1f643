package ton

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"time"

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
	Source          wire.MsgAddr `json:"source"`
	Destination     wire.MsgAddr `json:"destination"`
	Value           wire.Num     `json:"value"`
	ExtraCurrencies wire.Extra   `json:"extra_currencies"`
	ValueExtra      wire.Extra   `json:"value_extra_currencies"`
	FwdFee          wire.Num     `json:"fwd_fee"`
	IHRFee          wire.Num     `json:"ihr_fee"`
	ExtraFlags      wire.Num     `json:"extra_flags"`
	CreatedLt       wire.Num     `json:"created_lt"`
	CreatedAt       wire.Num     `json:"created_at"`
	Opcode          wire.Opcode  `json:"opcode"`
	DecodedOpcode   *string      `json:"decoded_opcode"`
	Bounce          *bool        `json:"bounce"`
	Bounced         *bool        `json:"bounced"`
	Hash            wire.Hash    `json:"hash"`
	HashNorm        wire.Hash    `json:"hash_norm"`
	BodyHash        wire.Hash    `json:"body_hash"`
	Message         *string      `json:"message"`
	MsgData         *struct {
		Type string   `json:"@type"`
		Text *string  `json:"text"`
		Body wire.BOC `json:"body"`
	} `json:"msg_data"`
	Content *struct {
		Hash    wire.Hash `json:"hash"`
		Body    wire.BOC  `json:"body"`
		Decoded *struct {
			Type    string  `json:"type"`
			Comment *string `json:"comment"`
		} `json:"decoded"`
	} `json:"message_content"`
}

// decodeMessage decodes one message in any shape Message lists.
func decodeMessage(raw json.RawMessage) (*Message, error) {
	var w wireMessage
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	m := &Message{Source: addrPtr(w.Source), Destination: addrPtr(w.Destination), Hash: Hash(w.Hash.H), HashNorm: Hash(w.HashNorm.H),
		BodyHash: Hash(w.BodyHash.H), Opcode: w.Opcode.Ptr(), Raw: raw}
	if w.DecodedOpcode != nil {
		m.DecodedOpcode = *w.DecodedOpcode
	}
	var err error
	if m.Value, err = w.Value.OptAmount("value"); err != nil {
		return nil, err
	}
	if m.ExtraCurrencies, err = wire.PickExtra(w.ExtraCurrencies, w.ValueExtra); err != nil {
		return nil, err
	}
	if m.ExtraFlags, err = w.ExtraFlags.OptAmount("extra_flags"); err != nil {
		return nil, err
	}
	if m.FwdFee, err = w.FwdFee.OptAmount("fwd_fee"); err != nil {
		return nil, err
	}
	if m.IHRFee, err = w.IHRFee.OptAmount("ihr_fee"); err != nil {
		return nil, err
	}
	if w.CreatedLt.Set {
		if m.CreatedLt, err = w.CreatedLt.Uint64("created_lt"); err != nil {
			return nil, err
		}
	}
	if m.CreatedAt, err = wire.UnixTime(w.CreatedAt, "created_at"); err != nil {
		return nil, err
	}
	m.Bounce = w.Bounce != nil && *w.Bounce
	m.Bounced = w.Bounced != nil && *w.Bounced
	if d := w.MsgData; d != nil {
		m.Body = d.Body
		if d.Type == "msg.dataText" {
			switch {
			case w.Message != nil && *w.Message != "":
				// The Python server's own decoding of the same text.
				m.Comment, m.HasComment = *w.Message, true
			case d.Text != nil:
				text, err := wire.DecodeBase64(*d.Text)
				if err != nil && *d.Text != "" {
					return nil, fmt.Errorf("msg_data text is not base64")
				}
				m.Comment, m.HasComment = string(text), true
			}
		}
	}
	if c := w.Content; c != nil {
		m.Body = c.Body
		if m.BodyHash != (Hash{}) && c.Hash.Set && Hash(c.Hash.H) != m.BodyHash {
			return nil, fmt.Errorf("body_hash and message_content.hash differ")
		}
		if c.Hash.Set {
			m.BodyHash = Hash(c.Hash.H)
		}
		if d := c.Decoded; d != nil && d.Type == "text_comment" && d.Comment != nil {
			m.Comment, m.HasComment = *d.Comment, true
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
