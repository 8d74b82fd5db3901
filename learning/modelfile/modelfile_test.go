package modelfile

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

// threeBlobs returns n seeded rows in 3 dimensions from 3 overlapping
// clusters, a fifth of the values zero.
func threeBlobs(seed uint64, n int) *learning.Data {
	rng := rand.New(rand.NewPCG(seed, 3))
	d := &learning.Data{Classes: 3}
	for i := range n {
		c := i % 3
		x := make([]float64, 3)
		for j := range x {
			if rng.IntN(5) > 0 {
				x[j] = float64(c*(j+1)%3) + 0.8*rng.NormFloat64()
			}
		}
		d.X = append(d.X, x)
		d.Y = append(d.Y, c)
	}
	return d
}

// TestRoundTrip saves every kind of model, reads it back, and checks that
// the rebuilt model predicts exactly what the trained one does, and that a
// second save is byte for byte the first.
func TestRoundTrip(t *testing.T) {
	train := threeBlobs(1, 90)
	probe := threeBlobs(2, 200)
	two := &learning.Data{X: train.X[:60], Y: make([]int, 60), Classes: 2}
	for i := range two.Y {
		two.Y[i] = train.Y[i] % 2
	}
	sc := &dataset.Scaler{Method: dataset.ScaleUnit, Lower: 0, Upper: 1, Min: []float64{-1, -2, -3}, Max: []float64{1, 2, 3}}
	tests := []struct {
		name    string
		learner learning.Learner
		data    *learning.Data
	}{
		{"svm", svm.Kernel{Kernel: kernel.Gaussian{Sigma: 0.7}}, train},
		{"svm", svm.Kernel{Kernel: kernel.Polynomial{Degree: 2, Gamma: 0.5, Coef0: 1}}, two},
		{"svm", svm.Kernel{Kernel: kernel.Linear{}}, train},
		{"linear-svm", svm.Linear{}, train},
		{"linear-svm", svm.Linear{}, two},
		{"perceptron", learning.Perceptron{Seed: 1}, train},
		{"averaged", learning.AveragedPerceptron{Seed: 1}, two},
		{"kernel-perceptron", learning.KernelPerceptron{Kernel: kernel.Gaussian{Sigma: 1}, Seed: 1}, train},
		{"kernel-perceptron", learning.KernelPerceptron{Kernel: kernel.Linear{}, Seed: 1}, two},
	}
	for _, tt := range tests {
		res, err := tt.learner.Fit(context.Background(), tt.data, nil)
		if err != nil {
			t.Fatal(err)
		}
		classes := []string{"a", "b", "c"}[:tt.data.Classes]
		f, err := FromModel(tt.name, res.Model, classes, 3, sc, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(bytes.NewReader(buf.Bytes()), "model.json")
		if err != nil {
			t.Fatalf("%s: %v\n%s", tt.name, err, buf.Bytes())
		}
		var again bytes.Buffer
		back.Write(&again)
		if !bytes.Equal(buf.Bytes(), again.Bytes()) {
			t.Errorf("%s: the second save differs from the first", tt.name)
		}
		m, err := back.Model(5) // two extra, always-zero features
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range probe.X {
			want := res.Model.Predict(x)
			if got := m.Predict(append(x[:3:3], 0, 0)); got != want {
				t.Errorf("%s (%d classes): probe %d: rebuilt model says %d, trained %d", tt.name, tt.data.Classes, i, got, want)
			}
		}
	}
}

func TestCheck(t *testing.T) {
	good := func() *File {
		return &File{Format: FormatName, Version: Version, Learner: "perceptron", Classes: []string{"x", "y"}, Dim: 2,
			Machines: []Machine{{Pos: 1, Neg: ptr(0), W: []float64{1, 2}, B: ptr(0.5)}}}
	}
	if err := good().Check(); err != nil {
		t.Fatalf("good file: %v", err)
	}
	tests := []struct {
		name  string
		spoil func(f *File)
		want  string
	}{
		{"version", func(f *File) { f.Version = 3 }, "version 3"},
		{"one class", func(f *File) { f.Classes = f.Classes[:1] }, "1 classes"},
		{"a class twice", func(f *File) { f.Classes = []string{"x", "x"} }, `class 1: the label "x" appears twice`},
		{"learner", func(f *File) { f.Learner = "tree" }, `learner "tree"`},
		{"weights", func(f *File) { f.Machines[0].W = []float64{1} }, "needs 2 weights"},
		{"class range", func(f *File) { f.Machines[0].Pos = 5 }, "classes out of range"},
		{"machines", func(f *File) { f.Machines = append(f.Machines, f.Machines[0]) }, "2 machines for 2 classes; want 1"},
		{"kernel on a linear model", func(f *File) { f.Kernel = ptr("linear") }, "with kernel"},
		{"sv index", func(f *File) {
			f.Learner, f.Kernel = "svm", ptr("linear")
			f.SV = []Sparse{{Index: []int32{0}, Value: []float64{1}}}
			f.Machines[0] = Machine{Pos: 0, Neg: ptr(1), SV: []int{3}, Coef: []float64{1}, Rho: ptr(0.0)}
		}, "sv 3 out of range"},
		{"sv feature", func(f *File) {
			f.Learner, f.Kernel = "svm", ptr("linear")
			f.SV = []Sparse{{Index: []int32{2}, Value: []float64{1}}}
			f.Machines[0] = Machine{Pos: 0, Neg: ptr(1), SV: []int{0}, Coef: []float64{1}, Rho: ptr(0.0)}
		}, "not below dim 2"},
		{"scale", func(f *File) { f.Scale = &dataset.Scaler{Method: "01", Lower: 1, Upper: 0} }, "lower < upper"},
	}
	for _, tt := range tests {
		f := good()
		tt.spoil(f)
		if err := f.Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want an error with %q", tt.name, err, tt.want)
		}
	}
}

