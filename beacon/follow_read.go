package beacon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/nodeaccess/nodeaccess"
)

// The paths Follow reads.
const (
	headersPath  = "/eth/v1/beacon/headers/"
	finalityPath = "/eth/v1/beacon/states/head/finality_checkpoints"
)

func headersOp(id string) string { return headersPath + id }

func slotText(s Slot) string { return strconv.FormatUint(uint64(s), 10) }

// The members Follow reads of the answers, in the beacon API's names; the
// others (execution_optimistic, finalized, signature, the justified
// checkpoints) are passed over.
var (
	answerNames       = []string{"data"}
	headerDataNames   = []string{"root", "canonical", "header"}
	signedHeaderNames = []string{"message"}
	finalityDataNames = []string{"previous_justified", "current_justified", "finalized"}
)

// invalid is an ErrInvalidResponse error of op.
func (f *follower) invalid(op, format string, args ...any) error {
	return f.c.t.Wrap(op, fmt.Errorf("%w: "+format, append([]any{nodeaccess.ErrInvalidResponse}, args...)...))
}

// changed is an errChanged error of op: ask again later.
func (f *follower) changed(op, format string, args ...any) error {
	return f.c.t.Wrap(op, fmt.Errorf("%w: "+format, append([]any{errChanged}, args...)...))
}

// malformed is the ErrInvalidResponse error of op for an answer the
// decoder refused, naming the member.
func (f *follower) malformed(op string, err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		where := de.Path
		if where == "" {
			where = "the answer"
		}
		return f.invalid(op, "%s: %s", where, f.c.t.Mask(de.Reason))
	}
	return f.invalid(op, "%s", f.c.t.Mask(err.Error()))
}

// get reads the JSON answer of path.
func (f *follower) get(ctx context.Context, path string) ([]byte, error) {
	var raw json.RawMessage
	if err := f.c.Get(ctx, &raw, path, nil); err != nil {
		return nil, err
	}
	return raw, nil
}

// header reads GET /eth/v1/beacon/headers/{id} and checks the header
// against its root, and the root against want when want is not zero.
func (f *follower) header(ctx context.Context, id string, want Root) (block, error) {
	op := headersOp(id)
	raw, err := f.get(ctx, op)
	if err != nil {
		return block{}, err
	}
	b := block{known: true}
	err = unmarshalComponent(raw, func(d *jsonDecoder) error {
		_, err := d.objectOf("the answer", answerNames, 1, 1, nil, func(int) error {
			_, err := d.objectOf("data", headerDataNames, 7, 7, nil, func(i int) error {
				switch i {
				case 0:
					return d.hexInto(b.root[:])
				case 1:
					var err error
					b.canonical, err = d.boolv()
					return err
				}
				_, err := d.objectOf("a signed block header", signedHeaderNames, 1, 1, nil, func(int) error {
					return d.blockHeader(&b.h)
				})
				return err
			})
			return err
		})
		return err
	})
	if err != nil {
		return block{}, f.malformed(op, err)
	}
	if r := blockHeaderRoot(&b.h); r != b.root {
		return block{}, f.invalid(op, "data.root %s is not the root of the header it came with, %s", b.root.Hex(), r.Hex())
	}
	if want != (Root{}) && b.root != want {
		return block{}, f.invalid(op, "asked for block %s, got block %s", want.Hex(), b.root.Hex())
	}
	return b, nil
}

// readFinality reads the head state's finalized checkpoint and keeps it
// when it is newer than the one known.
func (f *follower) readFinality(ctx context.Context) error {
	raw, err := f.get(ctx, finalityPath)
	if err != nil {
		return err
	}
	var cp Checkpoint
	err = unmarshalComponent(raw, func(d *jsonDecoder) error {
		_, err := d.objectOf("the answer", answerNames, 1, 1, nil, func(int) error {
			_, err := d.objectOf("data", finalityDataNames, 7, 4, nil, func(i int) error {
				if i < 2 {
					return d.skipValue(0)
				}
				return d.checkpoint(&cp)
			})
			return err
		})
		return err
	})
	if err != nil {
		return f.malformed(finalityPath, err)
	}
	if !f.finKnown || cp.Epoch > f.fin.Epoch {
		f.fin, f.finKnown = cp, true
	}
	return nil
}

// pollTip reads the newest block at the query's finality: the head, or the
// block of the newest finalized checkpoint (read again only when the
// checkpoint moved). At Head the finalized checkpoint is read once an
// epoch of the head's.
func (f *follower) pollTip(ctx context.Context) (block, error) {
	if f.q.Finality == Finalized {
		if err := f.readFinality(ctx); err != nil {
			return block{}, err
		}
		if f.haveTip && f.tipFor == f.fin.Root {
			return f.tip, nil
		}
		id := string(Genesis) // no checkpoint finalized yet: the zero root
		if f.fin.Root != (Root{}) {
			id = f.fin.Root.Hex()
		}
		b, err := f.header(ctx, id, f.fin.Root)
		if err != nil {
			return block{}, err
		}
		if !b.canonical {
			return block{}, f.changed(headersOp(id), "the node calls the finalized block %s not canonical", b.root.Hex())
		}
		f.tipFor = f.fin.Root
		return b, nil
	}
	b, err := f.header(ctx, string(Head), Root{})
	if err != nil {
		return block{}, err
	}
	if !b.canonical {
		return block{}, f.changed(headersOp(string(Head)), "the node calls its head %s not canonical", b.root.Hex())
	}
	if !f.finKnown || uint64(b.h.Slot)/f.spe > uint64(f.finAt)/f.spe {
		if err := f.readFinality(ctx); err != nil {
			return block{}, err
		}
		f.finAt = b.h.Slot
	}
	return b, nil
}
