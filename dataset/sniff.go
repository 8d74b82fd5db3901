package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"mark1/internal/base/atomicfile"
)

// IsNumericFile reports whether path is a text file of numbers (libsvm,
// CSV or whitespace columns), gzipped or not, rather than pictures: a
// regular file whose first 4 KiB hold no NUL byte (IDX files and picture
// formats have them in their headers). A file that cannot be opened, or
// is not a regular file (a named pipe is not waited on), is not numeric.
func IsNumericFile(path string) bool {
	f, err := atomicfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false
		}
		defer zr.Close()
		r = zr
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(r, head)
	return n > 0 && !bytes.ContainsRune(head[:n], 0)
}

// WriteTempLibSVM writes s as libsvm text (WriteLibSVM) to a new file in
// the temporary folder and returns its path and a function that removes
// it; on an error nothing is left behind.
func WriteTempLibSVM(s *Set) (path string, remove func(), err error) {
	f, err := os.CreateTemp("", "mark1-*.libsvm")
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.Remove(f.Name()) }
	bw := bufio.NewWriter(f)
	err = WriteLibSVM(bw, s)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("%s: writing a libsvm copy: %w", s.Name, err)
	}
	return f.Name(), remove, nil
}
