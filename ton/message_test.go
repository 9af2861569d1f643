package ton_test

import (
	"context"
	"encoding/json"
	"math/big"
	"net/url"
	"testing"
	"time"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	v2TutorialFixture = "v2_getTransactions_toncenter_wallet_tutorial.json"
	v3CommentFixture  = "v3_transactions_crosschain_comment.json"
)

func nano(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

func opcode(v uint32) *uint32 { return &v }

func addrPtr(s string) *ton.Address {
	a := mustAddress(s)
	return &a
}

func hashOf(t *testing.T, s string) ton.Hash {
	t.Helper()
	h, err := ton.ParseHash(s)
	require.NoError(t, err)
	return h
}

// untyped clears what a comparison of typed values leaves out.
func untyped(m ton.Message) ton.Message {
	m.Raw, m.Body = nil, nil
	return m
}

// The v2 tonlib shape as getTransactions sends it (real body): an external
// in-message (source ""), its base64 cell data in "message" (not a comment),
// and an out-message whose text comment toncenter decoded (msg.dataText).
func TestMessagesV2GetTransactionsShape(t *testing.T) {
	var body struct {
		Result []json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal(testdata(t, v2TutorialFixture), &body))
	require.Len(t, body.Result, 1)
	tx, err := ton.DecodeBlockTransaction(body.Result[0])
	require.NoError(t, err)

	assert.Equal(t, mustAddress("EQCQCLTvR0XYTyM0uxh_H8kLAR7u7v98pEKZKpbq8w2peuNY"), tx.Account)
	assert.Equal(t, uint64(46761157000001), tx.LT)
	assert.Equal(t, time.Unix(1716870040, 0).UTC(), tx.Time)
	assert.Equal(t, nano("2737656"), tx.Fee)
	assert.Equal(t, nano("56"), tx.StorageFee)
	assert.Equal(t, nano("2737600"), tx.OtherFee)
	assert.Zero(t, tx.PrevTransactionLT, "v2 names no previous transaction per transaction")
	assert.True(t, tx.PrevTransactionHash == (ton.Hash{}))

	in := tx.InMsg
	require.NotNil(t, in)
	assert.Nil(t, in.Source, "external in-message: no source")
	assert.Nil(t, in.Source, "an external in-message")
	assert.Equal(t, addrPtr("EQCQCLTvR0XYTyM0uxh_H8kLAR7u7v98pEKZKpbq8w2peuNY"), in.Destination)
	assert.Equal(t, nano("0"), in.Value)
	assert.Equal(t, hashOf(t, "R0b8n0d8Al9UGCTrc4qTq/yULwrLfwWHQfqSa5heenw="), in.BodyHash)
	assert.False(t, in.HasComment, "msg.dataRaw: the \"message\" member is base64 cell data, not a comment")
	assert.Empty(t, in.Comment)
	require.NotEmpty(t, in.Body)
	assert.Equal(t, []byte{0xb5, 0xee, 0x9c, 0x72}, in.Body[:4], "body is a bag of cells")

	require.Len(t, tx.OutMsgs, 1)
	assert.Equal(t, ton.Message{
		Source:      addrPtr("EQCQCLTvR0XYTyM0uxh_H8kLAR7u7v98pEKZKpbq8w2peuNY"),
		Destination: addrPtr("EQAUAHcUab66DpOV2GaT_QDuSagpMdIn0x6aMmO3_fPVMyD8"),
		Value:       nano("100000000"),
		FwdFee:      nano("306136"),
		IHRFee:      nano("0"),
		CreatedLt:   46761157000002,
		BodyHash:    hashOf(t, "oVvmxCMChT1Hm7a89lTZPTmVNlFBkPGvdJezX0j+px0="),
		HasComment:  true,
		Comment:     "11",
	}, untyped(tx.OutMsgs[0]))
	assert.JSONEq(t, string(tx.OutMsgs[0].Raw), string(mustMember(t, body.Result[0], "out_msgs", 0)))
}

// The v2 tonlib shape as getBlockTransactionsExt sends it (real body):
// addresses as accountAddress objects, no in-message on tick-tock
// transactions.
func TestMessagesV2BlockShape(t *testing.T) {
	c := gockClient(t)
	mockGET(t, pathBlock, mcQuery, 200, string(testdata(t, blockFixture)))
	got, err := c.BlockTransactions(context.Background(), mcBlockQuery())
	require.NoError(t, err)
	require.Len(t, got.Transactions, 3)

	assert.Nil(t, got.Transactions[0].InMsg, "tick-tock: no in_msg")
	assert.Equal(t, []ton.Message{}, got.Transactions[0].OutMsgs)
	in := got.Transactions[1].InMsg
	require.NotNil(t, in)
	assert.Equal(t, ton.Message{
		Source:      addrPtr("Ef8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADAU"),
		Destination: addrPtr("-1:3333333333333333333333333333333333333333333333333333333333333333"),
		Value:       nano("29165187604"),
		FwdFee:      nano("0"),
		IHRFee:      nano("0"),
		CreatedLt:   48756940000000,
		BodyHash:    hashOf(t, "lqKW0iTyhcZ77pPDD4owkVfw2qNdxbh+QQt4YwoJz8c="),
	}, untyped(*in))
	assert.NotEmpty(t, in.Body)
}

// The v3 indexer's shape (real body): an external in-message with null
// source and value, an out-message whose comment the indexer decoded, the
// previous transaction, total_fees.
func TestMessagesV3Shape(t *testing.T) {
	c := gockClient(t)
	acct := "0:237E5119FFA2A028CC4F95C9CA37566852F1DD4D3EA15704D6F791065507DE4A"
	mockGET(t, pathPending, "account="+url.QueryEscape(mustAddress(acct).Raw()), 200, string(testdata(t, v3CommentFixture)))
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acct}})
	require.NoError(t, err)
	require.Len(t, page.Transactions, 1)
	tx := page.Transactions[0]

	assert.Equal(t, uint64(23688590000001), tx.PrevTransactionLT)
	assert.Equal(t, hashOf(t, "A2KdHQ6PD7mcRfmWKIoiPNFFooBCzLOCFXoj+4hAjh0="), tx.PrevTransactionHash)
	assert.Equal(t, nano("1960116"), tx.TotalFees)
	require.NotNil(t, tx.InMsg)
	assert.Equal(t, ton.Message{
		Destination: addrPtr(acct),
		Hash:        hashOf(t, "WkQx6xKpNhRBMMfHXykhcPknSc8IuNclmCEXFBily+8="),
		BodyHash:    hashOf(t, "pSgu2pfIEFeWo31xHfheCFt4EG+mSA2vEvMSq/K/PXo="),
		Opcode:      opcode(0x3235ff9b),
	}, untyped(*tx.InMsg), "external in: no source, no value, no created time")
	require.Len(t, tx.OutMsgs, 1)
	out := tx.OutMsgs[0]
	assert.Equal(t, ton.Message{
		Source:      addrPtr(acct),
		Destination: addrPtr("0:A1A2DCA202D48FAACD016CF0FCE75332B3DFCB74C54CECDF9AB6C158BD431CE3"),
		Value:       nano("22000000"),
		FwdFee:      nano("266669"),
		IHRFee:      nano("0"),
		CreatedLt:   23692407000002,
		CreatedAt:   time.Unix(1721063820, 0).UTC(),
		Hash:        hashOf(t, "XexvuJ+FOdF7mNAC0/zjXEtrwO6Kh+XRlTa+FinuLuI="),
		BodyHash:    hashOf(t, "JwaRlXkBSbE/FgE1Cic6QMP4p4grFvQ05deNWMgRx2E="),
		Opcode:      opcode(0),
		HasComment:  true,
		Comment:     "hii",
	}, untyped(out))
	// The body is the op-0 comment cell: 32 zero bits, then "hii".
	assert.Contains(t, string(out.Body), "\x00\x00\x00\x00hii")

	// The same v3 transaction read as a block entry types the same way.
	var body struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	require.NoError(t, json.Unmarshal(testdata(t, v3CommentFixture), &body))
	bt, err := ton.DecodeBlockTransaction(body.Transactions[0])
	require.NoError(t, err)
	assert.Equal(t, tx.InMsg, bt.InMsg)
	assert.Equal(t, tx.OutMsgs, bt.OutMsgs)
	assert.Equal(t, tx.PrevTransactionLT, bt.PrevTransactionLT)
	assert.Equal(t, tx.PrevTransactionHash, bt.PrevTransactionHash)
	assert.Equal(t, nano("1960116"), bt.Fee, "v3 total_fees is the fee")
}

