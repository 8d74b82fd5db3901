package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to every reader. Whatever it accepts must be
// a consistent Set that survives libsvm and CSV round trips value for value;
// whatever it refuses gets a one-line error naming the input.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for format := range uint8(4) {
			f.Add(b, format)
		}
	}
	f.Add([]byte("1 1:1 1:2\n"), uint8(LibSVM))
	f.Add([]byte("a,b\n1\n"), uint8(CSV))
	f.Add([]byte("1 qid:2 0:1 3:2\n-1 qid:2 1:1\n"), uint8(LibSVM))
	f.Add([]byte("0:1 3:2\n"), uint8(LibSVM)|128)
	f.Add([]byte("a,b\n1,2\n"), uint8(CSV)|128)
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		// the low bits choose the format, the next the index base, the
		// top bit reads without labels
		opt := Options{Format: Format(format % 4), Indices: Indices(format / 4 % 3), NoLabels: format >= 128,
			MaxValues: 1 << 16, MaxRows: 1 << 12, MaxDim: 1 << 12}
		s, err := Read(bytes.NewReader(data), "fuzz", opt)
		// Read in blocks (ReadFileBlocks), the same rows or the same error.
		bopt := opt
		bopt.blockRows = 1 + len(data)%3
		bs, berr := Read(bytes.NewReader(data), "fuzz", bopt)
		if (err == nil) != (berr == nil) || err != nil && err.Error() != berr.Error() {
			t.Fatalf("read in blocks: error %v; whole: %v", berr, err)
		}
		if err == nil {
			joined := Set{RowStart: []int{0}}
			for _, b := range bs.blocks {
				for i := range b.Rows() {
					idx, val := b.Row(i)
					joined.Index, joined.Value = append(joined.Index, idx...), append(joined.Value, val...)
					joined.RowStart = append(joined.RowStart, len(joined.Value))
				}
			}
			if !slices.Equal(joined.RowStart, s.RowStart) || !slices.Equal(joined.Index, s.Index) || !slices.Equal(joined.Value, s.Value) || !slices.Equal(bs.Y, s.Y) {
				t.Fatalf("read in blocks of %d: rows %v %v %v labels %v; whole: %v %v %v %v", bopt.blockRows,
					joined.RowStart, joined.Index, joined.Value, bs.Y, s.RowStart, s.Index, s.Value, s.Y)
			}
		}
		// Read compact (ReadFileCompact): the same error but for a budget
		// (values kept compact count against MaxBytes alone), or the same
		// rows, held as bytes or float32, or left to be read in blocks.
		copt := opt
		copt.blockRows, copt.compact = 1+len(data)%3, true
		cs, cerr := Read(bytes.NewReader(data), "fuzz", copt)
		switch {
		case err != nil && errors.Is(err, ErrTooLarge), errors.Is(cerr, errNotCompact):
		case (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error():
			t.Fatalf("read compact: error %v; whole: %v", cerr, err)
		case err == nil && cs.compact != nil:
			c := cs.compact
			if c.Dim != s.Dim || c.Rows() != s.Rows() || !slices.Equal(cs.Y, s.Y) {
				t.Fatalf("read compact: %v, labels %v; whole: %d × %d, %v", c, cs.Y, s.Rows(), s.Dim, s.Y)
			}
			for i := range s.Rows() {
				for k, v := range s.DenseRow(nil, i) {
					got, want := 0.0, float64(float32(v))
					if c.Grey != nil {
						got, want = float64(c.Grey[i*c.Dim+k])/255, v
					} else {
						got = float64(c.Float32[i*c.Dim+k])
					}
					if got != want {
						t.Fatalf("read compact: row %d feature %d: %v; whole: %v", i, k, got, v)
					}
				}
			}
		}
		if opt.Format == CSV || opt.Format == Text {
			// Given to a function a block at a time (ReadBlocks): the same
			// rows and labels, or the same error but for a budget, which
			// then bounds a block.
			sopt := opt
			var got []string
			sopt.blockRows = 1 + len(data)%3
			sopt.each = func(b *Set, first int) error {
				if first != len(got) {
					t.Fatalf("a block at row %d after %d rows", first, len(got))
				}
				for i := range b.Rows() {
					idx, val := b.Row(i)
					got = append(got, fmt.Sprint(b.Label(i), idx, val))
				}
				return nil
			}
			_, serr := Read(bytes.NewReader(data), "fuzz", sopt)
			switch {
			case err != nil && errors.Is(err, ErrTooLarge):
			case (err == nil) != (serr == nil) || err != nil && err.Error() != serr.Error():
				t.Fatalf("read a block at a time: error %v; whole: %v", serr, err)
			case err == nil:
				var want []string
				for i := range s.Rows() {
					idx, val := s.Row(i)
					want = append(want, fmt.Sprint(s.Label(i), idx, val))
				}
				if !slices.Equal(got, want) {
					t.Fatalf("read a block at a time: %q; whole: %q", got, want)
				}
			}
		}
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "fuzz") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q does not start with the name or has several lines", msg)
			}
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("error %v wraps neither ErrFormat nor ErrTooLarge", err)
			}
			return
		}
		checkSet(t, s)
		if s.Unlabelled {
			return
		}
		if numericClasses(s) {
			// 0-based text, as scikit-learn's dump_svmlight_file writes it,
			// reads back the same when asked for, and by the auto rule
			// exactly when it has an index 0.
			text := zeroBasedText(s)
			back, err := Read(bytes.NewReader(text), "back", Options{Format: LibSVM, Indices: ZeroBased})
			if err != nil {
				t.Fatalf("0-based round trip: %v\n%s", err, text)
			}
			sameValues(t, "0-based libsvm", s, back)
			auto, err := Read(bytes.NewReader(text), "back", Options{Format: LibSVM})
			if err != nil {
				t.Fatalf("0-based round trip, auto: %v\n%s", err, text)
			}
			if hasZero := bytes.Contains(text, []byte(" 0:")); auto.ZeroBased != (hasZero || s.Dim == 0) {
				t.Fatalf("auto read 0-based text as ZeroBased=%v; the text has index 0: %v\n%s", auto.ZeroBased, hasZero, text)
			}
			if auto.ZeroBased {
				sameValues(t, "0-based libsvm, auto", s, auto)
			}
		}
		if numericClasses(s) {
			var buf bytes.Buffer
			if err := WriteLibSVM(&buf, s); err != nil {
				t.Fatal(err)
			}
			back, err := Read(&buf, "back", Options{Format: LibSVM})
			if err != nil {
				t.Fatalf("libsvm round trip: %v\n%s", err, buf.Bytes())
			}
			sameValues(t, "libsvm", s, back)
		}
		if s.Dim > 0 && s.Rows()*s.Dim <= 1<<14 {
			var buf bytes.Buffer
			if err := WriteCSV(&buf, s); err != nil {
				t.Fatal(err)
			}
			back, err := Read(&buf, "back", Options{Format: CSV, LabelColumn: strconv.Itoa(s.Dim + 1)})
			if err != nil {
				t.Fatalf("CSV round trip: %v\n%s", err, buf.Bytes())
			}
			sameValues(t, "CSV", s, back)
		}
	})
}

