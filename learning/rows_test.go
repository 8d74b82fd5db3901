package learning_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// randomRows returns n rows of dim features, a fraction density non-zero,
// with values 1 (binary) or small integers (exact in every sum order).
func randomRows(n, dim int, density float64, binary bool, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	X := make([][]float64, n)
	for i := range X {
		X[i] = make([]float64, dim)
		for k := range X[i] {
			if rng.Float64() < density {
				X[i][k] = 1
				if !binary {
					X[i][k] = float64(rng.IntN(7) - 3)
				}
			}
		}
	}
	return X
}

func forms(t *testing.T, X [][]float64) map[string]learning.Rows {
	t.Helper()
	out := map[string]learning.Rows{"dense": learning.NewDense(X)}
	var start []int
	var idx []int32
	var val []float64
	binary := true
	start = append(start, 0)
	for _, x := range X {
		for k, v := range x {
			if v != 0 {
				idx = append(idx, int32(k))
				val = append(val, v)
				binary = binary && v == 1
			}
		}
		start = append(start, len(idx))
	}
	s, err := learning.NewSparse(len(X[0]), start, idx, val)
	if err != nil {
		t.Fatal(err)
	}
	out["sparse"] = s
	if binary {
		b, err := learning.NewBits(X)
		if err != nil {
			t.Fatal(err)
		}
		out["bits"] = b
	}
	if g, ok := learning.NewGrey(X); ok {
		out["grey"] = g
	}
	exact := true
	for _, x := range X {
		exact = exact && exactF32(x)
	}
	if f, err := learning.NewFloat32(X); err == nil && exact {
		out["float32"] = f
	}
	return out
}

func exactF32(x []float64) bool {
	for _, v := range x {
		if float64(float32(v)) != v {
			return false
		}
	}
	return true
}

// Sparse.Compact32 stores dense rows that are not bytes as float32 (the
// values rounded to float32) and leaves every other form as Compact does;
// values outside float32's normal range keep float64.
func TestSparseCompact32(t *testing.T) {
	toSparse := func(X [][]float64) *learning.Sparse { return forms(t, X)["sparse"].(*learning.Sparse) }
	X := [][]float64{{0.1, 0.2, 3}, {1e-3, 0, 7.25}}
	f, ok := toSparse(X).Compact32().(*learning.Float32)
	if !ok {
		t.Fatalf("Compact32 gives %T, want *learning.Float32", toSparse(X).Compact32())
	}
	for i, x := range X {
		for k, v := range f.Row(nil, i) {
			if v != float64(float32(x[k])) {
				t.Errorf("row %d feature %d: %v, want float32(%v)", i, k, v, x[k])
			}
		}
	}
	for _, tc := range []struct {
		X    [][]float64
		want string
	}{
		{[][]float64{{1e300, 1, 2}, {3, 4, 5}}, "*learning.Dense"},
		{[][]float64{{1e-40, 1, 2}, {3, 4, 5}}, "*learning.Dense"},
		{[][]float64{{1, 0, 1}, {1, 1, 1}}, "*learning.Bits"},
		{[][]float64{{128.0 / 255, 1, 0}, {1, 1, 1}}, "*learning.Grey"},
		{[][]float64{{0, 0, 0, 0.5}, {0, 0, 0, 0}}, "*learning.Sparse"},
	} {
		if got := fmt.Sprintf("%T", toSparse(tc.X).Compact32()); got != tc.want {
			t.Errorf("Compact32(%v) gives %s, want %s", tc.X, got, tc.want)
		}
	}
	if _, err := learning.NewFloat32([][]float64{{1e300}}); err == nil {
		t.Error("NewFloat32 accepted 1e300, which is no finite float32")
	}
}