// The axelar v3 body (real): an in-message with bounce set, and an
// external out-message (destination and value null).
func TestMessagesV3BounceAndExternalOut(t *testing.T) {
	c := gockClient(t)
	acct := "0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A"
	mockGET(t, pathPending, "account="+url.QueryEscape(mustAddress(acct).Raw()), 200, string(testdata(t, v3TxFixture)))
	page, err := c.PendingTransactions(context.Background(), ton.PendingTransactionsQuery{Accounts: []string{acct}})
	require.NoError(t, err)
	tx := page.Transactions[0]
	require.NotNil(t, tx.InMsg)
	assert.True(t, tx.InMsg.Bounce)
	assert.False(t, tx.InMsg.Bounced)
	assert.Equal(t, addrPtr("0:898AD13C059F2A3A69576A010C41AF239B487BC555EABEB9A5894DEB11299330"), tx.InMsg.Source)
	assert.Equal(t, nano("98993600"), tx.InMsg.Value)
	assert.Equal(t, nano("670939"), tx.InMsg.FwdFee)
	assert.Equal(t, time.Unix(1751972976, 0).UTC(), tx.InMsg.CreatedAt)
	assert.False(t, tx.InMsg.HasComment, "decoded is null")
	assert.Equal(t, uint64(36552848000003), tx.PrevTransactionLT)
	assert.Equal(t, hashOf(t, "BoNe1HOkg+5k8XGGuY5iRcuz8Nwkc5rxT7NuM/vDP/E="), tx.PrevTransactionHash)

	require.Len(t, tx.OutMsgs, 2)
	ext := tx.OutMsgs[0]
	assert.Nil(t, ext.Destination)
	assert.Nil(t, ext.Destination, "an external out-message")
	assert.Nil(t, ext.Value)
	assert.Equal(t, uint64(36582626000004), ext.CreatedLt)
	assert.NotNil(t, tx.OutMsgs[1].Destination)
	assert.Equal(t, nano("93402800"), tx.OutMsgs[1].Value)
}