// zeroBasedText writes s as libsvm text with 0-based indices, the last
// feature marked on the first line (as WriteLibSVM does) so that the
// dimension survives.
func zeroBasedText(s *Set) []byte {
	var b bytes.Buffer
	for i := range s.Rows() {
		b.WriteString(s.Label(i))
		idx, val := s.Row(i)
		for k, j := range idx {
			b.WriteString(" " + strconv.Itoa(int(j)) + ":" + strconv.FormatFloat(val[k], 'g', -1, 64))
		}
		if i == 0 && s.Dim > 0 && (len(idx) == 0 || int(idx[len(idx)-1]) != s.Dim-1) {
			b.WriteString(" " + strconv.Itoa(s.Dim-1) + ":0")
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func numericClasses(s *Set) bool {
	for _, c := range s.Classes {
		if _, err := number([]byte(c)); err != nil {
			return false
		}
	}
	return true
}

// checkSet checks the CSR invariants the package documents.
func checkSet(t *testing.T, s *Set) {
	t.Helper()
	if len(s.RowStart) != s.Rows()+1 || s.RowStart[0] != 0 || s.RowStart[s.Rows()] != len(s.Value) || len(s.Index) != len(s.Value) {
		t.Fatalf("inconsistent CSR: %d row starts, %d rows, %d indices, %d values", len(s.RowStart), s.Rows(), len(s.Index), len(s.Value))
	}
	for i := range s.Rows() {
		idx, val := s.Row(i)
		for k, j := range idx {
			if j < 0 || int(j) >= s.Dim || (k > 0 && j <= idx[k-1]) {
				t.Fatalf("row %d: index %d out of order or range (dim %d)", i, j, s.Dim)
			}
			if val[k] == 0 || math.IsNaN(val[k]) || math.IsInf(val[k], 0) {
				t.Fatalf("row %d: stored value %v", i, val[k])
			}
		}
		if s.Unlabelled && s.Y[i] == 0 && len(s.Classes) == 0 {
			continue
		}
		if s.Y[i] < 0 || s.Y[i] >= len(s.Classes) {
			t.Fatalf("row %d: class %d of %d", i, s.Y[i], len(s.Classes))
		}
	}
}

// sameValues compares everything a round trip must keep.
func sameValues(t *testing.T, how string, a, b *Set) {
	t.Helper()
	if a.Dim != b.Dim || !reflect.DeepEqual(a.Classes, b.Classes) || !reflect.DeepEqual(a.Y, b.Y) ||
		!reflect.DeepEqual(a.RowStart, b.RowStart) || !reflect.DeepEqual(a.Index, b.Index) || !reflect.DeepEqual(a.Value, b.Value) {
		t.Fatalf("%s round trip changed the data:\n dim %d→%d\n classes %q→%q\n y %v→%v\n values %v→%v", how, a.Dim, b.Dim, a.Classes, b.Classes, a.Y, b.Y, a.Value, b.Value)
	}
}

// FuzzSplitFields checks the reused-slice field splitter against
// bytes.Fields.
func FuzzSplitFields(f *testing.F) {
	for _, s := range []string{"", " a  b\t", "1 1:2 3:4\r", "x\u00a0y z", "\v\f"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, want := splitFields([][]byte{[]byte("x")}, b)[1:], bytes.Fields(b)
		if hasFields(b) != (len(want) > 0) {
			t.Fatalf("%q: hasFields %v; bytes.Fields %d fields", b, hasFields(b), len(want))
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d fields; bytes.Fields %d", b, len(got), len(want))
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%q: field %d %q; bytes.Fields %q", b, i, got[i], want[i])
			}
		}
	})
}

// FuzzDecimal checks the plain-decimal fast path against strconv.ParseFloat:
// whatever it reads, it reads to the same bits.
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0.0823529", "-12.5", "+3", "-0", ".5", "5.", ".", "1e5", "0.1234567890123456789",
		"9007199254740991", "9007199254740992", "0.0000000000000000000001", "1.00000000000000000000000", "12..3", "0x10", "1_0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, ok := decimal(b)
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(string(b), 64)
		if err != nil || math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("%q: %v (bits %x); strconv %v (bits %x), %v", b, v, math.Float64bits(v), want, math.Float64bits(want), err)
		}
	})
}

