package ton

import (
	"fmt"
	"math/big"
	"strconv"
)

// JettonOp is a jetton operation of TEP-74: the first 32 bits of a jetton
// message's body, as JettonTransfer.Op gives it.
type JettonOp uint32

// The jetton operations ParseJettonTransfer reads.
const (
	// JettonOpTransfer (0x0f8a7ea5, transfer): the owner asks its jetton
	// wallet to send jettons.
	JettonOpTransfer JettonOp = 0x0f8a7ea5
	// JettonOpInternalTransfer (0x178d4519, internal_transfer): a jetton
	// wallet credits another; the message a deposit scanner keys on.
	JettonOpInternalTransfer JettonOp = 0x178d4519
	// JettonOpTransferNotification (0x7362d09c, transfer_notification):
	// the receiver's jetton wallet tells its owner.
	JettonOpTransferNotification JettonOp = 0x7362d09c
)

// String returns the operation's TEP-74 name ("internal_transfer"), or its
// hex for another value ("0x12345678").
func (op JettonOp) String() string {
	switch op {
	case JettonOpTransfer:
		return "transfer"
	case JettonOpInternalTransfer:
		return "internal_transfer"
	case JettonOpTransferNotification:
		return "transfer_notification"
	}
	return fmt.Sprintf("0x%08x", uint32(op))
}

const (
	opJettonTransfer     = JettonOpTransfer
	opJettonInternal     = JettonOpInternalTransfer
	opJettonNotification = JettonOpTransferNotification
	opTextComment        = 0 // a forward payload (or body) holding a text comment
)

// maxSnakeCells bounds the cells a comment may run over: far more than a
// body can carry in a message, and a bound on a crafted chain.
const maxSnakeCells = 64

// JettonTransfer is what the body of a TEP-74 jetton message says, with the
// message's own addresses where the body leaves one out. Message.ParseJettonTransfer
// reads it from the three messages a transfer is made of:
//
//	transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
//	  response_destination:MsgAddress custom_payload:(Maybe ^Cell)
//	  forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
//	internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
//	  response_address:MsgAddress forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
//	transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
//	  forward_payload:(Either Cell ^Cell)
//
// The owner sends transfer to its jetton wallet; that wallet sends
// internal_transfer to the receiver's jetton wallet, which credits the
// amount and, when forward_ton_amount is not zero, sends
// transfer_notification to its owner (the receiver).
//
// A deposit scanner keys on internal_transfer: the message whose
// destination is the receiver's jetton wallet, in a transaction of that
// wallet that did not abort (the notification is optional, and anyone can
// send one). Before trusting a transfer, check that the jetton wallet
// belongs to the jetton master you expect (the master's get_wallet_address
// for the owner gives the wallet's address): anyone can deploy a contract
// that sends these messages, and counterfeit jetton masters exist.
type JettonTransfer struct {
	// Op is the operation: JettonOpTransfer, JettonOpInternalTransfer or
	// JettonOpTransferNotification.
	Op JettonOp
	// QueryID is the query id the sender chose (query_id).
	QueryID uint64
	// Amount is the number of jetton units moved, exactly (VarUInteger 16:
	// up to 120 bits, beyond uint64).
	Amount *big.Int
	// Sender is the owner whose jettons move: the message's source for
	// transfer (the owner sends it), the body's from for internal_transfer
	// and its sender for transfer_notification. A message source the
	// server did not send is the zero MsgAddress.
	Sender MsgAddress
	// Destination is the owner who receives them: the body's destination
	// for transfer, the message's destination for transfer_notification
	// (sent to the receiver). An internal_transfer does not name the
	// receiving owner (it goes to the receiver's jetton wallet, the
	// message's Destination): the zero MsgAddress.
	Destination MsgAddress
	// ResponseDestination receives the TON left over (excesses):
	// response_destination of transfer, response_address of
	// internal_transfer, often addr_none; the zero MsgAddress for
	// transfer_notification, which has none.
	ResponseDestination MsgAddress
	// ForwardAmount is forward_ton_amount in nanotons, exactly: what the
	// receiver's notification carries (0: no notification). Nil for
	// transfer_notification, whose own value is that amount.
	ForwardAmount *big.Int
	// HasCustomPayload is true when a transfer carries a custom_payload
	// (a cell for the jetton wallet, such as a claim of a mintless jetton).
	HasCustomPayload bool
	// HasComment is true when the forward payload is a comment: op 0
	// followed by the comment's bytes, in one cell or over a chain of
	// cells, each continuing in the first reference of the one before
	// (TEP-64's snake format).
	HasComment bool
	// Comment is the text comment when HasComment and the comment is not
	// binary: its bytes as sent (a string holding invalid UTF-8 where the
	// sender wrote it: utf8.ValidString tells).
	Comment string
	// BinaryComment is the comment's bytes after its first byte 0xff, which
	// TEP-74 reserves for a binary comment; nil for a text comment. Comment
	// is then "".
	BinaryComment []byte
}

