package tontest

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
)

// The two v2 calls of a block's transactions.
const (
	methodExt = "getBlockTransactionsExt" // the transactions
	methodIDs = "getBlockTransactions"    // their ids (blocks.shortTxId)
)

// WithLag makes the server's lite server lag behind the newest blocks, as
// real lite servers do: a block is answered as not in its
// database until d has passed since it was set (by New for the default
// block, by SetBlock for the others), with toncenter's 500
// for it:
//
//	{"ok":false,"error":"LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=39984096: seqno not in db","code":500}
//
// when the request names the block by seqno (the server looks it up), and
// the lite server's own message when it names it by root and file hash:
//
//	{"ok":false,"error":"LITE_SERVER_NOTREADY: block (-1,8000000000000000,39984096) is not in db (last known masterchain block: 39984095)","code":500}
//
// (for a shard block: "… is not in db (possibly out of sync:
// shard_client_seqno=N ls_seqno=N)"), N being the newest masterchain
// block the lite server has. d must be positive.
func WithLag(d time.Duration) Option {
	return Option{func(s *settings) error {
		if d <= 0 {
			return fmt.Errorf("tontest: WithLag: %s is not a lag: want a positive duration", d)
		}
		s.lag = d
		return nil
	}}
}

// blockResult returns the result object of method for q, or the lite
// server's or tonlib's error: the block is unknown, not there yet
// (WithLag), or, for getBlockTransactionsExt, the page holds a transaction
// the server cannot read (Block.Unreadable).
func (s *Server) blockResult(method string, q blockQuery) ([]byte, error) {
	rec := s.data.block(q.ref)
	if rec == nil || q.byHash && !rec.hasHashes(q.rootHash, q.fileHash) {
		// A block named by hashes the lite server does not have is as
		// unknown as a seqno it does not have.
		return nil, notInDB(q.ref, false, 0)
	}
	if s.lag > 0 && time.Since(rec.setAt) < s.lag {
		return nil, notInDB(q.ref, q.byHash, s.newestMasterchain())
	}
	txs, incomplete := rec.page(q)
	b := make([]byte, 0, 256+len(txs)*2048)
	if method == methodIDs {
		b = append(b, `{"@type":"blocks.transactions","id":`...)
	} else {
		for _, tx := range txs {
			if tx.unreadable {
				return nil, errUnreadable
			}
		}
		b = append(b, `{"@type":"blocks.transactionsExt","id":`...)
	}
	b = append(b, rec.idJSON...)
	b = append(b, `,"req_count":`...)
	b = appendInt(b, int64(q.count))
	b = append(b, `,"incomplete":`...)
	b = strconv.AppendBool(b, incomplete)
	b = append(b, `,"transactions":[`...)
	for i, tx := range txs {
		if i > 0 {
			b = append(b, ',')
		}
		if method == methodIDs {
			b = appendShortTxID(b, &tx)
		} else {
			b = append(b, tx.entry...)
		}
	}
	return append(b, "]}"...), nil
}

// appendShortTxID writes a transaction's id as toncenter's
// getBlockTransactions does (the recorded body of block 39984096 in
// ton/testdata): {"@type":"blocks.shortTxId","mode":135,"account":"<raw,
// lower case>","lt":"…","hash":"<base64>"}.
func appendShortTxID(b []byte, tx *txRec) []byte {
	return append(b, renderObject([]member{
		{"@type", jsonString("blocks.shortTxId")},
		{"mode", []byte("135")},
		{"account", jsonString(tx.account.String())},
		{"lt", jsonUintString(tx.lt)},
		{"hash", jsonString(tx.hash.String())},
	}, nil)...)
}

// newestMasterchain is the seqno of the newest masterchain block the
// lagging lite server has (0 when none).
func (s *Server) newestMasterchain() uint32 {
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	var n uint32
	for ref, rec := range s.data.blocks {
		if ref.Workchain == -1 && ref.Seqno > n && time.Since(rec.setAt) >= s.lag {
			n = ref.Seqno
		}
	}
	return n
}

// notInDB is a lite server's answer for a block it does not have
// (unknown, or not yet: WithLag), which toncenter passes on as HTTP 500:
// byHash when the request named the block by root and file hash, known the
// newest masterchain block the lite server has then. By seqno, tonlib's
// lookup fails as in toncenter/ton-http-api issue 136
// ("LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000)
// seqno=2399: seqno not in db"). By hash, the lite server answers as
// ton-blockchain/ton's validator/manager.cpp (ca7d6e45, lines 3161-3176)
// writes it, with tonlib's LITE_SERVER_NOTREADY prefix.
func notInDB(ref ton.BlockRef, byHash bool, known uint32) error {
	var msg string
	switch {
	case !byHash:
		msg = fmt.Sprintf("LITE_SERVER_NOTREADY: cannot find block (%d,%016x) seqno=%d: seqno not in db", ref.Workchain, uint64(ref.Shard), ref.Seqno)
	case ref.Workchain == -1:
		msg = fmt.Sprintf("LITE_SERVER_NOTREADY: block (%d,%016x,%d) is not in db (last known masterchain block: %d)", ref.Workchain, uint64(ref.Shard), ref.Seqno, known)
	default:
		msg = fmt.Sprintf("LITE_SERVER_NOTREADY: block (%d,%016x,%d) is not in db (possibly out of sync: shard_client_seqno=%d ls_seqno=%d)",
			ref.Workchain, uint64(ref.Shard), ref.Seqno, known, known)
	}
	return &failure{status: http.StatusInternalServerError, msg: msg}
}

// errUnreadable is tonlib's failure to convert a transaction of the page,
// which toncenter passes on as HTTP 500, with the message of
// toncenter/ton-http-api issue 183 (ton-blockchain/ton
// tonlib/tonlib/TonlibClient.cpp lines 1177 and 6652).
var errUnreadable error = &failure{status: http.StatusInternalServerError,
	msg: "Error occured while creating tonlib_api::raw_transaction: Failed to unpack balance (2)"}