// The same message in the three shapes decodes to the same typed values.
// Hand-written: the v3 out-message of the crosschain body (real), and the
// same message spelt as tonlib's raw.message (v2) with the comment as
// msg.dataText, with and without the Python server's "message".
func TestMessageShapesAgree(t *testing.T) {
	const (
		src = "0:237E5119FFA2A028CC4F95C9CA37566852F1DD4D3EA15704D6F791065507DE4A"
		dst = "0:A1A2DCA202D48FAACD016CF0FCE75332B3DFCB74C54CECDF9AB6C158BD431CE3"
	)
	v3 := `{"source":"` + src + `","destination":"` + dst + `","value":"22000000","fwd_fee":"266669","ihr_fee":"0","created_lt":"23692407000002","bounce":false,"bounced":false,"message_content":{"hash":"JwaRlXkBSbE/FgE1Cic6QMP4p4grFvQ05deNWMgRx2E=","body":"te6cckEBAQEACQAADgAAAABoaWne1AAn","decoded":{"type":"text_comment","comment":"hii"}}}`
	v2 := `{"@type":"raw.message","source":{"@type":"accountAddress","account_address":"` + mustAddress(src).Friendly(true, true).String() + `"},"destination":"` + mustAddress(dst).Friendly(false, true).String() + `","value":22000000,"fwd_fee":"266669","ihr_fee":"0","created_lt":"23692407000002","body_hash":"JwaRlXkBSbE/FgE1Cic6QMP4p4grFvQ05deNWMgRx2E=","msg_data":{"@type":"msg.dataText","text":"aGlp"}}`
	v2py := v2[:len(v2)-1] + `,"message":"hii"}`
	var want *ton.Message
	for _, body := range []string{v3, v2, v2py} {
		m, err := ton.DecodeMessage([]byte(body))
		require.NoError(t, err, body)
		m.Raw, m.Body = nil, nil
		if want == nil {
			want = m
			assert.Equal(t, "hii", m.Comment)
			continue
		}
		assert.Equal(t, want, m, body)
	}
}

