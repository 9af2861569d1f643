package node

import (
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/core/types"
)

// LogsLimit is a provider's cap on eth_getLogs (see evmtest.LogsLimit).
type LogsLimit struct {
	MaxRange   uint64
	MaxResults int
	Code       int
	Message    string
}

// SetLogsLimit sets the cap; the zero LogsLimit lifts it.
func (c *Chain) SetLogsLimit(l LogsLimit) {
	if l == (LogsLimit{}) {
		c.logsLimit.Store(nil)
		return
	}
	c.logsLimit.Store(&l)
}

// logsRefusal is an eth_getLogs refusal with its own error code.
type logsRefusal struct {
	code int
	msg  string
}

func (e *logsRefusal) Error() string  { return e.msg }
func (e *logsRefusal) ErrorCode() int { return e.code }

// refuse makes the refusal of l, its message saying max and suggesting
// the blocks from to to.
func (l *LogsLimit) refuse(def string, max, from, to uint64) error {
	msg := l.Message
	if msg == "" {
		msg = def
	}
	msg = strings.NewReplacer(
		"{max}", strconv.FormatUint(max, 10),
		"{fromd}", strconv.FormatUint(from, 10), "{tod}", strconv.FormatUint(to, 10),
		"{from}", "0x"+strconv.FormatUint(from, 16), "{to}", "0x"+strconv.FormatUint(to, 16),
	).Replace(msg)
	code := l.Code
	if code == 0 {
		code = -32602
	}
	return &logsRefusal{code: code, msg: msg}
}

// limitRange refuses a range of more blocks than the cap allows.
func (c *Chain) limitRange(from, to uint64) error {
	l := c.logsLimit.Load()
	if l == nil || l.MaxRange == 0 || to-from+1 <= l.MaxRange {
		return nil
	}
	return l.refuse("exceed maximum block range {max}", l.MaxRange, from, from+l.MaxRange-1)
}

// limitResults refuses an answer of more logs than the cap allows,
// suggesting the blocks from from whose logs fit.
func (c *Chain) limitResults(out []*types.Log, from uint64) ([]*types.Log, error) {
	l := c.logsLimit.Load()
	if l == nil || l.MaxResults == 0 || len(out) <= l.MaxResults {
		return out, nil
	}
	to := from
	if b := out[l.MaxResults].BlockNumber; b > from {
		to = b - 1
	}
	return nil, l.refuse("query returned more than {max} results", uint64(l.MaxResults), from, to)
}
