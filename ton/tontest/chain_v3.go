package tontest

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
)

// chainRound is what a masterchain block commits, as the indexer serves
// it: the shard blocks and the masterchain block itself (last), and when
// it was made (WithLag holds it back as it does the lite server's blocks).
type chainRound struct {
	blocks []Block
	at     time.Time
}

// The v3 methods of the chain (WithChain), as the indexer serves them.
const (
	methodV3Info   = "masterchainInfo"
	methodV3Blocks = "masterchainBlockShards"
	methodV3Txs    = "transactionsByMasterchainBlock"
	methodV3ByLT   = "transactions"
)

// serveChainV3 answers GET /{key}/api/v3/<method> for the chain's indexer
// methods.
func (s *Server) serveChainV3(method string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		var err error
		switch method {
		case methodV3Info:
			body = s.v3Info()
		case methodV3Blocks:
			body, err = s.v3Blocks(r.URL.Query())
		case methodV3ByLT:
			body, err = s.v3TransactionsByLT(r.URL.Query())
		default:
			body, err = s.v3Transactions(r.URL.Query())
		}
		if err != nil {
			writeV3Failure(w, err)
			return
		}
		writeJSON(w, body)
	}
}

// indexed returns the rounds the indexer has: all but those WithLag still
// holds back. The rounds are never modified once made.
func (s *Server) indexed() []chainRound {
	c := s.chain
	c.mu.Lock()
	rounds := c.rounds
	c.mu.Unlock()
	for len(rounds) > 1 && s.lag > 0 && time.Since(rounds[len(rounds)-1].at) < s.lag {
		rounds = rounds[:len(rounds)-1]
	}
	return rounds
}

// v3Info is masterchainInfo: {"last":…,"first":…} as v3 blocks.
func (s *Server) v3Info() []byte {
	rounds := s.indexed()
	last := rounds[len(rounds)-1].blocks
	first := rounds[min(1, len(rounds)-1)].blocks
	b := []byte(`{"last":`)
	b = append(b, s.renderV3Block(last[len(last)-1], uint32(len(rounds)-1))...)
	b = append(b, `,"first":`...)
	b = append(b, s.renderV3Block(first[len(first)-1], 1)...)
	return append(b, '}')
}

// roundParam reads the seqno parameter: the round, or nil when the indexer
// does not have it (yet).
func (s *Server) roundParam(q url.Values) (*chainRound, uint32, error) {
	v := q.Get("seqno")
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return nil, 0, conversionError("seqno")
	}
	rounds := s.indexed()
	if n == 0 || n >= uint64(len(rounds)) {
		return nil, uint32(n), nil
	}
	return &rounds[n], uint32(n), nil
}

// v3Blocks is masterchainBlockShards: every block of the round, the
// masterchain block among them, in the order they were made; for a round
// the indexer does not have, its 404 {"error":"blocks not found"}.
func (s *Server) v3Blocks(q url.Values) ([]byte, error) {
	round, seqno, err := s.roundParam(q)
	if err != nil {
		return nil, err
	}
	if round == nil {
		return nil, &failure{status: http.StatusNotFound, msg: "blocks not found"}
	}
	b := []byte(`{"blocks":[`)
	for i, blk := range round.blocks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, s.renderV3Block(blk, seqno)...)
	}
	return append(b, "]}"...), nil
}

// v3Entry is a transaction of the chain with its block and round.
type v3Entry struct {
	tx  *ton.BlockTransaction
	ref ton.BlockRef
	mc  uint32
}

// appendRound adds the transactions of round seqno to all.
func appendRound(all []v3Entry, round *chainRound, seqno uint32) []v3Entry {
	for i := range round.blocks {
		blk := &round.blocks[i]
		for j := range blk.Transactions {
			all = append(all, v3Entry{&blk.Transactions[j], blk.ID.BlockRef, seqno})
		}
	}
	return all
}

// v3Sort reads sort (desc unless asc).
func v3Sort(q url.Values) (desc bool, err error) {
	switch q.Get("sort") {
	case "", "desc":
		return true, nil
	case "asc":
		return false, nil
	}
	return false, unprocessable("sort must be asc or desc")
}

// v3TxPage orders transactions by logical time (then account and hash,
// which the indexer's order leaves open), oldest first unless desc, and
// renders the window of limit from offset as a transactions answer.
func v3TxPage(all []v3Entry, desc bool, limit, offset int) []byte {
	slices.SortFunc(all, func(a, b v3Entry) int {
		c := cmp.Or(cmp.Compare(a.tx.LT, b.tx.LT), bytes.Compare(a.tx.Account.ID[:], b.tx.Account.ID[:]), bytes.Compare(a.tx.Hash[:], b.tx.Hash[:]))
		if desc {
			return -c
		}
		return c
	})
	b := []byte(`{"transactions":[`)
	for i, e := range window(all, limit, offset) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, renderV3Tx(e.tx, e.ref, e.mc)...)
	}
	return append(b, `],"address_book":{}}`...)
}

// v3Transactions is transactionsByMasterchainBlock: the round's
// transactions by logical time, oldest first with sort=asc, then offset
// and limit; an empty list for a round the indexer does not have.
func (s *Server) v3Transactions(q url.Values) ([]byte, error) {
	limit, offset, err := s.parsePage(q)
	if err != nil {
		return nil, err
	}
	desc, err := v3Sort(q)
	if err != nil {
		return nil, err
	}
	round, seqno, err := s.roundParam(q)
	if err != nil {
		return nil, err
	}
	var all []v3Entry
	if round != nil {
		all = appendRound(all, round, seqno)
	}
	return v3TxPage(all, desc, limit, offset), nil
}