// Every form answers Dot, AddTo, SqNorm, Row and Subset as the plain loops
// over the dense rows do (integer data: sums exact in any order).
func TestRowsFormsAgree(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, dim  int
		density float64
		binary  bool
	}{
		{"binary 70 features", 9, 70, 0.4, true},
		{"binary 128 features", 5, 128, 0.9, true},
		{"integers", 8, 33, 0.3, false},
		{"empty rows", 4, 10, 0, true},
	} {
		X := randomRows(tc.n, tc.dim, tc.density, tc.binary, 7)
		w := make([]float64, tc.dim)
		for k := range w {
			w[k] = float64(k%5 - 2)
		}
		for form, r := range forms(t, X) {
			t.Run(tc.name+"/"+form, func(t *testing.T) {
				if r.Len() != tc.n || r.Dim() != tc.dim {
					t.Fatalf("Len, Dim = %d, %d; want %d, %d", r.Len(), r.Dim(), tc.n, tc.dim)
				}
				for i, x := range X {
					var dot, sq float64
					for k, v := range x {
						dot += v * w[k]
						sq += v * v
					}
					if got := r.Dot(i, w); got != dot {
						t.Errorf("row %d: Dot = %v, want %v", i, got, dot)
					}
					if got := r.SqNorm(i); got != sq {
						t.Errorf("row %d: SqNorm = %v, want %v", i, got, sq)
					}
					acc := slices.Clone(w)
					r.AddTo(acc, 2, i)
					for k := range acc {
						if want := w[k] + 2*x[k]; acc[k] != want {
							t.Fatalf("row %d: AddTo feature %d = %v, want %v", i, k, acc[k], want)
						}
					}
					if got := r.Row([]float64{9}, i); !slices.Equal(got, x) {
						t.Errorf("row %d: Row = %v, want %v", i, got, x)
					}
				}
				sub := learning.Subset(r, []int{tc.n - 1, 0})
				if sub.Len() != 2 || !slices.Equal(sub.Row(nil, 0), X[tc.n-1]) || !slices.Equal(sub.Row(nil, 1), X[0]) {
					t.Errorf("Subset(last, first) has rows %v, %v", sub.Row(nil, 0), sub.Row(nil, 1))
				}
			})
		}
	}
}