func TestMessageBadValues(t *testing.T) {
	// A load-bearing member (source, destination, value, hash,
	// created_lt) that cannot be read is an error.
	for body, want := range map[string]string{
		`{"value":"-1"}`:                        `value "-1" is not a non-negative amount`,
		`{"value":"` + string(make40()) + `"}`:  `is not a non-negative amount`,
		`{"created_lt":"18446744073709551616"}`: `created_lt "18446744073709551616" is not an unsigned 64-bit integer`,
		`{"source":"nope"}`:                     `"nope"`,
		`{"source":{"account_address":7}}`:      `address is not a string`,
	} {
		_, err := ton.DecodeMessage([]byte(body))
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want, body)
	}
	// A secondary one is named in Unread, its field left as when not sent.
	for body, want := range map[string]string{
		`{"fwd_fee":"1.5"}`: "fwd_fee",
		`{"ihr_fee":"1e3"}`: "ihr_fee",
		`{"msg_data":{"@type":"msg.dataText","text":"*"}}`: "msg_data",
		`{"body_hash":"JwaRlXkBSbE/FgE1Cic6QMP4p4grFvQ05deNWMgRx2E=","message_content":{"hash":"pSgu2pfIEFeWo31xHfheCFt4EG+mSA2vEvMSq/K/PXo="}}`: "message_content",
	} {
		m, err := ton.DecodeMessage([]byte(body))
		require.NoError(t, err, body)
		assert.Equal(t, []string{want}, m.Unread, body)
		assert.Nil(t, m.FwdFee, body)
		assert.Nil(t, m.IHRFee, body)
		assert.False(t, m.HasComment, body)
		assert.Equal(t, ton.Hash{}, m.BodyHash, body)
		assert.JSONEq(t, body, string(m.Raw), body)
	}
}

func make40() []byte {
	b := make([]byte, 41)
	for i := range b {
		b[i] = '9'
	}
	return b
}

// mustMember returns raw[name][i].
func mustMember(t *testing.T, raw json.RawMessage, name string, i int) json.RawMessage {
	t.Helper()
	var o map[string][]json.RawMessage
	var all map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &all))
	require.NoError(t, json.Unmarshal([]byte(`{"x":`+string(all[name])+`}`), &o))
	return o["x"][i]
}

// A bounce (the value coming back from a failed delivery) sets Bounced.
// Hand-written: no real body with "bounced": true was found; the members
// are the v3 indexer's, the values those of the axelar in-message.
func TestMessageBounced(t *testing.T) {
	m, err := ton.DecodeMessage([]byte(`{"source":"0:00194AAD8E422BEDF43FEE746D6D929D369DBAB25468A69D513706EA6978B63A","destination":"0:898AD13C059F2A3A69576A010C41AF239B487BC555EABEB9A5894DEB11299330","value":"98322661","fwd_fee":"266669","ihr_fee":"0","created_lt":"36582626000006","created_at":"1751972976","bounce":false,"bounced":true,"message_content":{"hash":"o7V4cZZJdfDYiGUOySLXQiP8zq9cSASvIlmbO/ucJzI=","body":"te6cckEBAQEAAgAAAEysuc0=","decoded":null}}`))
	require.NoError(t, err)
	assert.True(t, m.Bounced)
	assert.False(t, m.Bounce)
	assert.Equal(t, nano("98322661"), m.Value)
	assert.False(t, m.HasComment)
}

