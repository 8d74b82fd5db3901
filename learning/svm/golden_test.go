package svm

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

var update = flag.Bool("update", false, "regenerate testdata: data sets and the LIBSVM/LIBLINEAR golden file (needs svm-train, svm-predict, liblinear-train, liblinear-predict)")

const goldenFile = "testdata/libsvm-golden.json"

// golden is what LIBSVM or LIBLINEAR reported on one data set.
type golden struct {
	File     string          `json:"file"`
	Command  string          `json:"command"`
	Kernel   string          `json:"kernel,omitempty"` // kernel.Parse form, for LIBSVM
	Loss     string          `json:"loss,omitempty"`   // for LIBLINEAR
	C        float64         `json:"c"`
	Eps      float64         `json:"eps"`
	Machines []goldenMachine `json:"machines"`
	TotalSV  int             `json:"totalSV"`
	Correct  int             `json:"correct"`  // training examples classified right
	Examples int             `json:"examples"` // training examples
}

// goldenMachine is one two-class machine's figures in a golden run.
type goldenMachine struct {
	Obj  float64 `json:"obj"`
	Rho  float64 `json:"rho,omitempty"`
	NSV  int     `json:"nSV"`
	NBSV int     `json:"nBSV,omitempty"`
}

type goldenSet struct {
	Note      string   `json:"note"`
	LIBSVM    []golden `json:"libsvm"`
	LIBLINEAR []golden `json:"liblinear"`
}

