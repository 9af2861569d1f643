package nodeaccess_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
	"github.com/nodeaccess/nodeaccess/beacon"
	"github.com/nodeaccess/nodeaccess/evm"
	"github.com/nodeaccess/nodeaccess/hyper"
	"github.com/nodeaccess/nodeaccess/hyper/hypercore"
	"github.com/nodeaccess/nodeaccess/internal/testkit"
	"github.com/nodeaccess/nodeaccess/ton"
)

var ctxType = reflect.TypeFor[context.Context]()

// nilContextArgs returns the arguments of m with a nil context first and,
// for the rest, values that are valid where a zero value would not be (a
// non-nil pointer, a writer): so that the only thing wrong is the context.
func nilContextArgs(m reflect.Type) []reflect.Value {
	args := make([]reflect.Value, m.NumIn())
	for i := range args {
		t := m.In(i)
		switch {
		case i == 1 && t == ctxType: // 0 is the receiver
			args[i] = reflect.Zero(t)
		case t == reflect.TypeFor[io.Writer]():
			args[i] = reflect.ValueOf(io.Discard)
		case t == reflect.TypeFor[any]():
			args[i] = reflect.ValueOf(new(any))
		case t.Kind() == reflect.Pointer:
			args[i] = reflect.New(t.Elem())
		case t.Kind() == reflect.Slice && m.IsVariadic() && i == m.NumIn()-1:
			args[i] = reflect.Zero(t)
		default:
			args[i] = reflect.Zero(t)
		}
	}
	return args
}

// callWithNilContext calls method m of v with a nil context and returns the
// error it returned or, for an iterator, the first error it yielded. A
// panic fails the test.
func callWithNilContext(t *testing.T, name string, v reflect.Value, m reflect.Method) (err error) {
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panics on a nil context: %v", name, p)
			err = errors.New("panicked")
		}
	}()
	args := nilContextArgs(m.Type)
	args[0] = v
	var outs []reflect.Value
	if m.Type.IsVariadic() {
		outs = m.Func.CallSlice(args)
	} else {
		outs = m.Func.Call(args)
	}
	last := outs[len(outs)-1]
	if last.Type() == reflect.TypeFor[error]() {
		e, _ := last.Interface().(error)
		return e
	}
	// An iterator of (value, error).
	seq := last
	var got error
	n := 0
	yield := reflect.MakeFunc(seq.Type().In(0), func(in []reflect.Value) []reflect.Value {
		n++
		if e, ok := in[1].Interface().(error); ok && got == nil {
			got = e
		}
		return []reflect.Value{reflect.ValueOf(n < 3)}
	})
	seq.Call([]reflect.Value{yield})
	if n != 1 {
		t.Errorf("%s yielded %d times with a nil context, want its error once", name, n)
	}
	return got
}

// TestNilContextEveryOperation calls every exported method of every
// client that takes a context.Context with a nil one: each returns (or,
// for an iterator, yields once) an error over a *nodeaccess.InputError
// that names ctx, as net/http refuses a nil context, sends nothing, and
// never panics. A method added later is covered: the list is the clients'
// own method sets.
func TestNilContextEveryOperation(t *testing.T) {
	t.Parallel()
	srv, cnt := testkit.Serve(t, func(w http.ResponseWriter, r *http.Request, _ int) { w.WriteHeader(500) })
	ec, err := evm.New(srv.URL, "k3yAlnum0")
	require.NoError(t, err)
	hc, err := hyper.New(srv.URL, "k3yAlnum0", hyper.WithPublicURL(srv.URL))
	require.NoError(t, err)
	tc, err := ton.New(srv.URL, "k3yAlnum0")
	require.NoError(t, err)
	bc, err := beacon.New(srv.URL, "k3yAlnum0")
	require.NoError(t, err)
	var batch evm.Batch
	evm.Add[any](&batch, "eth_blockNumber")
	core := hypercore.Reads(&batch)
	hev, err := hypercore.New(srv.URL, "k3yAlnum0")
	require.NoError(t, err)

	seen := 0
	budget, err := nodeaccess.NewBudget(10, 10)
	require.NoError(t, err)
	for _, client := range []any{ec, hc, tc, bc, hev, core, &core, budget, ec.ContractCaller()} {
		v := reflect.ValueOf(client)
		for i := range v.Type().NumMethod() {
			m := v.Type().Method(i)
			if m.Type.NumIn() < 2 || m.Type.In(1) != ctxType {
				continue
			}
			name := v.Type().String() + "." + m.Name
			seen++
			err := callWithNilContext(t, name, v, m)
			var ie *nodeaccess.InputError
			if !assert.True(t, errors.As(err, &ie), "%s: %v", name, err) {
				continue
			}
			assert.Equal(t, "ctx", ie.Arg, "%s: %v", name, err)
			assert.ErrorIs(t, err, nodeaccess.ErrInvalidInput, name)
		}
	}
	assert.GreaterOrEqual(t, seen, 25, "the clients' operations")

	var b2 evm.Batch
	evm.Add[any](&b2, "eth_blockNumber")
	var nilCtx context.Context
	err = ec.SendBatch(nilCtx, &b2)
	requireCtxInputError(t, err)
	assert.Zero(t, cnt.Get(), "nothing was sent")
}

func requireCtxInputError(t *testing.T, err error) {
	t.Helper()
	var ie *nodeaccess.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "ctx", ie.Arg)
}
