package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Default size limits for ReadFile, in bytes.
const (
	// MaxConfig bounds a small JSON input: a machine configuration, a
	// plugboard listing, a recording's epoch file. 16 MiB.
	MaxConfig = 16 << 20
	// MaxMachine bounds a machine file. 256 MiB: a machine of 100,000
	// A-units in the full layout (800,000 pots) takes about 20 MB.
	MaxMachine = 256 << 20
)

// Open opens path for reading if it is a regular file (or a link to one).
// It refuses folders, devices, named pipes and sockets, which could block
// or never end. The file is opened without blocking and then examined, so
// a named pipe with no writer cannot hang the caller, and what is examined
// is what was opened (no race between a look and an open).
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, err // *PathError names the file and the problem.
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: is %s, not a regular file", path, kindName(fi.Mode()))
	}
	return f, nil
}

// ErrTooLarge is mark1's one "too large" error: every error that refuses a
// file, a data set, a picture or an output over a size or memory limit
// wraps it, here and in every package above (which export it as
// dataset.ErrTooLarge), so errors.Is tells "too big" from "malformed".
var ErrTooLarge = errors.New("over the limit")

// ReadFile reads the whole of the regular file path, which must hold at
// most limit bytes (limit > 0). Over the limit it reads nothing more and
// says so, naming flag, the command-line flag that raises the limit (or
// "" if there is none). It refuses what Open refuses.
func ReadFile(path string, limit int64, flag string) ([]byte, error) {
	if limit <= 0 {
		panic("atomicfile: ReadFile limit must be positive")
	}
	limit = min(limit, math.MaxInt64-1) // limit+1 below must not overflow
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := func() error {
		hint := ""
		if flag != "" {
			hint = fmt.Sprintf("; raise it with %s", flag)
		}
		return fmt.Errorf("%s: %w of %d bytes%s", path, ErrTooLarge, limit, hint)
	}
	size := int64(0)
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	if size > limit {
		return nil, tooLarge()
	}
	// The size may change while reading: read at most one byte more than
	// the limit to notice.
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: reading: %w", path, unwrapPath(err))
	}
	if int64(len(b)) > limit {
		return nil, tooLarge()
	}
	return b, nil
}

// ReadBlock is the most a ContextReader reads at once: the most read
// between two looks at its context.
const ReadBlock = 1 << 20

// ContextReader returns a reader of r that reads at most ReadBlock bytes
// a call and fails with ctx.Err() once ctx is done (it watches ctx.Done()),
// so that a long read (a large file, or the text a small gzipped one
// decompresses to) stops within a block of a cancellation.
func ContextReader(ctx context.Context, r io.Reader) io.Reader {
	return &contextReader{ctx: ctx, r: r}
}

// Done reports whether ctx is done, by its Done channel: the readers of
// data look at ctx this way, so that a test's context that counts the
// calls of Err made by the work it interrupts does not count theirs.
func Done(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *contextReader) Read(p []byte) (int, error) {
	if Done(c.ctx) {
		return 0, c.ctx.Err()
	}
	if len(p) > ReadBlock {
		p = p[:ReadBlock]
	}
	return c.r.Read(p)
}

// ContextWriter returns a writer to w that fails with ctx.Err() once ctx
// is done, so that a long write given to Write stops at the next call
// after a cancellation and Write removes what it wrote.
func ContextWriter(ctx context.Context, w io.Writer) io.Writer {
	return &contextWriter{ctx: ctx, w: w}
}

type contextWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *contextWriter) Write(p []byte) (int, error) {
	if Done(c.ctx) {
		return 0, c.ctx.Err()
	}
	return c.w.Write(p)
}
