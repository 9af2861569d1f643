package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// newFileMode is the permission of a state file that replaces no file: a
// beacon state is public data, so it is readable by all and writable by its
// owner, like any data file (os.CreateTemp makes 0600; the mode is set
// explicitly before the rename, and no umask applies to it).
const newFileMode fs.FileMode = 0o644

// outFile is where the state goes. The body is written to f, a new file the
// program created; commit puts it at path once the state checked out, and
// discard removes it otherwise. No other file is ever truncated or removed:
// a regular file already at path is replaced by the rename (atomically)
// only after success, and stays as it was after any failure. Without an
// output path f is the program's scratch space, and discard removes it
// after success too.
type outFile struct {
	f *os.File
	// path is where f ends up: the output path the user named, or f's own
	// name when the user named none (then nothing is renamed).
	path string
	// mode is the permission f gets: that of the file it replaces, else
	// newFileMode.
	mode fs.FileMode
	// keep is set when the user named the path: the file stays there.
	keep bool
	// done is set once f is at path to stay, or removed: discard then
	// leaves it.
	done bool
}

// createOut makes the file to download into. With an empty path it is a new
// file, beacon-state-*.ssz, in the temporary directory, which discard
// removes when the program is done with it (a mainnet state is about 300 MB:
// one per run would fill the directory). Otherwise it is a hidden temporary
// file, .beacon-state-*, in the directory of path (so that the rename stays
// on one file system), kept there as path; path itself is not touched here.
//
// A path that exists must be a regular file itself: anything else is
// refused before anything is created or sent, since the rename would
// replace it. That includes a directory, a device, and a symbolic link: not
// followed, because its target can be a file the user did not mean
// (/dev/stdout links to /proc/self/fd/1, which names whatever the standard
// output is redirected to), and not replaced, because it is not the user's
// state file either.
func createOut(path string) (*outFile, error) {
	if path == "" {
		f, err := os.CreateTemp("", "beacon-state-*.ssz")
		if err != nil {
			return nil, err
		}
		return &outFile{f: f, path: f.Name(), mode: newFileMode}, nil
	}
	o := &outFile{path: filepath.Clean(path), mode: newFileMode, keep: true}
	fi, err := os.Lstat(o.path)
	switch {
	case err == nil && fi.Mode().IsRegular():
		o.mode = fi.Mode().Perm()
	case err == nil && fi.Mode().Type() == fs.ModeSymlink:
		return nil, fmt.Errorf("saving to %s: it is a symbolic link, which is neither followed nor replaced: name the file itself", o.path)
	case err == nil:
		return nil, fmt.Errorf("saving to %s: it is not a regular file (%s), and the state is saved by renaming a new file over it: name a new or a regular file", o.path, fi.Mode().Type())
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("saving to %s: %w", o.path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(o.path), ".beacon-state-*")
	if err != nil {
		return nil, fmt.Errorf("saving to %s: %w", o.path, err)
	}
	o.f = f
	return o, nil
}

// commit flushes the file to disk, gives it its mode and renames it to its
// path, where it stays if the user named the path. After an error, discard
// removes it.
func (o *outFile) commit() error {
	if err := o.f.Sync(); err != nil {
		return err
	}
	if err := o.f.Chmod(o.mode); err != nil {
		return err
	}
	if err := o.f.Close(); err != nil {
		return err
	}
	if o.path != o.f.Name() {
		if err := os.Rename(o.f.Name(), o.path); err != nil {
			return err
		}
	}
	o.done = o.keep
	return nil
}

// discard closes and removes the file the program created, unless commit
// put it where the user asked for it. It never touches any other file.
func (o *outFile) discard() error {
	if o.done {
		return nil
	}
	o.done = true
	_ = o.f.Close() // already closed after commit or a failed one: that error says so
	return os.Remove(o.f.Name())
}

// nothingSaved adds to err that no state was saved: the path holds what it
// held before (or does not exist).
func (o *outFile) nothingSaved(err error) error {
	return fmt.Errorf("%w (nothing was saved to %s)", err, o.path)
}