// FuzzDecode: whatever Decode accepts can be rebuilt and asked to predict
// without a panic, and writes back to the same value.
func FuzzDecode(f *testing.F) {
	train := threeBlobs(1, 30)
	for _, l := range []learning.Learner{svm.Kernel{Kernel: kernel.Gaussian{Sigma: 1}}, svm.Linear{}, learning.KernelPerceptron{Seed: 1}} {
		res, err := l.Fit(context.Background(), train, nil)
		if err != nil {
			f.Fatal(err)
		}
		mf, err := FromModel(l.Name(), res.Model, []string{"1", "2", "3"}, 3, nil, nil, nil)
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		mf.Write(&buf)
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		mf, err := Decode(bytes.NewReader(b), "fuzz.json")
		// ReadCompact's decoding accepts and refuses the same files, and
		// holds the same model once its vectors are in SV again.
		mc, errc := decode(bytes.NewReader(b), "fuzz.json", &compact{size: int64(len(b))})
		if (err == nil) != (errc == nil) {
			t.Fatalf("Decode: %v; compact: %v", err, errc)
		}
		if err == nil && !reflect.DeepEqual(mf, mc.full()) {
			t.Fatalf("the compact decoding holds another model")
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json: ") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if mf.Dim > 1<<12 {
			return // big but valid; too slow to predict here
		}
		m, err := mf.Model(mf.Dim + 1)
		if err != nil {
			return
		}
		m.Predict(make([]float64, mf.Dim+1))
		var buf bytes.Buffer
		if err := mf.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(&buf, "back")
		if err != nil {
			t.Fatalf("written model does not read back: %v", err)
		}
		if !reflect.DeepEqual(mf, back) {
			t.Fatalf("round trip changed the model")
		}
		WriteLIBSVM(&bytes.Buffer{}, mf)
		WriteLIBLINEAR(&bytes.Buffer{}, mf, false)
	})
}
