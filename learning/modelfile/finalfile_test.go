package modelfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// writeFinalData writes a libsvm file of n rows of dim features from four
// classes in a shuffled order, the values of class c made by value(c).
func writeFinalData(t *testing.T, name string, n, dim int, value func(rng *rand.Rand, c, j int) float64) string {
	return writeFourClasses(t, name, n, 5, func(b *strings.Builder, rng *rand.Rand, c int) {
		for j := range dim {
			if v := value(rng, c, j); v != 0 {
				fmt.Fprintf(b, " %d:%.17g", j+1, v)
			}
		}
	})
}

// TestRunFinalFileIsFit runs every task of a final plan as a sweep runs
// it (RunSweepTask), in a shuffled order, and checks that the merged model
// file is Fit's byte for byte, and that the tasks held only their two
// classes' rows (RunFinalFile) where the rows are dense and unscaled:
// grey levels (bytes, γ of scale the variance of every value read
// again), 6-digit numbers (float32 not exact: the reader's variance),
// eighths (float32 exact), grey levels but for one class's values (the
// pairs of grey classes held as float32, as the whole file is), with γ
// scale, auto or given, balanced class weights; sparse and scaled rows
// are read whole as before. Files of more than a block of the reader's
// rows sum the variance over blocks. A file changed outside the pair's rows is
// refused.
func TestRunFinalFileIsFit(t *testing.T) {
	ctx := context.Background()
	spec, err := learners.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	dense := func(rng *rand.Rand, c, j int) float64 {
		if rng.IntN(4) == 0 {
			return 0
		}
		return float64(c*(j+1)%4)/4 + 0.35*rng.Float64()
	}
	grey := func(rng *rand.Rand, c, j int) float64 { return float64(int(dense(rng, c, j)*200)) / 255 }
	value := map[string]func(rng *rand.Rand, c, j int) float64{
		"grey": grey,
		"float": func(rng *rand.Rand, c, j int) float64 { // 6 digits
			v, _ := strconv.ParseFloat(fmt.Sprintf("%.6g", dense(rng, c, j)), 64)
			return v
		},
		"eighths": func(rng *rand.Rand, c, j int) float64 { return float64(int(dense(rng, c, j)*8)) / 8 },
		"grey-but-one": func(rng *rand.Rand, c, j int) float64 {
			if c == 3 {
				return dense(rng, c, j) + 1e-7
			}
			return grey(rng, c, j)
		},
		"sparse": func(rng *rand.Rand, c, j int) float64 {
			if rng.IntN(6) != 0 {
				return 0
			}
			return dense(rng, c, j) + 0.1
		},
	}
	tests := []struct {
		kind, scale, form string // form: the rows held as fit holds them
		held              bool
		set               map[string]string
		rows              int // 240 if 0; more than a block of the reader's (fitBlockRows)

	}{
		{"grey", "none", "bytes", true, map[string]string{"C": "3"}, 0},
		{"grey", "none", "bytes", true, map[string]string{"C": "3", "gamma": "auto", "class-weight": "balanced"}, 0},
		{"float", "none", "float32", true, map[string]string{"C": "10", "class-weight": "balanced"}, 0},
		{"float", "none", "float32", true, map[string]string{"C": "1"}, 2*fitBlockRows + 300},
		{"grey", "none", "bytes", true, map[string]string{"C": "1"}, fitBlockRows + 300},
		{"eighths", "none", "float32 exact", true, map[string]string{"C": "2"}, 0},
		{"grey-but-one", "none", "float32", true, map[string]string{"C": "5"}, 0},
		{"grey", "none", "bytes", true, map[string]string{"C": "1", "kernel": "poly", "gamma": "0.5", "class-weight": "11=2,31=0.5"}, 0},
		{"sparse", "none", "blocks", false, map[string]string{"C": "2"}, 0},
		{"float", "01", "scaled", false, map[string]string{"C": "1"}, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s-%s-%v", tc.kind, tc.scale, tc.set), func(t *testing.T) {
			n := tc.rows
			if n == 0 {
				n = 240
			}
			path := writeFinalData(t, tc.kind, n, 10, value[tc.kind])
			l := Setup{Spec: spec, Options: learners.Defaults(), Scale: tc.scale}
			for k, v := range tc.set {
				if err := l.Options.Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			d, err := ReadData(ctx, path, DataOptions{Scale: tc.scale, Compact: true}) // as fit reads it
			if err != nil {
				t.Fatal(err)
			}
			train, blocks, o := d.Train, d.Blocks, d.Fit
			form := "scaled"
			switch c := o.Compact; {
			case c != nil && c.Grey != nil:
				form = "bytes"
			case c != nil && c.Exact:
				form = "float32 exact"
			case c != nil:
				form = "float32"
			case blocks != nil:
				form = "blocks"
			}
			if form != tc.form {
				t.Fatalf("rows read as %s, want %s", form, tc.form)
			}
			fitted, err := Fit(ctx, spec, l.Options, train, blocks, o)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := fitted.File.Write(&want); err != nil {
				t.Fatal(err)
			}
			p, err := l.PlanFinal(ctx, path, l.Options.C, l.Options.Gamma.String(), dataset.Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(p.Tasks) {
				if _, _, held, err := l.RunFinalFile(ctx, p, "plan.json", path, 0, i, 1); err != nil || held != tc.held {
					t.Fatalf("task %d: held %v, %v; want held %v", i, held, err, tc.held)
				}
				if _, err := RunSweepTask(ctx, p, i, TaskOptions{PlanPath: "plan.json", Data: path, Out: out, Threads: 1}); err != nil {
					t.Fatal(err)
				}
			}
			model := filepath.Join(t.TempDir(), "final.json")
			if _, err := MergeFinal(ctx, p, []string{out}, MergeOptions{PlanPath: "plan.json", Data: path, Model: model}); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(model)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("merged model (%d bytes) is not fit's (%d bytes)", len(got), want.Len())
			}
			if !tc.held {
				return
			}
			// the last row's first value changed: a row of any class
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
			last := strings.Fields(lines[len(lines)-1])
			last[1] = last[1][:strings.IndexByte(last[1], ':')] + ":0.25"
			lines[len(lines)-1] = strings.Join(last, " ")
			changed := filepath.Join(t.TempDir(), "changed.libsvm")
			if err := os.WriteFile(changed, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for i := range p.Tasks {
				if _, err := RunSweepTask(ctx, p, i, TaskOptions{PlanPath: "plan.json", Data: changed, Out: t.TempDir(), Threads: 1}); !errors.Is(err, selection.ErrData) {
					t.Fatalf("task %d on changed data: %v", i, err)
				}
			}
		})
	}
}

// rchar returns the bytes the process has read (Linux's /proc/self/io),
// or false where it cannot be read.
func rchar() (int64, bool) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// A final task parses its data file twice, whatever γ: once for the
// labels and the rows' form (and γ scale's sum), once for its rows, the
// fingerprint (and the squared deviations); each read of a plain file
// counts its lines and colons first (dataset.ReadFileContext), so the
// bytes read are four times the file's. It parsed the file four times (8
// times its bytes read) with γ scale, three (6) with γ given.
func TestRunFinalFileParsesTwice(t *testing.T) {
	if _, ok := rchar(); !ok {
		t.Skip("no /proc/self/io here")
	}
	ctx := context.Background()
	spec, err := learners.Lookup("svm")
	if err != nil {
		t.Fatal(err)
	}
	path := writeFinalData(t, "grey", 4000, 40, func(rng *rand.Rand, c, j int) float64 {
		return float64(rng.IntN(256)*(c+1)%256) / 255
	})
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, gamma := range []string{"scale", "0.5"} {
		l := Setup{Spec: spec, Options: learners.Defaults()}
		if err := l.Options.Set("gamma", gamma); err != nil {
			t.Fatal(err)
		}
		p, err := l.PlanFinal(ctx, path, l.Options.C, l.Options.Gamma.String(), dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		before, _ := rchar()
		if _, _, held, err := l.RunFinalFile(ctx, p, "plan.json", path, 0, 0, 1); err != nil || !held {
			t.Fatalf("gamma %s: held %v, %v", gamma, held, err)
		}
		after, _ := rchar()
		if reads := float64(after-before) / float64(info.Size()); reads < 3.9 || reads > 4.5 {
			t.Errorf("gamma %s: read %d bytes of a %d-byte file: %.2f times; want 4 (two reads, each counted first)", gamma, after-before, info.Size(), reads)
		}
	}
}
