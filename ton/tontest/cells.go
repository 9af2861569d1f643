package tontest

import (
	"math/big"

	"github.com/nodeaccess/nodeaccess/ton"
)

// cellBuilder builds one cell of a message body: data bits and references,
// as TL-B lays them out. It is the writing side of what the ton package
// reads, kept to what the chain's jetton bodies need.
type cellBuilder struct {
	data []byte
	bits int
	refs []*cellBuilder
}

// uint appends the n low bits of v, high bit first.
func (c *cellBuilder) uint(v uint64, n int) *cellBuilder {
	for i := n - 1; i >= 0; i-- {
		c.bit(v>>uint(i)&1 == 1)
	}
	return c
}

func (c *cellBuilder) bit(one bool) {
	if c.bits%8 == 0 {
		c.data = append(c.data, 0)
	}
	if one {
		c.data[c.bits/8] |= 0x80 >> (c.bits % 8)
	}
	c.bits++
}

func (c *cellBuilder) bytes(b []byte) *cellBuilder {
	for _, x := range b {
		c.uint(uint64(x), 8)
	}
	return c
}

// coins appends VarUInteger 16: the byte length in 4 bits, then the bytes.
func (c *cellBuilder) coins(v *big.Int) *cellBuilder {
	b := v.Bytes()
	c.uint(uint64(len(b)), 4)
	return c.bytes(b)
}

// addrStd appends addr_std$10 without anycast: workchain (int8), account id.
func (c *cellBuilder) addrStd(a ton.Address) *cellBuilder {
	c.uint(2, 2).uint(0, 1).uint(uint64(uint8(a.Workchain)), 8)
	return c.bytes(a.ID[:])
}

func (c *cellBuilder) ref(r *cellBuilder) *cellBuilder {
	c.refs = append(c.refs, r)
	return c
}

// comment returns a forward payload cell holding a text comment: op 0 and
// the text, continuing in a first reference (the snake format) when it
// does not fit one cell.
func comment(text string) *cellBuilder {
	c := new(cellBuilder).uint(0, 32)
	head, rest := []byte(text), []byte(nil)
	if len(head) > 123 { // 1023 bits: 32 for the op, 123 whole bytes
		head, rest = head[:123], head[123:]
	}
	c.bytes(head)
	for cur := c; len(rest) > 0; {
		n := min(len(rest), 127)
		next := new(cellBuilder).bytes(rest[:n])
		cur.ref(next)
		cur, rest = next, rest[n:]
	}
	return c
}

// boc serialises the tree under root as a bag of cells: the generic form,
// one root, no index, no CRC, cells in depth-first order (each reference to
// a later cell), one byte per reference (the chain's bodies have few cells).
func (c *cellBuilder) boc() []byte {
	var order []*cellBuilder
	var visit func(*cellBuilder)
	visit = func(x *cellBuilder) {
		order = append(order, x)
		for _, r := range x.refs {
			visit(r)
		}
	}
	visit(c)
	index := make(map[*cellBuilder]int, len(order))
	for i, x := range order {
		index[x] = i
	}
	var cells []byte
	for _, x := range order {
		d2 := byte(x.bits/8 + (x.bits+7)/8)
		cells = append(cells, byte(len(x.refs)), d2)
		data := append([]byte(nil), x.data...)
		if x.bits%8 != 0 {
			data[len(data)-1] |= 0x80 >> (x.bits % 8) // the completion tag
		}
		cells = append(cells, data...)
		for _, r := range x.refs {
			cells = append(cells, byte(index[r]))
		}
	}
	out := []byte{0xb5, 0xee, 0x9c, 0x72, 0x01, 0x02, byte(len(order)), 1, 0}
	out = append(out, byte(len(cells)>>8), byte(len(cells)), 0)
	return append(out, cells...)
}

// jettonInternalTransfer is the body of a TEP-74 internal_transfer from the
// owner from, with a text comment in a reference when text is not "".
func jettonInternalTransfer(queryID uint64, amount *big.Int, from, response ton.Address, forward *big.Int, text string) []byte {
	c := new(cellBuilder).uint(0x178d4519, 32).uint(queryID, 64).coins(amount).addrStd(from).addrStd(response).coins(forward)
	if text == "" {
		c.uint(0, 1)
	} else {
		c.uint(1, 1).ref(comment(text))
	}
	return c.boc()
}

// jettonNotification is the body of a TEP-74 transfer_notification for
// sender's transfer, with the comment inline (Either's left).
func jettonNotification(queryID uint64, amount *big.Int, sender ton.Address, text string) []byte {
	c := new(cellBuilder).uint(0x7362d09c, 32).uint(queryID, 64).coins(amount).addrStd(sender)
	if text == "" {
		c.uint(0, 1)
	} else {
		c.uint(0, 1).uint(0, 32).bytes([]byte(text))
	}
	return c.boc()
}
