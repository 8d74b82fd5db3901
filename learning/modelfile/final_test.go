package modelfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/learning/learners"
)

// writeClasses writes a libsvm file of n rows of dim features from four
// classes in a shuffled order: values b/255 (grey), 6-digit numbers
// (float32, not exact), or a few non-zeros a row (sparse, read in blocks).
func writeClasses(t *testing.T, kind string, n, dim int) string {
	return writeFourClasses(t, kind, n, 7, func(b *strings.Builder, rng *rand.Rand, c int) {
		for j := range dim {
			switch kind {
			case "sparse":
				if rng.IntN(6) != 0 {
					continue
				}
			default:
				if rng.IntN(3) == 0 {
					continue
				}
			}
			v := float64(c*(j+1)%4)/4 + 0.35*rng.Float64()
			switch kind {
			case "grey":
				fmt.Fprintf(b, " %d:%.17g", j+1, float64(int(v*200)+1)/255)
			default:
				fmt.Fprintf(b, " %d:%.6g", j+1, v)
			}
		}
	})
}

// writeFourClasses writes name.libsvm in a test's folder: n rows of four
// classes (labels 1, 11, 21, 31) in a shuffled order, drawn by a
// generator seeded with seed and the name's length; features writes the
// " j:v" pairs of a row of class c.
func writeFourClasses(t *testing.T, name string, n int, seed uint64, features func(b *strings.Builder, rng *rand.Rand, c int)) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(len(name))))
	var b strings.Builder
	for range n {
		c := rng.IntN(4)
		fmt.Fprintf(&b, "%d", 10*c+1)
		features(&b, rng, c)
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), name+".libsvm")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fitRead reads path as fit does: compact (or in blocks) unless scaled,
// else whole and scaled; it returns the data and their fingerprint.
func fitRead(t *testing.T, path, scale string) (*dataset.Set, []*dataset.Set, FitOptions, string) {
	t.Helper()
	if scale == "none" {
		s, c, blocks, err := dataset.ReadFileCompact(context.Background(), path, dataset.Options{}, 64)
		if err != nil {
			t.Fatal(err)
		}
		return s, blocks, FitOptions{Compact: c}, FitFingerprint(s, blocks, c)
	}
	s, err := dataset.ReadFile(path, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fp := FitFingerprint(s, nil, nil)
	sc, err := dataset.FitScaler(s, scale)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = sc.Apply(s, 0); err != nil {
		t.Fatal(err)
	}
	return s, nil, FitOptions{Scaler: sc}, fp
}

// TestJoinPairsIsFit trains the kernel SVM's final model a binary problem
// at a time, each from a fresh read of the file, in a shuffled order, and
// checks that the joined model file is Fit's byte for byte: grey, float32
// and sparse rows, scaled rows, γ of scale, balanced class weights, the
// poly kernel.
func TestJoinPairsIsFit(t *testing.T) {
	ctx := context.Background()
	spec, err := learners.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		kind, scale string
		set         map[string]string
	}{
		{"grey", "none", map[string]string{"C": "3"}},
		{"float", "none", map[string]string{"C": "10", "class-weight": "balanced"}},
		{"sparse", "none", map[string]string{"C": "2", "gamma": "auto"}},
		{"float", "01", map[string]string{"C": "1", "kernel": "poly", "gamma": "0.5", "class-weight": "11=2,31=0.5"}},
	}
	for _, tc := range tests {
		t.Run(tc.kind+"-"+tc.scale, func(t *testing.T) {
			path := writeClasses(t, tc.kind, 300, 12)
			opts := learners.Defaults()
			for k, v := range tc.set {
				if err := opts.Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			train, blocks, o, fp := fitRead(t, path, tc.scale)
			c := o.Compact
			if form := map[string]bool{"grey": c != nil && c.Grey != nil, "float": tc.scale != "none" || c != nil && c.Float32 != nil && !c.Exact,
				"sparse": blocks != nil}; !form[tc.kind] {
				t.Fatalf("%s rows not read as such", tc.kind)
			}
			fitted, err := Fit(ctx, spec, opts, train, blocks, o)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := fitted.File.Write(&want); err != nil {
				t.Fatal(err)
			}
			const pairs = 6
			got := make([]PairModel, pairs)
			for _, q := range rand.New(rand.NewPCG(1, 2)).Perm(pairs) {
				train, blocks, o, fq := fitRead(t, path, tc.scale)
				if fq != fp {
					t.Fatalf("fingerprint %s, then %s", fp, fq)
				}
				pm, err := FitPair(ctx, spec, opts, train, blocks, o, q)
				if err != nil {
					t.Fatal(err)
				}
				got[q] = *pm
			}
			train, blocks, o, _ = fitRead(t, path, tc.scale)
			f, err := JoinPairs(ctx, spec, opts, train, blocks, o, got)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want.Bytes()) {
				t.Fatalf("joined model (%d bytes) is not fit's (%d bytes)", b.Len(), want.Len())
			}
			got[2].Pos = 3
			train, blocks, o, _ = fitRead(t, path, tc.scale)
			if _, err := JoinPairs(ctx, spec, opts, train, blocks, o, got); !errors.Is(err, ErrPairs) {
				t.Fatalf("machines of other classes joined: %v", err)
			}
		})
	}
}
