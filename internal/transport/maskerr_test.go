package transport_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/internal/transport"
	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sdkErrorTypes are the error types the SDK defines (and the standard ones
// its errors wrap), as pointers to zero values.
var sdkErrorTypes = []error{
	&nodeaccess.InputError{},
	&nodeaccess.HTTPError{},
	&nodeaccess.RPCError{},
	&nodeaccess.OpError{},
	&evm.RevertError{},
	&beacon.DecodeError{},
	&url.Error{},
	&net.OpError{},
}

// sentinels are every sentinel the SDK and its errors match.
var sentinels = []error{
	nodeaccess.ErrInvalidInput, nodeaccess.ErrRateLimited, nodeaccess.ErrUnauthorized, nodeaccess.ErrNotFound,
	nodeaccess.ErrUnavailable, nodeaccess.ErrInvalidResponse, nodeaccess.ErrResponseTooLarge,
	evm.ErrReverted, beacon.ErrInvalidState, beacon.ErrIntegrity, beacon.ErrDebugDisabled,
	beacon.ErrUnsupportedVersion, hyper.ErrUnknownDex, hyper.ErrUnsupportedRequest, ton.ErrRepeatedPage,
	syscall.ECONNREFUSED, io.ErrUnexpectedEOF,
}

// holding returns a value of e's type with the key in every exported
// string, []byte and any field, an error holding the key (an InputError
// wrapping nothing, or a *url.Error for a field typed by it) in every
// error field, and a status that matches a sentinel in every int field.
func holding(e error, key string) (error, bool) {
	set := false
	v := reflect.New(reflect.TypeOf(e).Elem())
	s := v.Elem()
	for i := range s.NumField() {
		f := s.Field(i)
		if !f.CanSet() || f.Kind() == reflect.Int {
			if f.CanSet() {
				f.SetInt(404)
			}
			continue
		}
		set = true
		switch {
		case f.Kind() == reflect.String:
			f.SetString(s.Type().Field(i).Name + " " + key)
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Uint8:
			f.SetBytes([]byte("body " + url.PathEscape(key)))
		case f.Type() == reflect.TypeFor[any]():
			f.Set(reflect.ValueOf(map[string]any{"k": key, key: []any{key, 1.0}}))
		case f.Type() == reflect.TypeFor[error]():
			f.Set(reflect.ValueOf(fmt.Errorf("cause %s: %w", key, &url.Error{Op: "Post", URL: "https://h/" + key, Err: syscall.ECONNREFUSED})))
		case f.Type() == reflect.TypeFor[*nodeaccess.RPCError]():
			f.Set(reflect.ValueOf(&nodeaccess.RPCError{Code: 3, Message: "reverted " + key, Data: key}))
		case f.Type() == reflect.TypeFor[*nodeaccess.HTTPError]():
			f.Set(reflect.ValueOf(&nodeaccess.HTTPError{StatusCode: 503, Status: "503 " + key, Body: []byte(key), URL: "https://h/" + key}))
		default:
			set = false
		}
	}
	return v.Interface().(error), set
}

// maskSpellings replaces every spelling testkit knows of key in s by Mask.
func maskSpellings(s, key string) string {
	for _, sp := range testkit.KeySpellings(key) {
		s = strings.ReplaceAll(s, sp, transport.Mask)
	}
	return s
}

// TestMaskKeepsErrorTypes: for every error type of the SDK holding the key
// in each field, the masked error has the same type (errors.As reaches it,
// and only a copy without the key), matches the same sentinels, and says
// the same with the key masked.
func TestMaskKeepsErrorTypes(t *testing.T) {
	t.Parallel()
	for _, key := range testkit.LeakKeys {
		c, err := transport.New(transport.Settings{Chain: "test", BaseURL: "https://node.example", Key: key})
		require.NoError(t, err)
		for _, zero := range sdkErrorTypes {
			typ := reflect.TypeOf(zero)
			orig, holds := holding(zero, key)
			for _, wrap := range []func(error) error{
				func(e error) error { return e },
				func(e error) error { return fmt.Errorf("context %s: %w", key, e) },
				func(e error) error { return errors.Join(errors.New("first "+key), e) },
			} {
				in := wrap(orig)
				got := c.Wrap("op", in)
				testkit.AssertErrNoKey(t, key, got)
				prefix := "test: op: "
				if _, ok := in.(*nodeaccess.OpError); ok {
					prefix = "" // Wrap wraps once
				}
				assert.Equal(t, prefix+maskSpellings(in.Error(), key), got.Error(), "%v", typ)
				for _, s := range sentinels {
					assert.Equal(t, errors.Is(in, s), errors.Is(got, s), "%v: errors.Is(%v)", typ, s)
				}
				// errors.As reaches a value of the type, holding no key.
				target := reflect.New(typ)
				require.True(t, errors.As(got, target.Interface()), "%v: errors.As lost the type", typ)
				as := target.Elem().Interface().(error)
				if holds {
					assert.NotSame(t, orig, as, "%v: errors.As handed out the original, which holds the key", typ)
				}
				testkit.AssertNoKey(t, key, fmt.Sprintf("%v via errors.As", typ), fmt.Sprintf("%s %#v %+v", as, as, reflect.ValueOf(as).Elem().Interface()))
				// Every error reachable from the result prints no key.
				testkit.WalkErr(got, func(e error) {
					testkit.AssertNoKey(t, key, fmt.Sprintf("%T in the chain", e), fmt.Sprintf("%s %#v", e, e))
				})
			}
		}
	}
}

// TestMaskKeepsInputErrors is the case: an input that happens to be
// the key (an address, an account) is rejected before anything is sent, and
// the error still matches ErrInvalidInput and *InputError.
func TestMaskKeepsInputErrors(t *testing.T) {
	t.Parallel()
	for _, key := range testkit.LeakKeys {
		c, err := transport.New(transport.Settings{Chain: "hyper", BaseURL: "https://node.example", Key: key})
		require.NoError(t, err)
		for _, in := range []error{
			&nodeaccess.InputError{Arg: "user", Reason: fmt.Sprintf("%q is not a 0x-prefixed 20-byte hex address", key)},
			fmt.Errorf("%w: account %q", nodeaccess.ErrInvalidInput, key),
			fmt.Errorf("query: %w", &nodeaccess.InputError{Arg: "account", Reason: "bad address " + url.QueryEscape(key)}),
		} {
			got := c.Wrap("userVaultEquities", in)
			assert.ErrorIs(t, got, nodeaccess.ErrInvalidInput)
			var ie *nodeaccess.InputError
			if errors.As(in, &ie) {
				require.ErrorAs(t, got, &ie)
				assert.NotContains(t, ie.Reason, "sEcReT")
				assert.Contains(t, ie.Reason, transport.Mask)
			}
			var oe *nodeaccess.OpError
			require.ErrorAs(t, got, &oe)
			testkit.AssertErrNoKey(t, key, got)
		}
	}
}

// TestMaskKeepsCleanErrors: an error without the key is returned as it is,
// the very value.
func TestMaskKeepsCleanErrors(t *testing.T) {
	t.Parallel()
	c, err := transport.New(transport.Settings{Chain: "test", BaseURL: "https://node.example", Key: "sEcReT-k3y"})
	require.NoError(t, err)
	for _, e := range []error{
		io.EOF, syscall.ECONNRESET, &nodeaccess.InputError{Arg: "to", Reason: "nil"},
		fmt.Errorf("wrapped: %w", io.ErrUnexpectedEOF), &url.Error{Op: "Get", URL: "https://h/REDACTED", Err: io.EOF},
	} {
		got := c.Wrap("op", e).(*nodeaccess.OpError)
		assert.True(t, got.Err == e, "%T was replaced", e)
	}
}

// joined is shaped like ton's serverError and hyper's unsupportedError: an
// unexported type with unexported fields, an Is method of its own, and
// typed causes.
type joined struct {
	msg  string
	http *nodeaccess.HTTPError
	rpc  *nodeaccess.RPCError
}

var errJoined = errors.New("joined sentinel")

func (e *joined) Error() string        { return e.msg + ": " + e.http.Error() + "; " + e.rpc.Error() }
func (e *joined) Unwrap() []error      { return []error{e.http, e.rpc} }
func (e *joined) Is(target error) bool { return target == errJoined }

// TestMaskOpaqueErrorKeepsWhatItCan: an error whose own fields Err cannot
// reach keeps its Is method's answers and its typed causes (masked copies),
// and its text is masked.
func TestMaskOpaqueErrorKeepsWhatItCan(t *testing.T) {
	t.Parallel()
	const key = "sEcReT-k3y"
	c, err := transport.New(transport.Settings{Chain: "ton", BaseURL: "https://node.example", Key: key})
	require.NoError(t, err)
	in := &joined{
		msg:  "server says " + key,
		http: &nodeaccess.HTTPError{StatusCode: 429, Status: "429 Too Many Requests", Body: []byte(`{"error":"` + key + `"}`)},
		rpc:  &nodeaccess.RPCError{Code: 429, Message: "limit for " + key},
	}
	got := c.Wrap("accountStates", in)
	testkit.AssertErrNoKey(t, key, got)
	assert.Equal(t, `ton: accountStates: server says REDACTED: HTTP 429 Too Many Requests: {"error":"REDACTED"}; json-rpc error 429: limit for REDACTED`, got.Error())
	assert.ErrorIs(t, got, errJoined)
	assert.ErrorIs(t, got, nodeaccess.ErrRateLimited)
	var he *nodeaccess.HTTPError
	require.ErrorAs(t, got, &he)
	assert.Equal(t, `{"error":"REDACTED"}`, string(he.Body))
	assert.Equal(t, 429, he.StatusCode)
	var re *nodeaccess.RPCError
	require.ErrorAs(t, got, &re)
	assert.Equal(t, "limit for REDACTED", re.Message)
	var j *joined
	assert.False(t, errors.As(got, &j), "the original, which holds the key, must not be reachable")
}
