package dataset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"mark1/internal/base/atomicfile"
)

// ReadFileBlocks reads the data file at path as ReadFileContext does, in
// any format, but keeps its rows in blocks of at most rows rows, in file
// order: set describes the whole file (Classes, Dim, Features, every label
// in Y) with no rows of its own (RowStart is [0]), and each block is a Set
// of its rows, with the file's description and its share of Y. The
// budgets of opt bound the whole file, as ReadFile's. A reader that turns
// the rows into another form one block at a time (mark1 fit's float32
// rows) can drop each block once it is turned, and so never hold the
// file's rows twice over, as a copy of one whole Set would.
func ReadFileBlocks(ctx context.Context, path string, opt Options, rows int) (set *Set, blocks []*Set, err error) {
	if rows < 1 {
		panic("dataset: ReadFileBlocks with rows < 1")
	}
	opt.blockRows = rows
	if set, err = ReadFileContext(ctx, path, opt); err != nil {
		return nil, nil, err
	}
	blocks, set.blocks = set.blocks, nil
	return set, blocks, nil
}

// ReadBlocks reads the data file at path (gzip-compressed or not) as
// ReadFile does, but a block of at most rows rows at a time: fn is called
// with each block in file order and the 0-based number of its first row,
// and the block may be dropped once fn returns. A reader that needs each
// row once (a prediction) so holds one block, not the file.
//
// A block describes the file as far as it has been read (the classes
// seen so far: Label gives each row's label) and has the whole file's
// Dim; a libsvm file's blocks have its ZeroBased too, as a first pass
// reads every feature index, so that AutoIndices is decided as ReadFile
// decides it. Errors name the file's line numbers, as ReadFile's do; a
// file without rows is refused as ReadFile refuses it. The budgets of opt
// (MaxRows, MaxValues, MaxBytes) bound each block. An error of fn ends the
// reading and is returned as it is. The reading stops once ctx is done, as
// ReadFileContext's, with an error that wraps ctx.Err() and names path.
func ReadBlocks(ctx context.Context, path string, opt Options, rows int, fn func(block *Set, first int) error) error {
	if rows < 1 {
		panic("dataset: ReadBlocks with rows < 1")
	}
	if opt.Format == Auto {
		h, err := ReadHead(path, Auto)
		if err != nil {
			return err
		}
		opt.Format = h.Format
	}
	var err error
	if opt.Format == LibSVM {
		err = readLibSVMBlocks(ctx, path, opt, rows, fn)
	} else {
		opt.blockRows, opt.each = rows, fn
		_, err = ReadFileContext(ctx, path, opt)
	}
	if err != nil && atomicfile.Done(ctx) && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%s: reading stopped: %w", path, ctx.Err())
	}
	return err
}

// readLibSVMBlocks is ReadBlocks for libsvm text: a first pass reads the
// feature indices, and the second parses the file's lines a block at a
// time.
func readLibSVMBlocks(ctx context.Context, path string, opt Options, rows int, fn func(block *Set, first int) error) error {
	opt = opt.withDefaults()
	opt.Format = LibSVM
	if opt.LabelColumn != "" {
		return fmt.Errorf("%s: a label column (%q) is only for CSV files; this is %s data", path, opt.LabelColumn, LibSVM)
	}
	lowest, highest := math.MaxInt, -1
	err := openText(ctx, path, func(r io.Reader) error {
		return lines(r, path, opt.lineLimit(false), func(fields [][]byte, _ int) error {
			if !opt.NoLabels {
				fields = fields[1:]
			}
			for _, f := range fields {
				colon := bytes.IndexByte(f, ':')
				if colon < 0 || bytes.Equal(f[:colon], []byte("qid")) {
					continue // malformed ones are reported by the second pass
				}
				if idx, ok := atoi(f[:colon]); ok && idx >= 0 {
					lowest, highest = min(lowest, idx), max(highest, idx)
				}
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	zero := opt.Indices == ZeroBased || (opt.Indices == AutoIndices && !(highest >= 0 && lowest > 0))
	opt.Indices = OneBased
	dim := max(highest, 0)
	if zero {
		opt.Indices, dim = ZeroBased, highest+1
	}
	n := 0
	return openText(ctx, path, func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		maxLine := opt.lineLimit(false)
		sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
		var buf []byte
		line, start, inBlock := 0, 0, 0
		flush := func() error {
			if inBlock == 0 {
				return nil
			}
			o := opt
			o.firstLine = start
			o.hintRows, o.hintValues = inBlock, bytes.Count(buf, []byte(":"))
			s, err := readLibSVM(bytes.NewReader(buf), path, o)
			if err != nil {
				return err
			}
			s.Dim, s.ZeroBased = dim, zero
			if err := fn(s, n); err != nil {
				return err
			}
			n += s.Rows()
			buf, start, inBlock = buf[:0], line, 0
			return nil
		}
		for sc.Scan() {
			line++
			text := sc.Bytes()
			buf = append(append(buf, text...), '\n')
			if i := bytes.IndexByte(text, '#'); i >= 0 {
				text = text[:i]
			}
			if hasFields(text) {
				inBlock++
			}
			if inBlock == rows {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return longLine(path, line+1, maxLine, false)
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := flush(); err != nil {
			return err
		}
		if n == 0 {
			return parseErr(path, 0, 0, "no rows (libsvm text needs lines of \"label index:value ...\")")
		}
		return nil
	})
}

// openText opens the data file at path, decompressing it if it is gzip,
// skips a UTF-8 byte-order mark, and calls fn with its text, read in
// blocks that look at ctx first (atomicfile.ContextReader).
func openText(ctx context.Context, path string, fn func(r io.Reader) error) error {
	f, err := atomicfile.Open(path) // a regular file: a named pipe must not block
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(atomicfile.ContextReader(ctx, f), 64<<10)
	r, done, err := gunzipped(br, path)
	if err != nil {
		return err
	}
	defer done()
	tb := br
	if r != br {
		tb = bufio.NewReaderSize(r, 64<<10)
	}
	if bom, _ := tb.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		tb.Discard(3)
	}
	return fn(tb)
}