// MsgAddress is an address in a message body, in any of the four forms of
// TL-B's MsgAddress. Almost every body address is a standard one (Std is
// set); jetton wallets refuse the others as a destination (anycast and
// addr_var since global version 10), but a body may still hold them, and
// addr_none is common as a response destination.
type MsgAddress struct {
	// Form is the TL-B constructor: "addr_none", "addr_std", "addr_extern"
	// or "addr_var"; "" for the zero MsgAddress, which no body holds (the
	// field it fills was not in the message).
	Form string
	// Std is the address of an addr_std without anycast; nil otherwise.
	Std *Address
	// Workchain is the workchain of addr_std (a signed byte) and addr_var
	// (32 bits); 0 for the others.
	Workchain int32
	// Bits holds the address's bits (the 256-bit account id of addr_std,
	// addr_len bits of addr_var, len bits of addr_extern), packed from the
	// high bit of the first byte; BitLen is their number.
	Bits   []byte
	BitLen int
	// Anycast is the rewrite prefix of an anycast address (AnycastBits of
	// them, 1 to 30), nil when the address has none.
	Anycast     []byte
	AnycastBits int
}

// String returns the raw form of a standard address ("0:5b6a…"), the
// constructor name for addr_none, and for the others the constructor, the
// workchain where there is one, the bit length and the bits in hex
// ("addr_extern:8:ab", "addr_var:0:256:a1a2…"), with the anycast prefix
// after the constructor ("addr_std+anycast:4:a"); "" for the zero
// MsgAddress. A bit string of n bits is written as n/4 hex digits, rounded
// up, from its first bit on: when n is not a multiple of 4, the last
// digit's low bits past the string are zero (the 5 bits 10101 are "a8",
// the 1 bit 1 is "8"); the bit length before it says how many count. Only
// the bits Bits and Anycast hold are written.
func (a MsgAddress) String() string {
	if a.Std != nil && a.Anycast == nil {
		return a.Std.Raw()
	}
	s := a.Form
	if a.Anycast != nil {
		s += "+anycast:" + strconv.Itoa(a.AnycastBits) + ":" + bitsHex(a.Anycast, a.AnycastBits)
	}
	switch a.Form {
	case "addr_extern":
		s += ":" + strconv.Itoa(a.BitLen) + ":" + bitsHex(a.Bits, a.BitLen)
	case "addr_std", "addr_var":
		s += ":" + strconv.Itoa(int(a.Workchain)) + ":" + strconv.Itoa(a.BitLen) + ":" + bitsHex(a.Bits, a.BitLen)
	}
	return s
}

// bitsHex writes the first n bits of b (packed from the high bit of the
// first byte) as ceil(n/4) hex digits, the bits past n in the last digit
// zero whatever b holds there. Only the bits b holds are written (a
// hand-made MsgAddress may claim more than it has).
func bitsHex(b []byte, n int) string {
	n = min(n, 8*len(b))
	if n <= 0 {
		return ""
	}
	const digits = "0123456789abcdef"
	out := make([]byte, (n+3)/4)
	for i := range out {
		v := b[i/2] >> (4 * (1 - i%2)) & 0xf
		if rest := n - 4*i; rest < 4 {
			v &= 0xf << (4 - rest) & 0xf
		}
		out[i] = digits[v]
	}
	return string(out)
}

