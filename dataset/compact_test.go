package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// greyText writes n rows of dim grey levels (b/255 with 17 digits, or
// with 6 when six) in libsvm text, 1-based, about half of them zero;
// row r's label is r%3.
func greyText(seed uint64, n, dim int, six bool) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for r := range n {
		fmt.Fprintf(&b, "%d", r%3)
		for k := 1; k <= dim; k++ {
			if rng.IntN(2) == 0 {
				continue
			}
			v := float64(1+rng.IntN(255)) / 255
			if six {
				fmt.Fprintf(&b, " %d:%.6g", k, v)
			} else {
				fmt.Fprintf(&b, " %d:%.17g", k, v)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestReadFileCompact: the compact rows are the rows ReadFile reads —
// bytes b/255 that are the values read, or those values rounded to
// float32 — with the same labels, classes and features, in every format
// and block size, through a grey file turning float32 midway and one
// whose features widen; files the learners keep sparse come back as
// ReadFileBlocks's blocks.
func TestReadFileCompact(t *testing.T) {
	write := tempFiles(t)
	labels := make([]byte, 40)
	for i := range labels {
		labels[i] = byte(i % 4)
	}
	im, lb := mnistLike(40, 4, 5, labels)
	idxDir := t.TempDir()
	for name, x := range map[string]*IDXFile{"t-images-idx3-ubyte": im, "t-labels-idx1-ubyte": lb} {
		if err := os.WriteFile(filepath.Join(idxDir, name), []byte(idxBytes(t, x)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	grey := greyText(1, 50, 12, false)
	turning := grey + "1 1:0.3 2:0.25 3:1 4:1 5:1 6:1 7:1\n" + greyText(2, 20, 12, false)
	widening := greyText(3, 30, 6, false) + greyText(4, 30, 12, false)
	sparseLater := greyText(5, 10, 6, false) + strings.Repeat("1 600:0.5\n", 50)
	cases := []struct {
		name, path string
		kind       string // "bytes", "float32" or "blocks"
	}{
		{"libsvm grey", write("g.libsvm", grey), "bytes"},
		{"libsvm grey gzip", write("g.libsvm.gz", gzipped(grey)), "bytes"},
		{"libsvm 6 digits", write("s.libsvm", greyText(6, 50, 12, true)), "float32"},
		{"libsvm 0-based", write("z.libsvm", "1 0:0.5 1:2 2:1\n0 0:1 2:3\n1 1:1 2:0.25\n0 0:2 1:2\n"), "float32"},
		{"grey turning float32", write("t.libsvm", turning), "float32"},
		{"widening", write("w.libsvm", widening), "bytes"},
		{"csv", write("c.csv", "a,b,c,label\n1,0,2.5,x\n0,3,1,y\n4,4,0,x\n1,1,1,z\n"), "float32"},
		{"csv last column zero", write("c0.csv", "a,b,c,label\n1,2,0,x\n3,1,0,y\n2,2,0,x\n"), "float32"},
		{"text", write("t.txt", "1 0.5 2 a\n0 1 1 b\n2 2 0 a\n"), "float32"},
		{"idx", filepath.Join(idxDir, "t-images-idx3-ubyte"), "bytes"},
		{"sparse", write("sp.libsvm", "1 1:1 90:2\n0 5:1\n1 40:0.5\n"), "blocks"},
		{"binary", write("b.libsvm", "1 1:1 2:1 3:1\n0 1:1 3:1\n1 2:1 3:1\n"), "blocks"},
		{"sparse after a dense start", write("sl.libsvm", sparseLater), "blocks"},
		{"tiny values", write("tv.libsvm", "1 1:1e-40 2:1\n0 1:1 2:2\n"), "blocks"},
		{"±1 labels", write("pm.libsvm", "-1 1:0.5 2:1\n1 1:1 2:0.25\n-1 1:2 2:2\n"), "float32"},
		{"negative, rounded", write("n.libsvm", "1 1:-0.1 2:1 3:1e30\n0 1:1 2:-3.3333333333 3:1\n1 1:0.9999999999 2:1 3:1\n"), "float32"},
	}
	for _, c := range cases {
		want, err := ReadFile(c.path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, rows := range []int{1, 3, 7, 4096} {
			set, comp, blocks, err := ReadFileCompact(context.Background(), c.path, Options{}, rows)
			if err != nil {
				t.Fatalf("%s, blocks of %d: %v", c.name, rows, err)
			}
			kind := "blocks"
			switch {
			case comp != nil && comp.Grey != nil:
				kind = "bytes"
			case comp != nil:
				kind = "float32"
			}
			if kind != c.kind {
				t.Errorf("%s, blocks of %d: %s; want %s", c.name, rows, kind, c.kind)
			}
			if set.Dim != want.Dim || set.Rows() != want.Rows() || fmt.Sprint(set.Classes) != fmt.Sprint(want.Classes) || fmt.Sprint(set.Y) != fmt.Sprint(want.Y) {
				t.Errorf("%s, blocks of %d: dim %d, %d rows, classes %v; want %d, %d, %v", c.name, rows, set.Dim, set.Rows(), set.Classes, want.Dim, want.Rows(), want.Classes)
				continue
			}
			checkCompactRows(t, fmt.Sprintf("%s, blocks of %d", c.name, rows), c.path, rows, want, comp)
			if comp == nil {
				if len(blocks) == 0 {
					t.Errorf("%s, blocks of %d: neither compact rows nor blocks", c.name, rows)
				}
				continue
			}
			exact := true
			for _, v := range want.Value {
				exact = exact && float64(float32(v)) == v
			}
			if comp.Exact != (comp.Grey != nil || exact) {
				t.Errorf("%s, blocks of %d: Exact %v; want %v", c.name, rows, comp.Exact, !comp.Exact)
			}
			if v := want.Variance(); math.Abs(comp.Variance-v) > 1e-12*v {
				t.Errorf("%s, blocks of %d: variance %v; want %v", c.name, rows, comp.Variance, v)
			}
			if comp.Rows() != want.Rows() || comp.Dim != want.Dim {
				t.Errorf("%s, blocks of %d: compact %v; want %d rows × %d", c.name, rows, comp, want.Rows(), want.Dim)
				continue
			}
			if comp.Fingerprint != "" || comp.Info != nil {
				t.Errorf("%s, blocks of %d: described without being asked", c.name, rows)
			}
			checkDescribed(t, fmt.Sprintf("%s, blocks of %d", c.name, rows), c.path, rows, want, comp)
			for i := range want.Rows() {
				row := want.DenseRow(nil, i)
				for k, v := range row {
					var got, exp float64
					if comp.Grey != nil {
						got, exp = float64(comp.Grey[i*comp.Dim+k])/255, v
					} else {
						got, exp = float64(comp.Float32[i*comp.Dim+k]), float64(float32(v))
					}
					if got != exp {
						t.Fatalf("%s, blocks of %d: row %d feature %d: %v; want %v", c.name, rows, i, k, got, exp)
					}
				}
			}
		}
	}
}

// checkDescribed: ReadFileDescribed keeps the rows ReadFileCompact keeps
// (comp), and describes them as read (want): their fingerprint and every
// row's RowInfo.
func checkDescribed(t *testing.T, name, path string, rows int, want *Set, comp *Compact) {
	t.Helper()
	_, plain, _, err := ReadFileDescribed(context.Background(), path, Options{}, rows, false)
	if err != nil {
		t.Fatalf("%s: described: %v", name, err)
	}
	if plain.Fingerprint != "" {
		t.Errorf("%s: a fingerprint not asked for", name)
	}
	_, got, _, err := ReadFileDescribed(context.Background(), path, Options{}, rows, true)
	if err != nil {
		t.Fatalf("%s: described: %v", name, err)
	}
	if fmt.Sprint(plain.Info) != fmt.Sprint(got.Info) {
		t.Errorf("%s: rows described otherwise with their fingerprint", name)
	}
	if got == nil || fmt.Sprint(got.Grey, got.Float32, got.Exact, got.Variance) != fmt.Sprint(comp.Grey, comp.Float32, comp.Exact, comp.Variance) {
		t.Fatalf("%s: described rows differ from ReadFileCompact's", name)
	}
	if fp := want.Fingerprint(); got.Fingerprint != fp {
		t.Errorf("%s: fingerprint %.12s; want %.12s", name, got.Fingerprint, fp)
	}
	if len(got.Info) != want.Rows() {
		t.Fatalf("%s: %d rows described; want %d", name, len(got.Info), want.Rows())
	}
	for i := range want.Rows() {
		_, val := want.Row(i)
		w := RowInfo{NonZeros: int32(len(val)), Ones: true, Grey: true}
		for _, v := range val {
			w.Ones, w.Grey = w.Ones && v == 1, w.Grey && isGrey(v)
		}
		if got.Info[i] != w {
			t.Errorf("%s: row %d: %+v; want %+v", name, i, got.Info[i], w)
		}
	}
}

// checkCompactRows: ReadFileCompactVisit keeping every row but one in
// three (the first kept or not) holds the rows of whole, the whole file's
// Compact, that it keeps, in the same form with the same Exact and
// Variance, to the bit; a file read as blocks gives none.
func checkCompactRows(t *testing.T, name, path string, rows int, want *Set, whole *Compact) {
	t.Helper()
	for _, skip := range []int{0, 1} {
		keep := make([]bool, want.Rows())
		var kept []int
		for r := range keep {
			if keep[r] = r%3 != skip; keep[r] {
				kept = append(kept, r)
			}
		}
		set, comp, err := ReadFileCompactVisit(context.Background(), path, Options{}, rows, keep, nil)
		if err != nil {
			t.Fatalf("%s, rows kept: %v", name, err)
		}
		if whole == nil {
			if comp != nil || set != nil {
				t.Errorf("%s, rows kept: %v, %v; want none (blocks)", name, set, comp)
			}
			continue
		}
		if fmt.Sprint(set.Y) != fmt.Sprint(want.Y) || fmt.Sprint(set.Classes) != fmt.Sprint(want.Classes) || set.Dim != want.Dim {
			t.Errorf("%s, rows kept: labels %v, classes %v, dim %d; want %v, %v, %d", name, set.Y, set.Classes, set.Dim, want.Y, want.Classes, want.Dim)
		}
		if comp == nil || comp.Dim != whole.Dim || (comp.Grey == nil) != (whole.Grey == nil) || comp.Exact != whole.Exact ||
			math.Float64bits(comp.Variance) != math.Float64bits(whole.Variance) || comp.Rows() != len(kept) {
			t.Errorf("%s, rows kept: %v; want %d rows as %v", name, comp, len(kept), whole)
			continue
		}
		d := whole.Dim
		for k, r := range kept {
			if whole.Grey != nil && string(comp.Grey[k*d:(k+1)*d]) != string(whole.Grey[r*d:(r+1)*d]) ||
				whole.Grey == nil && fmt.Sprint(comp.Float32[k*d:(k+1)*d]) != fmt.Sprint(whole.Float32[r*d:(r+1)*d]) {
				t.Fatalf("%s, rows kept: row %d is not row %d of the whole", name, k, r)
			}
		}
	}
}

// TestReadFileCompactBudget: a budget too small for the parsed rows of a
// grey file (12 bytes a value) holds its compact rows (1 byte a feature),
// and a budget too small for those refuses the file at the row that
// passes it, as the memory budget.
func TestReadFileCompactBudget(t *testing.T) {
	path := tempFiles(t)("g.libsvm", greyText(7, 2000, 40, false))
	// about 40,000 values: 480 kB parsed, 80 kB compact (+ 32 kB of rows)
	opt := Options{MaxBytes: 200_000}
	if _, err := ReadFile(path, opt); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ReadFile within 200 kB: %v; want ErrTooLarge", err)
	}
	_, comp, _, err := ReadFileCompact(context.Background(), path, opt, 100)
	if err != nil || comp == nil || comp.Grey == nil || comp.Rows() != 2000 {
		t.Fatalf("ReadFileCompact within 200 kB: %v, %v; want 2000 rows of bytes", comp, err)
	}
	_, _, _, err = ReadFileCompact(context.Background(), path, Options{MaxBytes: 60_000}, 100)
	if !errors.Is(err, ErrTooLarge) || BoundOf(err) != BoundBudget || !strings.Contains(err.Error(), "held dense") {
		t.Errorf("ReadFileCompact within 60 kB: %v; want the memory budget's refusal", err)
	}
}

// TestCompactVarianceBlockFree reads a file of several statsChunks of
// values a block of rows at a time, for several block sizes: the variance
// of rows that are not exact is the same to the bit whatever the block,
// so fit, a fold of cross-validation and a sweep task, each reading with
// its own block size, find the same γ = scale.
func TestCompactVarianceBlockFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	var b strings.Builder
	for r := range 700 { // 700 × 400 × ~0.8 ≈ 3.4 statsChunks of values
		fmt.Fprintf(&b, "%d", r%3)
		for k := 1; k <= 400; k++ {
			if rng.Float64() < 0.8 {
				fmt.Fprintf(&b, " %d:%.6g", k, rng.Float64()*3)
			}
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "v.libsvm")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var first float64
	for i, rows := range []int{1, 7, 256, 4096} {
		_, comp, _, err := ReadFileCompact(context.Background(), path, Options{}, rows)
		if err != nil || comp == nil || comp.Exact {
			t.Fatalf("blocks of %d: %v, %v: want float32 rows that are not exact", rows, comp, err)
		}
		if i == 0 {
			first = comp.Variance
		}
		if math.Float64bits(comp.Variance) != math.Float64bits(first) {
			t.Errorf("blocks of %d: variance %v; blocks of 1: %v", rows, comp.Variance, first)
		}
		if v := want.Variance(); math.Abs(comp.Variance-v) > 1e-13*v {
			t.Errorf("blocks of %d: variance %v; Set.Variance %v", rows, comp.Variance, v)
		}
	}
}

// TestReadFileCompactVisit: the visitor sees every row as ReadFile reads
// it, 0-based, in file order, whether the rows are kept or not; with no
// rows kept the compact rows still have the whole file's form, Exact and
// Variance.
func TestReadFileCompactVisit(t *testing.T) {
	write := tempFiles(t)
	grey := greyText(1, 600, 12, false)
	zero := strings.ReplaceAll(greyText(2, 300, 12, true), " 1:", " 0:") // 0-based: an index 0
	cases := []struct {
		name, path string
		indices    Indices
	}{
		{"libsvm, 1-based, told", write("g.libsvm", grey), OneBased},
		{"libsvm, 0-based, told", write("z.libsvm", zero), ZeroBased},
		{"libsvm, 1-based, fewer rows than a block", write("s.libsvm", greyText(3, 20, 12, false)), OneBased},
		{"csv", write("c.csv", "a,b,c,label\n1,0,2.5,x\n0,3,1,y\n4,4,0,x\n1,1,1,z\n"), AutoIndices},
	}
	for _, c := range cases {
		want, err := ReadFile(c.path, Options{Indices: c.indices})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, whole, _, err := ReadFileCompact(context.Background(), c.path, Options{Indices: c.indices}, 256)
		if err != nil {
			t.Fatal(err)
		}
		keep := make([]bool, want.Rows())
		keep[1] = true
		for _, k := range [][]bool{nil, keep} {
			rows := 0
			set, comp, err := ReadFileCompactVisit(context.Background(), c.path, Options{Indices: c.indices}, 256, k, func(b Block) error {
				if b.First != rows {
					t.Errorf("%s: a block from row %d after %d rows", c.name, b.First, rows)
				}
				for r := range b.Rows() {
					got := make([]float64, want.Dim)
					for m := b.RowStart[r]; m < b.RowStart[r+1]; m++ {
						got[b.Index[m]-b.Base] = b.Value[m]
					}
					if fmt.Sprint(got) != fmt.Sprint(want.DenseRow(nil, b.First+r)) {
						t.Fatalf("%s: row %d seen as %v; want %v", c.name, b.First+r, got, want.DenseRow(nil, b.First+r))
					}
				}
				rows += b.Rows()
				return nil
			})
			if err != nil || comp == nil {
				t.Fatalf("%s: %v, %v", c.name, comp, err)
			}
			if rows != want.Rows() || fmt.Sprint(set.Y) != fmt.Sprint(want.Y) {
				t.Errorf("%s: %d rows seen, labels %v; want %d, %v", c.name, rows, set.Y, want.Rows(), want.Y)
			}
			if (comp.Grey != nil) != (whole.Grey != nil) || (comp.Float32 != nil) != (whole.Float32 != nil) || comp.Exact != whole.Exact ||
				math.Float64bits(comp.Variance) != math.Float64bits(whole.Variance) {
				t.Errorf("%s: form %v %v, Exact %v, variance %v; want the whole file's, %v %v, %v, %v", c.name,
					comp.Grey != nil, comp.Float32 != nil, comp.Exact, comp.Variance, whole.Grey != nil, whole.Float32 != nil, whole.Exact, whole.Variance)
			}
			if held := comp.Rows(); k == nil && held != 0 || k != nil && held != 1 {
				t.Errorf("%s: %d rows held", c.name, held)
			}
		}
	}
}
