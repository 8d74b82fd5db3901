package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// ReadBlocks gives the rows ReadFile gives, block after block, in every
// format, with the file's features and index base in every block, and the
// same errors (line numbers of the file) for every block size; its budgets
// bound a block.
func TestReadBlocks(t *testing.T) {
	write, gz := tempFiles(t), gzipped("1 1:0.5 3:2\n-1 2:1\n")
	files := map[string]string{
		"csv":            "testdata/small.csv",
		"text":           "testdata/small.txt",
		"csv ±1":         write("pm.csv", "a,b,label\n1,0,-1\n0,2,1\n3,3,-1\n"),
		"csv gzip":       write("g.csv.gz", gzipped("a,b,label\n1,0,x\n0,2,y\n3,3,x\n")),
		"csv no rows":    write("e.csv", "a,b,label\n"),
		"csv bad value":  write("bv.csv", "a,b,label\n1,0,x\n0,q,y\n"),
		"csv ragged":     write("r.csv", "a,b,label\n1,0,x\n0,y\n"),
		"text bad value": write("bv.txt", "1 0 x\n0 2 y\n0 z y\n"),
		"small":          "testdata/small.libsvm",
		"pm1":            "testdata/pm1.libsvm",
		"comments":       write("c.libsvm", "\ufeff# head\n1 1:0.5 3:2 # tail\n\n-1 2:1\n2 1:1 9:3\n\n# end\n"),
		"zero":           write("z.libsvm", "a 0:1 2:3\nb 5:1\nc 1:2\n"),
		"qid":            write("q.libsvm", "1 qid:3 1:1\n2 qid:3 2:1\n"),
		"gzip":           write("g.libsvm.gz", gz),
		"bad value":      write("bv.libsvm", "1 1:1\n1 1:2\n\n1 1:x\n"),
		"bad order":      write("bo.libsvm", "1 1:1\n1 1:2\n1 3:1 2:1\n"),
		"no rows":        write("e.libsvm", "# nothing\n\n"),
	}
	for name, path := range files {
		for _, ind := range []Indices{AutoIndices, OneBased, ZeroBased} {
			opt := Options{Indices: ind}
			want, wantErr := ReadFile(path, opt)
			for _, rows := range []int{1, 2, 1000} {
				var got []*Set
				err := ReadBlocks(context.Background(), path, opt, rows, func(b *Set, first int) error {
					n := 0
					for _, s := range got {
						n += s.Rows()
					}
					if first != n {
						t.Errorf("%s, %d rows: block at row %d, want %d", name, rows, first, n)
					}
					got = append(got, b)
					return nil
				})
				if wantErr != nil || err != nil {
					if wantErr == nil || err == nil || err.Error() != wantErr.Error() {
						t.Errorf("%s, %v, blocks of %d: error %v, ReadFile's %v", name, ind, rows, err, wantErr)
					}
					continue
				}
				k := 0
				for _, b := range got {
					if b.Dim != want.Dim || b.ZeroBased != want.ZeroBased || b.Rows() > rows || !reflect.DeepEqual(b.Features, want.Features) || b.Format != want.Format {
						t.Errorf("%s, %v, blocks of %d: dim %d, 0-based %v, %d rows; want %d, %v, at most %d", name, ind, rows, b.Dim, b.ZeroBased, b.Rows(), want.Dim, want.ZeroBased, rows)
					}
					for i := range b.Rows() {
						gi, gv := b.Row(i)
						wi, wv := want.Row(k)
						if b.Label(i) != want.Label(k) || !reflect.DeepEqual(gi, wi) || !reflect.DeepEqual(gv, wv) {
							t.Errorf("%s, %v, blocks of %d: row %d is %s %v %v, ReadFile's %s %v %v", name, ind, rows, k, b.Label(i), gi, gv, want.Label(k), wi, wv)
						}
						k++
					}
				}
				if k != want.Rows() {
					t.Errorf("%s, %v, blocks of %d: %d rows, ReadFile's %d", name, ind, rows, k, want.Rows())
				}
			}
		}
	}
}

// The budgets of ReadBlocks bound a block: five rows read two at a time
// under a budget of two rows, which ReadFile refuses for the file.
func TestReadBlocksBudget(t *testing.T) {
	write := tempFiles(t)
	for _, path := range []string{
		write("five.csv", "a,label\n1,x\n2,y\n3,x\n4,y\n5,x\n"),
		write("five.txt", "1 x\n2 y\n3 x\n4 y\n5 x\n"),
		write("five.libsvm", "1 1:1\n2 1:2\n1 1:3\n2 1:4\n1 1:5\n"),
	} {
		opt := Options{MaxRows: 2}
		if _, err := ReadFile(path, opt); err == nil {
			t.Fatalf("%s: ReadFile read 5 rows under a budget of 2", path)
		}
		n := 0
		err := ReadBlocks(context.Background(), path, opt, 2, func(b *Set, first int) error {
			n += b.Rows()
			return nil
		})
		if err != nil || n != 5 {
			t.Errorf("%s: %d rows in blocks of 2 under a budget of 2, error %v; want 5 and no error", path, n, err)
		}
		if err := ReadBlocks(context.Background(), path, opt, 3, func(*Set, int) error { return nil }); err == nil {
			t.Errorf("%s: blocks of 3 under a budget of 2 rows: no error", path)
		}
	}
}