// ParseJettonTransfer reads the message's body as one of the three jetton
// messages JettonTransfer lists. ok is false for any other body, for a
// message without Body (v2 servers send a text comment without its body),
// and for a body that breaks the scheme before its forward payload (a
// field cut short, a custom_payload bit with no reference): no jetton
// wallet acts on such a body, so it moves nothing.
//
// The forward payload is read leniently, as receiving jetton wallets pass
// it on without looking: a body that ends before the Either bit, or whose
// bit says "in a reference" with no reference there, has no payload (no
// comment) and still reads. A payload that is not op 0 followed by whole
// bytes is not a comment; other payloads (a DEX's swap, say) are left in
// Body for a cell library to read.
//
// A nil Message (a transaction with no in-message) is no transfer, so
// tx.InMsg.ParseJettonTransfer() needs no nil check first.
func (m *Message) ParseJettonTransfer() (t JettonTransfer, ok bool) {
	if m == nil || len(m.Body) == 0 {
		return JettonTransfer{}, false
	}
	bag, err := parseBOC(m.Body)
	if err != nil || len(bag.roots) != 1 {
		return JettonTransfer{}, false
	}
	s := bag.slice(bag.roots[0])
	if s.c.exotic {
		return JettonTransfer{}, false
	}
	if t, err = readJetton(&s); err != nil {
		return JettonTransfer{}, false
	}
	switch t.Op {
	case opJettonTransfer:
		t.Sender = messageAddress(m.Source)
	case opJettonNotification:
		t.Destination = messageAddress(m.Destination)
	}
	return t, true
}

// messageAddress is a message's own address as a MsgAddress: the zero
// value when the server did not send it.
func messageAddress(a *Address) MsgAddress {
	if a == nil {
		return MsgAddress{}
	}
	return stdAddress(*a)
}

func stdAddress(a Address) MsgAddress {
	id := a.ID
	return MsgAddress{Form: "addr_std", Std: &a, Workchain: int32(a.Workchain), Bits: id[:], BitLen: 256}
}

// readJetton reads a jetton body from its root slice.
func readJetton(s *cellSlice) (JettonTransfer, error) {
	var t JettonTransfer
	op, err := s.loadUint(32)
	if err != nil {
		return t, err
	}
	t.Op = JettonOp(op)
	switch t.Op {
	case opJettonTransfer, opJettonInternal, opJettonNotification:
	default:
		return t, errBOC
	}
	if t.QueryID, err = s.loadUint(64); err != nil {
		return t, err
	}
	if t.Amount, err = loadCoins(s); err != nil {
		return t, err
	}
	switch t.Op {
	case opJettonTransfer:
		if t.Destination, err = loadMsgAddress(s); err != nil {
			return t, err
		}
		if t.ResponseDestination, err = loadMsgAddress(s); err != nil {
			return t, err
		}
		custom, err := s.loadUint(1)
		if err != nil {
			return t, err
		}
		if custom == 1 {
			if _, err := s.loadRef(); err != nil {
				return t, err
			}
			t.HasCustomPayload = true
		}
	case opJettonInternal:
		if t.Sender, err = loadMsgAddress(s); err != nil {
			return t, err
		}
		if t.ResponseDestination, err = loadMsgAddress(s); err != nil {
			return t, err
		}
	case opJettonNotification:
		if t.Sender, err = loadMsgAddress(s); err != nil {
			return t, err
		}
	}
	if t.Op != opJettonNotification {
		if t.ForwardAmount, err = loadCoins(s); err != nil {
			return t, err
		}
	}
	readForwardPayload(s, &t)
	return t, nil
}