// The C++ server's getBlockTransactionsExt entry (raw.transactionExt, its
// messages raw.message with hash and extra_currencies, addresses as
// accountAddress objects) types as the Python server's. Hand-written from
// toncenter/ton-http-api-cpp's schemas/v2.yaml (TransactionExt,
// MessageStd): the second transaction of the recorded blockpi block, with
// the members that schema adds; the message hash is made up.
func TestMessagesCppServerShape(t *testing.T) {
	const cpp = `{"@type":"raw.transactionExt","account":"-1:3333333333333333333333333333333333333333333333333333333333333333",
		"address":{"@type":"accountAddress","account_address":"Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF"},"utime":1724744427,"data":"",
		"transaction_id":{"@type":"internal.transactionId","lt":"48756940000002","hash":"0kwvliWmBxHEXXWVNhNfBZsQFGaWejcojKq79d3Im+A="},
		"fee":"0","storage_fee":"0","other_fee":"0",
		"in_msg":{"@type":"raw.message","hash":"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=",
			"source":{"@type":"accountAddress","account_address":"Ef8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADAU"},
			"destination":{"@type":"accountAddress","account_address":"Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF"},
			"value":"29165187604","extra_currencies":[],"fwd_fee":"0","ihr_fee":"0","created_lt":"48756940000000",
			"body_hash":"lqKW0iTyhcZ77pPDD4owkVfw2qNdxbh+QQt4YwoJz8c=","msg_data":{"@type":"msg.dataRaw","body":"te6cckEBAQEAAgAAAEysuc0=","init_state":""}},
		"out_msgs":[{"@type":"raw.message","hash":"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=",
			"source":{"@type":"accountAddress","account_address":"Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF"},
			"destination":{"@type":"accountAddress","account_address":""},
			"value":"0","extra_currencies":[],"fwd_fee":"0","ihr_fee":"0","created_lt":"48756940000003",
			"body_hash":"lqKW0iTyhcZ77pPDD4owkVfw2qNdxbh+QQt4YwoJz8c=","msg_data":{"@type":"msg.dataText","text":"aGlp"}}]}`
	c := gockClient(t)
	mockGET(t, pathBlock, mcQuery, 200, string(testdata(t, blockFixture)))
	page, err := c.BlockTransactions(context.Background(), mcBlockQuery())
	require.NoError(t, err)
	py := page.Transactions[1]

	got, err := ton.DecodeBlockTransaction([]byte(cpp))
	require.NoError(t, err)
	assert.Equal(t, py.Account, got.Account)
	assert.Equal(t, py.Hash, got.Hash)
	assert.Equal(t, py.LT, got.LT)
	assert.Equal(t, py.Time, got.Time)
	assert.Equal(t, py.Fee, got.Fee)
	require.NotNil(t, got.InMsg)
	assert.Equal(t, hashOf(t, "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="), got.InMsg.Hash)
	want, in := untyped(*py.InMsg), untyped(*got.InMsg)
	assert.Equal(t, map[uint32]*big.Int{}, in.ExtraCurrencies, "the C++ server's empty list; the Python body has none")
	in.Hash, in.ExtraCurrencies = ton.Hash{}, nil
	assert.Equal(t, want, in)
	require.Len(t, got.OutMsgs, 1)
	assert.Nil(t, got.OutMsgs[0].Destination, `account_address "" is an external out-message`)
	assert.True(t, got.OutMsgs[0].HasComment)
	assert.Equal(t, "hii", got.OutMsgs[0].Comment)
}
