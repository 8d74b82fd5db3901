package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// randomLibSVM writes n rows of seeded sparse data with dim features: each
// feature present with its own probability, on its own scale; feature 3 is
// constant where present and feature dim is only in the test file.
func randomLibSVM(seed uint64, n, dim int, extra bool) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "%d", 1+i%3)
		for j := 1; j <= dim; j++ {
			if rng.Float64() > 0.3+0.6*float64(j)/float64(dim) {
				continue
			}
			v := (rng.Float64()*2 - 0.3) * math.Pow(10, float64(j%5-2))
			if j == 3 {
				v = 2.5
			}
			fmt.Fprintf(&b, " %d:%s", j, strconv.FormatFloat(v, 'g', -1, 64))
		}
		if extra && i%4 == 0 {
			fmt.Fprintf(&b, " %d:7", dim+1)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// scaledTokens returns, per line of svm-scale output, the "index:value"
// fields (the label dropped).
func scaledTokens(out []byte) [][]string {
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		rows = append(rows, f[1:])
	}
	return rows
}

// ourTokens formats a scaled Set as svm-scale prints it ("%d:%g").
func ourTokens(s *Set) [][]string {
	var rows [][]string
	for i := range s.Rows() {
		idx, val := s.Row(i)
		f := []string{}
		for k, j := range idx {
			f = append(f, fmt.Sprintf("%d:%s", j+1, strconv.FormatFloat(val[k], 'g', 6, 64)))
		}
		rows = append(rows, f)
	}
	return rows
}

// TestScaleAgainstSvmScale fits on a training file and applies to a test
// file, as svm-scale -s and -r do, and compares every printed value.
func TestScaleAgainstSvmScale(t *testing.T) {
	if _, err := exec.LookPath("svm-scale"); err != nil {
		t.Skip("svm-scale not installed (Debian package libsvm-tools); skipping the comparison with LIBSVM")
	}
	dir := t.TempDir()
	train, test := filepath.Join(dir, "train.libsvm"), filepath.Join(dir, "test.libsvm")
	os.WriteFile(train, randomLibSVM(1, 80, 12, false), 0o644)
	os.WriteFile(test, randomLibSVM(2, 40, 12, true), 0o644)
	for _, tt := range []struct {
		method, lower, upper string
	}{{ScaleUnit, "0", "1"}, {ScalePlusMinus, "-1", "1"}} {
		t.Run(tt.method, func(t *testing.T) {
			rangeFile := filepath.Join(dir, tt.method+".range")
			wantTrain, err := exec.Command("svm-scale", "-l", tt.lower, "-u", tt.upper, "-s", rangeFile, train).Output()
			if err != nil {
				t.Fatal(err)
			}
			wantTest, err := exec.Command("svm-scale", "-r", rangeFile, test).Output()
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ReadFile(train, Options{})
			if err != nil {
				t.Fatal(err)
			}
			te, err := ReadFile(test, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sc, err := FitScaler(tr, tt.method)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name string
				set  *Set
				want []byte
			}{{"train", tr, wantTrain}, {"test", te, wantTest}} {
				got, err := sc.Apply(c.set, 0)
				if err != nil {
					t.Fatal(err)
				}
				g, w := ourTokens(got), scaledTokens(c.want)
				if len(g) != len(w) {
					t.Fatalf("%s: %d rows; svm-scale %d", c.name, len(g), len(w))
				}
				for i := range g {
					if strings.Join(g[i], " ") != strings.Join(w[i], " ") {
						t.Errorf("%s row %d:\n got %v\nwant %v (svm-scale)", c.name, i+1, g[i], w[i])
					}
				}
			}
		})
	}
}

// TestScaleStandard checks "std" against the definition computed densely.
func TestScaleStandard(t *testing.T) {
	s, err := Read(bytes.NewReader(randomLibSVM(3, 30, 6, false)), "std", Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := FitScaler(s, ScaleStandard)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sc.Apply(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	X, _ := s.Dense(0)
	G, _ := got.Dense(0)
	for j := range s.Dim {
		var mean, ss float64
		for _, x := range X {
			mean += x[j]
		}
		mean /= float64(len(X))
		for _, x := range X {
			ss += (x[j] - mean) * (x[j] - mean)
		}
		sd := math.Sqrt(ss / float64(len(X)))
		for i, x := range X {
			want := 0.0
			if sd > 0 {
				want = (x[j] - mean) / sd
			}
			if math.Abs(G[i][j]-want) > 1e-12*max(1, math.Abs(want)) {
				t.Fatalf("row %d feature %d: %v; want %v", i, j, G[i][j], want)
			}
		}
	}
}

func TestScaleBudget(t *testing.T) {
	s, err := Read(strings.NewReader("1 1:1\n2 2:1\n1 3:4\n"), "sparse", Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := FitScaler(s, ScalePlusMinus) // every zero becomes −1: 9 values
	if _, err := sc.Apply(s, 8); err == nil || !strings.Contains(err.Error(), "9 non-zero values (from 3), over the budget of 8") {
		t.Errorf("Apply over budget: %v", err)
	}
	if _, err := FitScaler(s, "minmax"); err == nil {
		t.Error("unknown method accepted")
	}
}

// TestScaleCancelled: scaling a large set stops once its context is
// cancelled (the first Ctrl-C), returning the context's error and no set.
func TestScaleCancelled(t *testing.T) {
	var b strings.Builder
	for i := range 50_000 {
		fmt.Fprintf(&b, "%d %d:%d\n", i%2, 1+i%50, 1+i%7)
	}
	s, err := Read(strings.NewReader(b.String()), "big", Options{Format: LibSVM})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := FitScaler(s, ScaleStandard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := sc.ApplyContext(ctx, s, 0); out != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, %v; want no set and context.Canceled", out, err)
	}
	if out, err := sc.ApplyContext(context.Background(), s, 0); err != nil || out.Rows() != s.Rows() {
		t.Errorf("not cancelled: %v", err)
	}
}