// A libsvm file read two rows at a time: every block has the file's
// features, and first numbers its rows from the file's start.
func ExampleReadBlocks() {
	err := ReadBlocks(context.Background(), "testdata/small.libsvm", Options{}, 2, func(b *Set, first int) error {
		for i := range b.Rows() {
			index, value := b.Row(i)
			fmt.Printf("row %d of %d features: label %s, %v %v\n", first+i, b.Dim, b.Label(i), index, value)
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// row 0 of 7 features: label 2, [0 2] [0.5 -1.25]
	// row 1 of 7 features: label 1, [1 3] [3 0.001]
	// row 2 of 7 features: label 2, [0] [1]
	// row 3 of 7 features: label 3, [3 6] [-7 2.5]
	// row 4 of 7 features: label 1, [0 1 2] [0.25 0.5 0.75]
	// <nil>
}

// ReadFileBlocks keeps the rows ReadFile reads, in every format, in
// blocks that joined again are ReadFile's Set: the same description, the
// labels in order (the ±1 swap and 1-based shift made in every block) and
// the same errors, the budgets counting the whole file.
func TestReadFileBlocks(t *testing.T) {
	write, gz := tempFiles(t), gzipped("a,b,label\n1,0,x\n0,2,y\n3,3,x\n")
	tests := []struct {
		name, path string
		opt        Options
	}{
		{"libsvm", "testdata/small.libsvm", Options{}},
		{"pm1 (swapped)", "testdata/pm1.libsvm", Options{}},
		{"csv", "testdata/small.csv", Options{}},
		{"text", "testdata/small.txt", Options{}},
		{"1-based shift", write("one.libsvm", "-1 1:1 3:2\n1 2:1\n-1 5:1\n1 1:4\n"), Options{}},
		{"0-based", write("zero.libsvm", "a 0:1 2:3\nb 5:1\nc 1:2\n"), Options{}},
		{"no labels", write("nl.libsvm", "1:1 2:2\n3:1\n1:5\n"), Options{NoLabels: true}},
		{"gzip csv", write("g.csv.gz", gz), Options{}},
		{"bad value", write("bv.libsvm", "1 1:1\n1 1:2\n\n1 1:x\n"), Options{}},
		{"values budget", write("vb.libsvm", "1 1:1 2:1\n2 1:1 2:1 3:1\n"), Options{MaxValues: 4}},
		{"bytes budget", write("bb.libsvm", "1 1:1 2:1\n2 1:1 2:1 3:1\n"), Options{MaxBytes: 91}},
	}
	for _, tt := range tests {
		want, wantErr := ReadFile(tt.path, tt.opt)
		for _, rows := range []int{1, 2, 3, 1000} {
			set, blocks, err := ReadFileBlocks(context.Background(), tt.path, tt.opt, rows)
			if wantErr != nil || err != nil {
				if wantErr == nil || err == nil || err.Error() != wantErr.Error() {
					t.Errorf("%s, blocks of %d: error %v, ReadFile's %v", tt.name, rows, err, wantErr)
				}
				continue
			}
			if !reflect.DeepEqual(set.Y, want.Y) || set.Rows() != want.Rows() || !reflect.DeepEqual(set.RowStart, []int{0}) || set.Index != nil {
				t.Errorf("%s, blocks of %d: set %+v; want ReadFile's labels and no rows", tt.name, rows, set)
			}
			joined := *set
			joined.RowStart = []int{0}
			first := 0
			for k, b := range blocks {
				if b.Rows() > rows || b.Rows() == 0 || (k < len(blocks)-1 && b.Rows() != rows) {
					t.Errorf("%s, blocks of %d: block %d has %d rows", tt.name, rows, k, b.Rows())
				}
				if !reflect.DeepEqual(b.Y, want.Y[first:first+b.Rows()]) || !reflect.DeepEqual(b.Classes, want.Classes) || b.Dim != want.Dim || b.ZeroBased != want.ZeroBased || !reflect.DeepEqual(b.Features, want.Features) {
					t.Errorf("%s, blocks of %d: block %d is %+v; want ReadFile's description and rows %d on", tt.name, rows, k, b, first)
				}
				for i := range b.Rows() {
					idx, val := b.Row(i)
					joined.Index, joined.Value = append(joined.Index, idx...), append(joined.Value, val...)
					joined.RowStart = append(joined.RowStart, len(joined.Value))
				}
				first += b.Rows()
			}
			if !reflect.DeepEqual(&joined, want) {
				t.Errorf("%s, blocks of %d: joined\n%+v\nReadFile\n%+v", tt.name, rows, &joined, want)
			}
		}
	}
}

// tempFiles returns a function that writes a file of the given name and
// text in a fresh temporary directory and returns its path.
func tempFiles(t *testing.T) func(name, text string) string {
	dir := t.TempDir()
	return func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// gzipped returns text compressed by gzip.
func gzipped(text string) string {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	return gz.String()
}

// A CSV line longer than maxCSVLine is refused once it passes the limit,
// as libsvm and text lines are past theirs, without reading the rest of
// it: encoding/csv would hold the whole record.
func TestCSVLineLimit(t *testing.T) {
	write := tempFiles(t)
	long := strings.Repeat("1,", Options{}.withDefaults().lineLimit(true)/2+8)
	for _, tc := range []struct{ name, text, want string }{
		{"header.csv", long + "label\n1,x\n", "long.csv:1: line longer than"},
		{"row.csv", "a,label\n1,x\n" + long + "x\n", "long.csv:3: line longer than"},
	} {
		path := write("long.csv", tc.text)
		_, err := ReadFile(path, Options{})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want ErrTooLarge saying %q", tc.name, err, tc.want)
		}
	}
}