// writeLibsvm writes X, y in LIBSVM's text format, with 1-based indices and
// zeros left out.
func writeLibsvm(path string, X [][]float64, y []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for i, x := range X {
		fmt.Fprint(w, y[i])
		for j, v := range x {
			if v != 0 {
				fmt.Fprintf(w, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// readLibsvm reads LIBSVM's text format into dense rows of dim features.
func readLibsvm(path string, dim int) ([][]float64, []int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var X [][]float64
	var y []int
	for n, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fs := strings.Fields(line)
		lab, err := strconv.Atoi(fs[0])
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: label: %v", path, n+1, err)
		}
		x := make([]float64, dim)
		for _, f := range fs[1:] {
			k, v, _ := strings.Cut(f, ":")
			j, err1 := strconv.Atoi(k)
			val, err2 := strconv.ParseFloat(v, 64)
			if err1 != nil || err2 != nil || j < 1 || j > dim {
				return nil, nil, fmt.Errorf("%s:%d: bad feature %q", path, n+1, f)
			}
			x[j-1] = val
		}
		X = append(X, x)
		y = append(y, lab)
	}
	return X, y, nil
}

// goldenData are the data sets: name, dimension and generator.
var goldenData = []struct {
	name string
	dim  int
	gen  func() ([][]float64, []int)
}{
	{"gauss2", 20, func() ([][]float64, []int) {
		rng := rand.New(rand.NewPCG(2024, 1))
		X, yf := gaussians(rng, 400, 20, 0.5)
		y := make([]int, len(yf))
		for i, v := range yf {
			y[i] = int(v)
		}
		for _, x := range X { // round to 6 digits to keep the file small
			for j := range x {
				x[j] = math.Round(x[j]*1e6) / 1e6
			}
		}
		return X, y
	}},
	{"gauss3", 10, func() ([][]float64, []int) {
		rng := rand.New(rand.NewPCG(2024, 3))
		X := make([][]float64, 300)
		y := make([]int, 300)
		for i := range X {
			y[i] = i % 3
			x := make([]float64, 10)
			for j := range x {
				x[j] = math.Round((rng.NormFloat64()+float64(btoi(j%3 == y[i])))*1e6) / 1e6
			}
			X[i] = x
		}
		return X, y
	}},
	{"retina2", 100, func() ([][]float64, []int) {
		rng := rand.New(rand.NewPCG(2024, 2))
		X, yf := binaryData(rng, 400, 100, 0.25)
		y := make([]int, len(yf))
		for i, v := range yf {
			y[i] = int(v)
		}
		return X, y
	}},
}

// goldenRuns are the LIBSVM runs: data set, kernel, C, eps.
var goldenRuns = []struct {
	file, kernel string
	c, eps       float64
}{
	{"gauss2", "linear", 1, 1e-3},
	{"gauss2", "gaussian:sigma=4", 10, 1e-3},
	{"gauss3", "gaussian:sigma=2", 1, 1e-3},
	{"gauss3", "poly:d=3,gamma=0.1,c=1", 0.5, 1e-3},
	{"retina2", "gaussian:sigma=4", 2, 1e-3},
	{"retina2", "laplace:sigma=8", 1, 1e-3}, // LIBSVM has no Laplace kernel: skipped there
}

var goldenLinear = []struct {
	file string
	loss Loss
	c    float64
}{
	{"gauss2", Hinge, 1},
	{"gauss2", SquaredHinge, 0.1},
	{"gauss3", Hinge, 1},
	{"retina2", Hinge, 0.5},
}

// libsvmArgs returns svm-train's kernel options for a kernel.Parse spec.
func libsvmArgs(k kernel.Kernel) []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch k := k.(type) {
	case kernel.Linear:
		return []string{"-t", "0"}
	case kernel.Polynomial:
		return []string{"-t", "1", "-d", strconv.Itoa(k.Degree), "-g", f(k.Gamma), "-r", f(k.Coef0)}
	case kernel.Gaussian:
		return []string{"-t", "2", "-g", f(1 / (2 * k.Sigma * k.Sigma))}
	}
	return nil
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

var (
	reObj     = regexp.MustCompile(`obj = (\S+), rho = (\S+)`)
	reSV      = regexp.MustCompile(`nSV = (\d+), nBSV = (\d+)`)
	reTotal   = regexp.MustCompile(`Total nSV = (\d+)`)
	reAcc     = regexp.MustCompile(`Accuracy = \S+% \((\d+)/(\d+)\)`)
	reLinObj  = regexp.MustCompile(`Objective value = (\S+)`)
	reLinNSV  = regexp.MustCompile(`nSV = (\d+)`)
	atof      = func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	atoi      = func(s string) int { v, _ := strconv.Atoi(s); return v }
	linSolver = map[Loss]string{Hinge: "3", SquaredHinge: "1"}
)

// trainIn runs a trainer (svm-train, liblinear-train) in testdata, where
// the data files are, and returns what it printed.
func trainIn(t *testing.T, name string, args []string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = "testdata"
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out)
}

func updateGolden(t *testing.T) {
	for _, d := range goldenData {
		X, y := d.gen()
		if err := writeLibsvm(filepath.Join("testdata", d.name+".libsvm"), X, y); err != nil {
			t.Fatal(err)
		}
	}
	set := goldenSet{Note: "Written by go test -run Golden -update: LIBSVM 3.24 and LIBLINEAR 2.3 (Debian libsvm-tools, liblinear-tools) on the data sets here, run in testdata/."}
	tmp := t.TempDir()
	model := filepath.Join(tmp, "model")
	for _, r := range goldenRuns {
		k, err := kernel.ParseKernel(r.kernel)
		if err != nil {
			t.Fatal(err)
		}
		ka := libsvmArgs(k)
		if ka == nil {
			continue
		}
		file := r.file + ".libsvm"
		args := append([]string{"-s", "0"}, ka...)
		args = append(args, "-c", fmt.Sprint(r.c), "-e", fmt.Sprint(r.eps), "-m", "100", file)
		g := golden{File: file, Kernel: r.kernel, C: r.c, Eps: r.eps,
			Command: "svm-train " + strings.Join(args, " ") + " model && svm-predict " + file + " model out"}
		out := trainIn(t, "svm-train", append(args, model))
		objs := reObj.FindAllStringSubmatch(out, -1)
		svs := reSV.FindAllStringSubmatch(out, -1)
		for i := range objs {
			g.Machines = append(g.Machines, goldenMachine{atof(objs[i][1]), atof(objs[i][2]), atoi(svs[i][1]), atoi(svs[i][2])})
		}
		g.TotalSV = atoi(reTotal.FindStringSubmatch(out)[1])
		acc := reAcc.FindStringSubmatch(run(t, "svm-predict", filepath.Join("testdata", file), model, filepath.Join(tmp, "out")))
		g.Correct, g.Examples = atoi(acc[1]), atoi(acc[2])
		set.LIBSVM = append(set.LIBSVM, g)
	}
	for _, r := range goldenLinear {
		file := r.file + ".libsvm"
		args := []string{"-s", linSolver[r.loss], "-c", fmt.Sprint(r.c), "-e", "0.0001", "-B", "1", file}
		g := golden{File: file, Loss: r.loss.String(), C: r.c, Eps: 1e-4,
			Command: "liblinear-train " + strings.Join(args, " ") + " model && liblinear-predict " + file + " model out"}
		out := trainIn(t, "liblinear-train", append(args, model))
		objs := reLinObj.FindAllStringSubmatch(out, -1)
		svs := reLinNSV.FindAllStringSubmatch(out, -1)
		for i := range objs {
			g.Machines = append(g.Machines, goldenMachine{Obj: atof(objs[i][1]), NSV: atoi(svs[i][1])})
		}
		acc := reAcc.FindStringSubmatch(run(t, "liblinear-predict", filepath.Join("testdata", file), model, filepath.Join(tmp, "out")))
		g.Correct, g.Examples = atoi(acc[1]), atoi(acc[2])
		set.LIBLINEAR = append(set.LIBLINEAR, g)
	}
	b, err := json.MarshalIndent(set, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadGolden(t *testing.T) goldenSet {
	t.Helper()
	if *update {
		updateGolden(t)
	}
	b, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var set goldenSet
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatalf("%s: %v", goldenFile, err)
	}
	return set
}

// loadData reads a golden data set as a learning.Data whose classes are
// the file's labels in order of first appearance (LIBSVM's order), so that
// machine m's +1 side is LIBSVM's.
func loadData(t *testing.T, file string) (*learning.Data, []int) {
	t.Helper()
	dim := 0
	for _, d := range goldenData {
		if d.name+".libsvm" == file {
			dim = d.dim
		}
	}
	X, labels, err := readLibsvm(filepath.Join("testdata", file), dim)
	if err != nil {
		t.Fatal(err)
	}
	class := map[int]int{}
	var order []int
	d := &learning.Data{X: X, Y: make([]int, len(X))}
	for i, l := range labels {
		c, ok := class[l]
		if !ok {
			c = len(order)
			class[l] = c
			order = append(order, l)
		}
		d.Y[i] = c
	}
	d.Classes = len(order)
	return d, order
}

func accuracy(m learning.Model, d *learning.Data) int {
	n := 0
	for i, x := range d.X {
		if m.Predict(x) == d.Y[i] {
			n++
		}
	}
	return n
}

// goldenKernel returns a LIBSVM golden run's data and kernel.
func goldenKernel(t *testing.T, g golden) (*learning.Data, kernel.Kernel) {
	t.Helper()
	d, _ := loadData(t, g.File)
	k, err := kernel.ParseKernel(g.Kernel)
	if err != nil {
		t.Fatal(err)
	}
	return d, k
}

func TestGoldenLIBSVM(t *testing.T) {
	set := loadGolden(t)
	for _, g := range set.LIBSVM {
		t.Run(g.File+"/"+g.Kernel, func(t *testing.T) {
			d, k := goldenKernel(t, g)
			km, _, err := fitKernel(t.Context(), d, Kernel{Kernel: k, Settings: Settings{C: g.C, Eps: g.Eps}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(km.Machines) != len(g.Machines) {
				t.Fatalf("%d machines; LIBSVM has %d", len(km.Machines), len(g.Machines))
			}
			for m, want := range g.Machines {
				got := km.Machines[m]
				t.Logf("machine %d: obj %.6f rho %.6f nSV %d nBSV %d; LIBSVM %.6f %.6f %d %d", m, got.Obj, got.Rho, len(got.SV), got.Bounded, want.Obj, want.Rho, want.NSV, want.NBSV)
				nearLIBSVM(t, m, got, want)
			}
			if tot, _ := km.SupportVectors(); abs(tot-g.TotalSV) > 2 {
				t.Errorf("total SV = %d; LIBSVM %d", tot, g.TotalSV)
			}
			if c := accuracy(km, d); c != g.Correct {
				t.Errorf("training accuracy %d/%d; LIBSVM %d/%d", c, len(d.X), g.Correct, g.Examples)
			}
		})
	}
}

func TestGoldenLIBLINEAR(t *testing.T) {
	set := loadGolden(t)
	for _, g := range set.LIBLINEAR {
		t.Run(g.File+"/"+g.Loss, func(t *testing.T) {
			d, _ := loadData(t, g.File)
			loss := Hinge
			if g.Loss == SquaredHinge.String() {
				loss = SquaredHinge
			}
			lm, _, err := fitLinear(t.Context(), d, LinearSettings{C: g.C, Eps: g.Eps, Loss: loss, Seed: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(lm.Machines) != len(g.Machines) {
				t.Fatalf("%d machines; LIBLINEAR has %d", len(lm.Machines), len(g.Machines))
			}
			for m, want := range g.Machines {
				got := lm.Machines[m]
				t.Logf("machine %d: obj %.6f nSV %d passes %d; LIBLINEAR %.6f %d", m, got.Obj, got.SV, got.Iter, want.Obj, want.NSV)
				if rel := math.Abs(got.Obj-want.Obj) / math.Abs(want.Obj); rel > 1e-3 {
					t.Errorf("machine %d: obj = %.6f; LIBLINEAR %.6f (rel. diff %.2g)", m, got.Obj, want.Obj, rel)
				}
				if abs(got.SV-want.NSV) > 2 {
					t.Errorf("machine %d: nSV = %d; LIBLINEAR %d", m, got.SV, want.NSV)
				}
			}
			if c := accuracy(lm, d); abs(c-g.Correct) > 1 {
				t.Errorf("training accuracy %d/%d; LIBLINEAR %d/%d", c, len(d.X), g.Correct, g.Examples)
			}
		})
	}
}

// nearLIBSVM holds machine m to LIBSVM's figures: the objective within
// 0.1%, ρ within 1% (or 0.01 near 0), the numbers of support vectors and
// of those at the bound within 2.
func nearLIBSVM(t *testing.T, m int, got Machine, want goldenMachine) {
	t.Helper()
	if rel := math.Abs(got.Obj-want.Obj) / math.Abs(want.Obj); rel > 1e-3 {
		t.Errorf("machine %d: obj = %.6f; LIBSVM %.6f (rel. diff %.2g)", m, got.Obj, want.Obj, rel)
	}
	if math.Abs(got.Rho-want.Rho) > 1e-2*math.Max(1, math.Abs(want.Rho)) {
		t.Errorf("machine %d: rho = %.6f; LIBSVM %.6f", m, got.Rho, want.Rho)
	}
	if nsv := len(got.SV); abs(nsv-want.NSV) > 2 || abs(got.Bounded-want.NBSV) > 2 {
		t.Errorf("machine %d: nSV, nBSV = %d, %d; LIBSVM %d, %d", m, nsv, got.Bounded, want.NSV, want.NBSV)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