// v3TransactionsByLT is transactions with start_lt and end_lt: the
// indexed transactions of every round with start_lt <= lt <= end_lt
// (either bound optional), by logical time, then offset and limit.
func (s *Server) v3TransactionsByLT(q url.Values) ([]byte, error) {
	limit, offset, err := s.parsePage(q)
	if err != nil {
		return nil, err
	}
	desc, err := v3Sort(q)
	if err != nil {
		return nil, err
	}
	lo, hi := uint64(0), uint64(math.MaxUint64)
	for _, p := range []struct {
		name string
		to   *uint64
	}{{"start_lt", &lo}, {"end_lt", &hi}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return nil, conversionError(p.name)
			}
			*p.to = n
		}
	}
	rounds := s.indexed()
	var all []v3Entry
	for n := 1; n < len(rounds); n++ {
		for _, e := range appendRound(nil, &rounds[n], uint32(n)) {
			if e.tx.LT >= lo && e.tx.LT <= hi {
				all = append(all, e)
			}
		}
	}
	return v3TxPage(all, desc, limit, offset), nil
}

// v3Shard is the indexer's form of a shard id: 16 hex digits.
func v3Shard(s ton.ShardID) []byte {
	return jsonString(strings.ToUpper(fmt.Sprintf("%016x", uint64(s))))
}

// renderV3Block writes a block as the indexer's Block.
func (s *Server) renderV3Block(b Block, mc uint32) []byte {
	s.chain.mu.Lock()
	h := s.chain.headers[b.ID.BlockRef]
	s.chain.mu.Unlock()
	flag := func(v bool) []byte { return strconv.AppendBool(nil, v) }
	return renderObject([]member{
		{"workchain", appendInt(nil, int64(b.ID.Workchain))},
		{"shard", v3Shard(b.ID.Shard)},
		{"seqno", jsonUint(uint64(b.ID.Seqno))},
		{"root_hash", jsonString(b.ID.RootHash.String())},
		{"file_hash", jsonString(b.ID.FileHash.String())},
		{"mc_block_seqno", jsonUint(uint64(mc))},
		{"gen_utime", jsonUintString(uint64(h.utime))},
		{"start_lt", jsonUintString(h.startLT)},
		{"end_lt", jsonUintString(h.endLT)},
		{"after_merge", flag(h.afterMerge)},
		{"after_split", flag(h.afterSplit)},
		{"before_split", flag(h.beforeSplit)},
		{"tx_count", jsonUint(uint64(len(b.Transactions)))},
	}, nil)
}

// renderV3Tx writes a transaction of the chain as the indexer's
// Transaction.
func renderV3Tx(tx *ton.BlockTransaction, ref ton.BlockRef, mc uint32) []byte {
	ms := []member{
		{"account", jsonString(rawUpper(tx.Account))},
		{"hash", jsonString(tx.Hash.String())},
		{"lt", jsonUintString(tx.LT)},
		{"now", appendInt(nil, tx.Time.Unix())},
		{"mc_block_seqno", jsonUint(uint64(mc))},
		{"orig_status", jsonString("active")},
		{"end_status", jsonString("active")},
	}
	if tx.Fee != nil {
		ms = append(ms, member{"total_fees", jsonAmount(tx.Fee)})
	}
	ms = append(ms, member{"block_ref", renderObject([]member{
		{"workchain", appendInt(nil, int64(ref.Workchain))},
		{"shard", v3Shard(ref.Shard)},
		{"seqno", jsonUint(uint64(ref.Seqno))},
	}, nil)})
	in := []byte("null")
	if tx.InMsg != nil {
		in = renderV3Message(tx.InMsg)
	}
	outs := []byte{'['}
	for i := range tx.OutMsgs {
		if i > 0 {
			outs = append(outs, ',')
		}
		outs = append(outs, renderV3Message(&tx.OutMsgs[i])...)
	}
	outs = append(outs, ']')
	return renderObject(append(ms, member{"in_msg", in}, member{"out_msgs", outs}), nil)
}

// renderV3Message writes a message as the indexer's Message: raw
// addresses (null for none), the body in message_content, a text comment
// decoded there too.
func renderV3Message(m *ton.Message) []byte {
	addr := func(a *ton.Address) []byte {
		if a == nil {
			return []byte("null")
		}
		return jsonString(rawUpper(*a))
	}
	content := []member{}
	if m.BodyHash != (ton.Hash{}) {
		content = append(content, member{"hash", jsonHash(m.BodyHash)})
	}
	if m.Body != nil {
		content = append(content, member{"body", jsonString(base64.StdEncoding.EncodeToString(m.Body))})
	}
	decoded := []byte("null")
	if m.HasComment {
		decoded = renderObject([]member{{"type", jsonString("text_comment")}, {"comment", jsonString(m.Comment)}}, nil)
	}
	content = append(content, member{"decoded", decoded})
	ms := []member{}
	if m.Hash != (ton.Hash{}) {
		ms = append(ms, member{"hash", jsonHash(m.Hash)})
	}
	return renderObject(append(ms,
		member{"source", addr(m.Source)},
		member{"destination", addr(m.Destination)},
		member{"value", jsonAmount(m.Value)},
		member{"fwd_fee", jsonAmount(m.FwdFee)},
		member{"ihr_fee", jsonAmount(m.IHRFee)},
		member{"created_lt", jsonUintString(m.CreatedLt)},
		member{"message_content", renderObject(content, nil)},
	), nil)
}
