package nodeaccess_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// readmeFirstProgram returns the program of the README's first screen (the
// first ```go block that is a whole file, before the first "## " heading)
// and the ```text block right after it, which shows what it prints.
func readmeFirstProgram(md string) (prog, output readmeBlock, err error) {
	firstHeading := len(strings.Split(md, "\n")) + 1
	for i, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "## ") && !insideFence(md, i+1) {
			firstHeading = i + 1
			break
		}
	}
	blocks := mdBlocks(md)
	for i, b := range blocks {
		if b.line > firstHeading {
			break
		}
		if b.lang != "go" || !isFile(b.text) {
			continue
		}
		if i+1 == len(blocks) || blocks[i+1].lang != "text" || blocks[i+1].line > firstHeading {
			return b, readmeBlock{}, errors.New("the first screen's program is not followed by a ```text block of its output")
		}
		return b, blocks[i+1], nil
	}
	return readmeBlock{}, readmeBlock{}, errors.New("no whole program (a ```go block starting with package) before the first \"## \" heading")
}

// insideFence reports whether line n (from 1) of md is inside a fenced
// block.
func insideFence(md string, n int) bool {
	in := false
	for i, l := range strings.Split(md, "\n") {
		if i+1 == n {
			return in
		}
		if strings.HasPrefix(l, "```") {
			in = !in
		}
	}
	return false
}

// TestReadmeProgramRuns: the README's first screen holds one whole program
// that a reader pastes and runs as it is, and it prints what the README
// says: the program is written to a file of its own, run with go run from
// the module's root (so that its imports are this checkout's packages), and
// its output compared with the ```text block after it.
func TestReadmeProgramRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program that links go-ethereum's EVM")
	}
	md, err := os.ReadFile("README.md")
	require.NoError(t, err)
	prog, want, err := readmeFirstProgram(string(md))
	require.NoError(t, err)

	main := filepath.Join(t.TempDir(), "main.go")
	require.NoError(t, os.WriteFile(main, []byte(prog.text), 0o600))
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	// go test puts its own go first in PATH.
	cmd := exec.CommandContext(ctx, "go", "run", main)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "README.md:%d: go run: %s", prog.line, stderr.String())
	require.Equal(t, want.text, stdout.String(), "README.md:%d: the program's output, against the block at line %d", prog.line, want.line)
}

// TestReadmeFirstProgramCatches: a README whose first screen has no whole
// program, or whose program shows no output, or whose program comes only
// after the first section, is refused.
func TestReadmeFirstProgramCatches(t *testing.T) {
	prog := "```go\npackage main\n\nfunc main() {}\n```\n"
	out := "```text\nhello\n```\n"
	for name, md := range map[string]string{
		"no program":            "# t\n\n```go\nfmt.Println(1)\n```\n" + out,
		"no output":             "# t\n\n" + prog + "\n## s\n\n" + out,
		"program after heading": "# t\n\n## s\n\n" + prog + out,
		"decls, not a file":     "# t\n\n```go\nfunc main() {}\n```\n" + out,
	} {
		_, _, err := readmeFirstProgram(md)
		require.Error(t, err, name)
	}
	md := "# t\n\n```go\n// Doc.\npackage main\n\nfunc main() {}\n```\n\nIt prints:\n\n" + out + "\n## s\n"
	p, o, err := readmeFirstProgram(md)
	require.NoError(t, err)
	require.Equal(t, 3, p.line)
	require.Equal(t, "hello\n", o.text)
}
