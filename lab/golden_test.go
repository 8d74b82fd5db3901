package lab

import (
	"bytes"
	"context"
	"flag"
	"mark1/internal/testtool"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenTrace is a run kept as text: name.txt of the example ex run with
// the setup s.
type goldenTrace struct {
	name, ex string
	s        Setup
}

// TestGoldenTraces keeps the notes' trace (004) as text and JSON.
func TestGoldenTraces(t *testing.T) {
	ctx := context.Background()
	for _, c := range []goldenTrace{
		{"notes-004", "notes-004", Setup{}},
		{"needs-bias-gd", "needs-bias", Setup{Learner: "batch-gd", Bias: true, Eps: 0.5}},
		{"xor-kernel", "xor", Setup{Learner: "kernel-perceptron", Kernel: "poly:d=2,gamma=1"}},
		{"pizza-001-svm", "pizza-001", Setup{Learner: "svm", Hard: true}},
		{"xor-a-layer", "xor", Setup{Learner: "a-layer", Units: 8, Seed: 3}},
		{"xor-a-layer-raster", "xor", Setup{Learner: "a-layer", Units: 8, UnitKind: Raster, Seed: 3}},
	} {
		r, err := Start(ctx, mustFind(t, c.ex), c.s)
		if err != nil {
			t.Fatal(err)
		}
		var text, js bytes.Buffer
		if err := r.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		testtool.Golden(t, c.name+".txt", text.Bytes(), *update)
		if c.name == "notes-004" {
			testtool.Golden(t, c.name+".json", js.Bytes(), *update)
		}
	}
}

// TestGoldenPictures keeps a few pictures; look at them after -update.
func TestGoldenPictures(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		ex    string
		s     Setup
		view  string
		frame int
	}{
		{"notes-004-w-step5.png", "notes-004", Setup{}, "w", 5},
		{"notes-004-x.png", "notes-004", Setup{}, "x", -1},
		{"xor-kernel-regions.png", "xor", Setup{Learner: "kernel-perceptron", Kernel: "poly:d=2,gamma=1"}, "regions", -1},
		{"notes-004-theorem.png", "notes-004", Setup{}, "theorem", -1},
		{"xor-a-layer-units.png", "xor", Setup{Learner: "a-layer", Units: 8, Seed: 3}, "units", -1},
		{"xor-a-layer-raster-units.png", "xor", Setup{Learner: "a-layer", Units: 8, UnitKind: Raster, Seed: 3}, "units", -1},
	} {
		r, err := Start(ctx, mustFind(t, c.ex), c.s)
		if err != nil {
			t.Fatal(err)
		}
		d, err := r.Picture(ctx, c.view, c.frame)
		if err != nil {
			t.Fatal(err)
		}
		testtool.GoldenImage(t, c.name, d.Image(), *update)
	}
}
