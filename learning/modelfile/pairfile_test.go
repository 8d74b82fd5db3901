package modelfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// RunPairFile, holding only a task's rows, finds the result RunTask finds
// with the data in memory, to the bit, for every task of plans split by
// pair: on grey levels (libsvm text and an IDX pair, held as bytes),
// other dense values (float32; 6 digits, as the Fashion files), sparse
// rows, integers, γ given, auto and scale (the variance of the fold's
// whole training part, read again), class weights, warm and cold; and
// every scaling on each (fitted on a pass of its own, dataset.ScalerFit,
// to the bit as dataset.FitScaler on the training part held). Other data
// of the plan's shape are refused.
func TestRunPairFile(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 9))
	const rows, dim = 1200, 8
	labels := make([]byte, rows)
	X := make([][]float64, rows)
	for i := range X {
		labels[i] = byte(rng.IntN(3))
		X[i] = make([]float64, dim)
	}
	value := map[string]func(c byte, j int) float64{
		"grey": func(c byte, j int) float64 {
			return float64(min(255, max(0, int(c)*40+j*10+rng.IntN(90)-20))) / 255
		},
		"float": func(c byte, j int) float64 { return float64(c)*0.3 + float64(j)*0.05 + rng.NormFloat64()*0.2 },
		"sparse": func(c byte, j int) float64 {
			if j != int(c) && rng.IntN(10) != 0 { // a fifth of the values: sparse rows
				return 0
			}
			return 0.5 + rng.Float64()
		},
		"6g": func(c byte, j int) float64 {
			v, err := strconv.ParseFloat(strconv.FormatFloat(float64(c)*0.3+float64(j)*0.05+rng.Float64()*0.4, 'g', 6, 64), 64)
			if err != nil {
				panic(err)
			}
			return v
		},
		"int": func(c byte, j int) float64 {
			if rng.IntN(4) == 0 {
				return 0
			}
			return float64(int(c)*200 + j*30 + rng.IntN(300))
		},
	}
	files := map[string]string{}
	for kind, v := range value {
		var b strings.Builder
		img := make([]byte, 0, rows*dim)
		for i, x := range X {
			fmt.Fprintf(&b, "%d", labels[i]+1)
			for j := range x {
				x[j] = v(labels[i], j)
				if x[j] != 0 {
					fmt.Fprintf(&b, " %d:%.17g", j+1, x[j])
				}
				img = append(img, byte(min(255, max(0, x[j]*255))))
			}
			b.WriteString("\n")
		}
		files[kind] = filepath.Join(dir, kind+".libsvm")
		if err := os.WriteFile(files[kind], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if kind == "grey" {
			files["idx"] = filepath.Join(dir, "grey-images-idx3-ubyte")
			for path, f := range map[string]*dataset.IDXFile{
				files["idx"]: {Dims: []int{rows, 2, dim / 2}, Data: img},
				filepath.Join(dir, "grey-labels-idx1-ubyte"): {Dims: []int{rows}, Data: labels},
			} {
				var w bytes.Buffer
				if err := dataset.WriteIDX(&w, f); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, w.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	spec, err := learners.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, scale string
		gamma             []string
		opts              map[string]string
		warm              bool
	}{
		{"grey", "grey", "none", []string{"0.5", "auto"}, nil, true},
		{"idx", "idx", "none", []string{"2"}, map[string]string{"class-weight": "balanced"}, true},
		{"float32", "float", "none", []string{"0.25"}, nil, true},
		{"sparse, cold", "sparse", "none", []string{"1"}, map[string]string{"class-weight": "balanced"}, false},
		{"poly", "float", "none", []string{"0.5"}, map[string]string{"kernel": "poly"}, true},
		{"01, grey", "grey", "01", []string{"0.5"}, nil, true},
		{"pm1, grey", "grey", "pm1", []string{"scale"}, nil, true},
		{"std, grey", "grey", "std", []string{"auto"}, map[string]string{"class-weight": "balanced"}, false},
		{"01, idx", "idx", "01", []string{"scale"}, nil, true},
		{"01, 6 digits", "6g", "01", []string{"scale"}, nil, true},
		{"pm1, 6 digits", "6g", "pm1", []string{"0.25"}, map[string]string{"class-weight": "balanced"}, true},
		{"std, 6 digits", "6g", "std", []string{"scale", "0.5"}, nil, true},
		{"01, sparse", "sparse", "01", []string{"1"}, map[string]string{"class-weight": "balanced"}, false},
		{"pm1, sparse", "sparse", "pm1", []string{"scale"}, nil, true},
		{"std, sparse", "sparse", "std", []string{"0.5"}, nil, true},
		{"01, integers", "int", "01", []string{"scale"}, nil, true},
		{"pm1, integers", "int", "pm1", []string{"auto"}, map[string]string{"class-weight": "balanced"}, true},
		{"std, integers", "int", "std", []string{"scale"}, nil, true},
		{"gamma scale, float32", "float", "none", []string{"scale"}, nil, true},
		{"gamma scale, grey", "grey", "none", []string{"scale", "1"}, nil, true},
		{"gamma scale, sparse", "sparse", "none", []string{"scale"}, map[string]string{"class-weight": "balanced"}, true},
	}
	ctx := context.Background()
	for _, tt := range tests {
		set, err := dataset.ReadFile(files[tt.file], dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opts := learners.Defaults()
		for k, v := range tt.opts {
			if err := opts.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		l := Setup{Spec: spec, Options: opts, Scale: tt.scale}
		p, err := l.NewPlan(set, selection.DataOf(files[tt.file], set, ""), Grid{C: []float64{1, 10}, Gamma: tt.gamma}, 2, 1, tt.warm)
		if err == nil {
			err = p.ByPair()
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Tasks {
			want, err := l.RunTask(ctx, p, set, i, 1)
			if err != nil {
				t.Fatalf("%s: task %d in memory: %v", tt.name, i, err)
			}
			got, classes, err := l.RunPairFile(ctx, p, "plan.json", "", 0, i, 1)
			if err != nil {
				t.Fatalf("%s: task %d: %v", tt.name, i, err)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(classes, set.Classes) {
				t.Errorf("%s: task %d: %+v, classes %v\nin memory %+v, classes %v", tt.name, i, got, classes, want, set.Classes)
			}
		}
		if tt.gamma[0] == "scale" || tt.scale != "none" { // the variance behind γ, to the bit
			labels, err := dataset.ReadLabels(ctx, files[tt.file], dataset.Options{}, 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range []int{0, p.Tasks - 1} {
				task, err := p.PairTask(labels.Y, labels.Classes, i)
				if err != nil {
					t.Fatal(err)
				}
				train := set.Subset(task.Train)
				var sc *dataset.Scaler
				if tt.scale != "none" { // the scaler, to the bit, and the data's fingerprint
					var fp string
					if sc, fp, err = fitPairScaler(ctx, files[tt.file], dataset.Options{}, labels, task.Train, tt.scale); err != nil {
						t.Fatal(err)
					}
					want, err := dataset.FitScaler(train, tt.scale)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(sc, want) || fp != set.Fingerprint() {
						t.Errorf("%s: task %d: scaler %+v, fingerprint %.12s; of the training part held %+v, %.12s", tt.name, i, sc, fp, want, set.Fingerprint())
					}
					if train, err = want.Apply(train, 0); err != nil {
						t.Fatal(err)
					}
				}
				counts := learning.NewRowCounts(labels.Dim)
				if _, err := readPairRows(ctx, files[tt.file], dataset.Options{}, labels, task, sc, counts); err != nil {
					t.Fatal(err)
				}
				rows, err := Rows(train)
				if err != nil {
					t.Fatal(err)
				}
				got, err := trainVariance(ctx, files[tt.file], dataset.Options{}, labels.Dim, task.Train, sc, counts)
				if want := learners.Variance(rows); err != nil || got != want {
					t.Errorf("%s: task %d: variance %v, %v; of the training part held %v (%T)", tt.name, i, got, err, want, rows)
				}
			}
		}
		if tt.file == "grey" {
			if _, _, err := l.RunPairFile(ctx, p, "plan.json", files["float"], 0, 0, 1); err == nil || !strings.Contains(err.Error(), "not the plan's data") {
				t.Errorf("%s: other data: %v", tt.name, err)
			}
		}
	}
}

// With a scaling, RunPairFile reads the file a block at a time, as it
// does without: within a memory budget below the whole file's rows but
// above a block's it finds the result RunTask finds on the data held,
// which cannot be read whole within it.
func TestRunPairFileScaledBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.libsvm")
	rng := rand.New(rand.NewPCG(5, 1))
	const rows, dim = 3 * pairBlockRows, 8 // whole: 1.4 MB of rows; a block: 0.46 MB
	var b strings.Builder
	for range rows {
		c := rng.IntN(3)
		fmt.Fprintf(&b, "%d", c)
		for j := range dim {
			fmt.Fprintf(&b, " %d:%.6g", j+1, float64(c)*0.3+float64(j)*0.05+rng.Float64()*0.4)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := dataset.ReadFile(path, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := learners.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	const budget = 800 << 10
	ctx := context.Background()
	for _, scale := range []string{"pm1", "std"} {
		l := Setup{Spec: spec, Options: learners.Defaults(), Scale: scale}
		p, err := l.NewPlan(set, selection.DataOf(path, set, ""), Grid{C: []float64{1}, Gamma: []string{"scale"}}, 2, 1, false)
		if err == nil {
			err = p.ByPair()
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.ReadData(ctx, "plan.json", "", budget); !errors.Is(err, dataset.ErrTooLarge) {
			t.Fatalf("%s: the whole file read within %d bytes: %v; want it too large", scale, budget, err)
		}
		want, err := l.RunTask(ctx, p, set, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := l.RunPairFile(ctx, p, "plan.json", "", budget, 0, 1)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: within %d bytes: %+v, %v\nin memory %+v", scale, budget, got, err, want)
		}
	}
}