// The fast path takes the decimals data files hold and leaves the rest,
// exponents and long mantissas among them, to strconv.
func TestDecimalTakes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"0.0823529", true}, {"-12.5", true}, {"3", true}, {".5", true}, {"5.", true}, {"-0", true},
		{"9007199254740991", true}, {"9007199254740992", false}, {"0.1234567890123456789", false},
		{"1e5", false}, {".", false}, {"", false}, {"-", false}, {"1.2.3", false}, {"0x10", false}, {"1_0", false},
		{"0.0000000000000000000001", true}, {"0.00000000000000000000001", false},
	} {
		if _, ok := decimal([]byte(tc.in)); ok != tc.want {
			t.Errorf("decimal(%q) ok = %v, want %v", tc.in, ok, tc.want)
		}
	}
}

// FuzzReadPlain checks libsvm lines read in one pass (plainLine) against
// the general reading: the same rows, labels and dimension, or the same
// error.
func FuzzReadPlain(f *testing.F) {
	for _, s := range []string{"1 1:0.5 3:2\n-1 2:1\n", "1 1:1 1:2\n", "2 qid:3 1:1\n", "1 0:1\n", "1 1:1e5 2:+3\n",
		"1 3:1 2:1\n", "1 1:0.0823529 # c\n\n  \n", "1 1:\n", "1 :1\n", "+1 1:-.5\r\n", "1 1:2:3\n", "1\u00a02:1\n",
		"1 1234567890123456789:1\n", "1 4097:1\n", "a 1:1\n", "1 001:1 2:0\n"} {
		for idx := range uint8(3) {
			f.Add([]byte(s), idx)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, idx uint8) {
		opt := Options{Format: LibSVM, Indices: Indices(idx % 3), MaxValues: 1 << 16, MaxRows: 1 << 12, MaxDim: 1 << 12}
		s, err := Read(bytes.NewReader(data), "fuzz", opt)
		noPlainLines = true
		g, gerr := Read(bytes.NewReader(data), "fuzz", opt)
		noPlainLines = false
		if (err == nil) != (gerr == nil) || err != nil && err.Error() != gerr.Error() {
			t.Fatalf("%q: error %v; general reading: %v", data, err, gerr)
		}
		if err == nil && (!slices.Equal(s.RowStart, g.RowStart) || !slices.Equal(s.Index, g.Index) || !slices.Equal(s.Value, g.Value) ||
			!slices.Equal(s.Y, g.Y) || s.Dim != g.Dim || s.ZeroBased != g.ZeroBased || !slices.Equal(s.Classes, g.Classes)) {
			t.Fatalf("%q: rows %v %v %v labels %v; general reading: %v %v %v %v", data, s.RowStart, s.Index, s.Value, s.Y, g.RowStart, g.Index, g.Value, g.Y)
		}
	})
}