// readForwardPayload reads forward_payload:(Either Cell ^Cell) for a
// comment, leniently (see ParseJettonTransfer).
func readForwardPayload(s *cellSlice, t *JettonTransfer) {
	either, err := s.loadUint(1)
	if err != nil {
		return // no Either bit: no payload
	}
	payload := *s
	if either == 1 {
		if payload, err = s.loadRef(); err != nil || payload.c.exotic {
			return // "in a reference", and none (or a pruned one)
		}
	}
	text, ok := readComment(&payload)
	if !ok {
		return
	}
	t.HasComment = true
	if len(text) > 0 && text[0] == 0xff {
		t.BinaryComment = text[1:]
		return
	}
	t.Comment = string(text)
}

// readComment reads a comment: op 0, then bytes in the snake format, the
// rest of this cell's data and then that of each first reference in turn.
// ok is false when the payload is not op 0 followed by whole bytes.
func readComment(s *cellSlice) ([]byte, bool) {
	if op, err := s.loadUint(32); err != nil || op != opTextComment {
		return nil, false
	}
	var text []byte
	for n := 0; ; n++ {
		if s.bitsLeft()%8 != 0 || n == maxSnakeCells {
			return nil, false
		}
		b, _ := s.loadBits(s.bitsLeft())
		text = append(text, b...)
		if s.refsLeft() == 0 {
			return text, true
		}
		next, _ := s.loadRef()
		if next.c.exotic {
			return nil, false
		}
		*s = next
	}
}

// loadCoins reads VarUInteger 16: a 4-bit byte length, then that many
// bytes of unsigned integer.
func loadCoins(s *cellSlice) (*big.Int, error) {
	n, err := s.loadUint(4)
	if err != nil {
		return nil, err
	}
	b, err := s.loadBits(int(n) * 8)
	if err != nil {
		return nil, err
	}
	return new(big.Int).SetBytes(b), nil
}

// loadMsgAddress reads a MsgAddress:
//
//	addr_none$00
//	addr_extern$01 len:(## 9) external_address:(bits len)
//	addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256
//	addr_var$11 anycast:(Maybe Anycast) addr_len:(## 9) workchain_id:int32 address:(bits addr_len)
//	anycast_info$_ depth:(#<= 30) { depth >= 1 } rewrite_pfx:(bits depth)
func loadMsgAddress(s *cellSlice) (MsgAddress, error) {
	tag, err := s.loadUint(2)
	if err != nil {
		return MsgAddress{}, err
	}
	var a MsgAddress
	switch tag {
	case 0:
		return MsgAddress{Form: "addr_none"}, nil
	case 1:
		a.Form = "addr_extern"
		n, err := s.loadUint(9)
		if err != nil {
			return a, err
		}
		a.BitLen = int(n)
		a.Bits, err = s.loadBits(a.BitLen)
		return a, err
	}
	a.Form = "addr_std"
	if tag == 3 {
		a.Form = "addr_var"
	}
	anycast, err := s.loadUint(1)
	if err != nil {
		return a, err
	}
	if anycast == 1 {
		depth, err := s.loadUint(5)
		if err != nil {
			return a, err
		}
		if depth < 1 || depth > 30 {
			return a, errBOC
		}
		a.AnycastBits = int(depth)
		if a.Anycast, err = s.loadBits(a.AnycastBits); err != nil {
			return a, err
		}
	}
	if tag == 2 {
		wc, err := s.loadUint(8)
		if err != nil {
			return a, err
		}
		a.Workchain, a.BitLen = int32(int8(wc)), 256
		if a.Bits, err = s.loadBits(256); err != nil {
			return a, err
		}
		if a.Anycast == nil {
			std := Address{Workchain: int8(wc)}
			copy(std.ID[:], a.Bits)
			a.Std = &std
		}
		return a, nil
	}
	n, err := s.loadUint(9)
	if err != nil {
		return a, err
	}
	wc, err := s.loadUint(32)
	if err != nil {
		return a, err
	}
	a.Workchain, a.BitLen = int32(uint32(wc)), int(n)
	a.Bits, err = s.loadBits(a.BitLen)
	return a, err
}