// Compact picks bits for dense 0/1 rows, sparse for rows mostly zero, and
// keeps other rows as they are.
func TestCompactChoosesForm(t *testing.T) {
	for _, tc := range []struct {
		name string
		X    [][]float64
		want string
	}{
		{"binary", randomRows(20, 100, 0.5, true, 1), "*learning.Bits"},
		{"sparse grey", randomRows(20, 300, 0.05, false, 2), "*learning.Sparse"},
		{"dense grey", randomRows(20, 30, 0.9, false, 3), "*learning.Dense"},
	} {
		if got := fmt.Sprintf("%T", learning.Compact(tc.X)); got != tc.want {
			t.Errorf("%s: Compact gives %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestNewSparseRejects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start []int
		idx   []int32
		val   []float64
		want  string
	}{
		{"lengths", []int{0, 2}, []int32{1}, []float64{1}, "do not fit"},
		{"order", []int{0, 2}, []int32{3, 1}, []float64{1, 1}, "row 0: feature index 1 out of order"},
		{"range", []int{0, 1}, []int32{10}, []float64{1}, "outside [0, 5)"},
		{"decreasing starts", []int{0, 1, 0, 1}, []int32{1}, []float64{1}, "row 1 starts at 1 but ends at 0"},
	} {
		_, err := learning.NewSparse(5, tc.start, tc.idx, tc.val)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// The learners give the same models on every form of the same integer data:
// the perceptron family, batch gradient descent and the kernel perceptron.
func TestLearnersSameOnEveryForm(t *testing.T) {
	X := randomRows(60, 90, 0.2, true, 11)
	y := make([]int, len(X))
	for i, x := range X {
		if x[0]+x[1]+x[2]+x[3] >= 1 {
			y[i] = 1
		}
	}
	learners := []learning.Learner{
		learning.Perceptron{Seed: 1, MaxEpochs: 20},
		learning.AveragedPerceptron{Seed: 1, MaxEpochs: 20},
		learning.Pocket{Seed: 1, MaxEpochs: 20},
		learning.BatchGD{Seed: 1, MaxEpochs: 20},
		learning.KernelPerceptron{Seed: 1, MaxEpochs: 20, Kernel: kernel.Polynomial{Degree: 2}},
	}
	for _, l := range learners {
		var ref []int
		for form, r := range forms(t, X) {
			res, err := l.Fit(context.Background(), &learning.Data{Rows: r, Y: y, Classes: 2}, nil)
			if err != nil {
				t.Fatalf("%s on %s: %v", l.Name(), form, err)
			}
			pred := make([]int, len(X))
			for i, x := range X {
				pred[i] = res.Model.Predict(x)
			}
			got := append(pred, res.Updates, res.Epochs)
			if ref == nil {
				ref = got
			} else if !slices.Equal(got, ref) {
				t.Errorf("%s on %s: predictions, updates, epochs %v; on another form %v", l.Name(), form, got, ref)
			}
		}
	}
}

// Data given as Rows is validated like rows of X.
func TestValidateRows(t *testing.T) {
	s, err := learning.NewSparse(3, []int{0, 1, 2}, []int32{0, 2}, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&learning.Data{Rows: s, Y: []int{0, 1}, Classes: 2}).Validate(); err != nil {
		t.Errorf("valid sparse data: %v", err)
	}
	if err := (&learning.Data{Rows: s, Y: []int{0}, Classes: 2}).Validate(); err == nil || !strings.Contains(err.Error(), "2 rows but 1 labels") {
		t.Errorf("short labels: %v", err)
	}
}

// A libsvm-style sparse table is used in place: the perceptron trains on it
// without ever making a dense row.
func ExampleSparse() {
	// Two rows of a 1,000,000-feature problem: x_0 = (feature 3: 1),
	// x_1 = (feature 999999: 2).
	rows, err := learning.NewSparse(1_000_000, []int{0, 1, 2}, []int32{3, 999_999}, []float64{1, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := learning.Perceptron{Seed: 1}.Fit(context.Background(), &learning.Data{Rows: rows, Y: []int{0, 1}, Classes: 2}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rows.Len(), rows.Dim(), res.Status.Converged())
	// Output: 2 1000000 true
}

// Sparse.Compact turns rows into the form Compact gives their dense
// version, with the same values.
func TestSparseCompactMatchesCompact(t *testing.T) {
	for _, X := range [][][]float64{
		randomRows(20, 100, 0.5, true, 1),
		randomRows(20, 300, 0.05, false, 2),
		randomRows(20, 30, 0.9, false, 3),
	} {
		s := forms(t, X)["sparse"].(*learning.Sparse)
		got, want := s.Compact(), learning.Compact(X)
		if fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
			t.Errorf("Sparse.Compact gives %T, Compact %T", got, want)
		}
		for i, x := range X {
			if !slices.Equal(got.Row(nil, i), x) {
				t.Fatalf("row %d differs after Compact", i)
			}
		}
	}
}

// Grey pictures (values b/255) become Grey bytes under Sparse.Compact, with
// the same values, and NewGrey refuses other values.
func TestGreyRows(t *testing.T) {
	X := [][]float64{{0, 128.0 / 255, 1, 7.0 / 255, 1}, {3.0 / 255, 1, 0, 9.0 / 255, 1}}
	s := forms(t, X)["sparse"].(*learning.Sparse)
	g, ok := s.Compact().(*learning.Grey)
	if !ok {
		t.Fatalf("Sparse.Compact gives %T, want *learning.Grey", s.Compact())
	}
	for i, x := range X {
		if !slices.Equal(g.Row(nil, i), x) {
			t.Errorf("row %d: %v, want %v", i, g.Row(nil, i), x)
		}
	}
	if _, ok := learning.NewGrey([][]float64{{0.5}}); ok {
		t.Error("NewGrey accepted 0.5, which is no byte over 255")
	}
}

// BitsOf takes words laid out as NewBits lays them: the same rows, and an
// error for words that are not whole rows or a bit past the last feature.
func TestBitsOf(t *testing.T) {
	X := [][]float64{make([]float64, 70), make([]float64, 70), make([]float64, 70)}
	X[0][3], X[1][64], X[1][69], X[2][0] = 1, 1, 1, 1
	b, err := learning.NewBits(X)
	if err != nil {
		t.Fatal(err)
	}
	c, err := learning.BitsOf(70, b.W)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 3 || c.Dim() != 70 {
		t.Fatalf("%d rows of %d", c.Len(), c.Dim())
	}
	for i, x := range X {
		if got := c.Row(nil, i); !slices.Equal(got, x) {
			t.Errorf("row %d: %v, want %v", i, got, x)
		}
	}
	for _, bad := range []struct {
		dim int
		w   []uint64
	}{{70, make([]uint64, 5)}, {70, []uint64{0, 1 << 6}}, {0, nil}} {
		if _, err := learning.BitsOf(bad.dim, bad.w); err == nil {
			t.Errorf("BitsOf(%d, %d words): no error", bad.dim, len(bad.w))
		}
	}
}
