package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"mark1/images"
	"mark1/internal/atomicfile"
	"mark1/learning/compare"
	"mark1/learning/kernel"
	"mark1/machine"
)

func runCompare(ctx context.Context, env *Env, args []string) error {
	var data dataFlags
	var mf machineFlags
	var learners, features, kern, plotPath, export string
	var jsonOut, csvOut bool
	var c, cacheMB float64
	var epochs int
	fs := newFlags(env, "compare [--task NAME | --data PATH] [flags]", `Trains the Mark I's motor-driven rule and software learners on the same seeded
split and prints one table: P_r (train accuracy), P_g (test accuracy), mistakes or
updates, epochs, margin, support vectors, time; for the hardware also simulated
machine time and motor pulses. "hardware" is the --preset machine, "ideal" the
same wiring with ideal pots; software learners see the retina's pixels or the
same machine's A-unit outputs (--features).`)
	data.register(fs, true)
	mf.register(fs)
	fs.StringVar(&learners, "learners", strings.Join(compare.DefaultLearners(), ","), "comma-separated: "+strings.Join(compare.Learners(), ", "))
	fs.StringVar(&features, "features", "pixels,association", "comma-separated: pixels (S-units), association (A-units)")
	fs.StringVar(&kern, "kernel", "gaussian:sigma=3", "kernel for kernel-perceptron and svm: linear, poly:d=2,c=1, gaussian:sigma=3, laplace:sigma=3")
	fs.Float64Var(&c, "C", 1, "SVM penalty C")
	fs.Float64Var(&cacheMB, "cache-mb", 100, "SVM kernel cache size in MiB")
	fs.IntVar(&epochs, "epochs", 50, "epoch limit for the online learners and the hardware")
	fs.BoolVar(&jsonOut, "json", false, "print the report as JSON")
	fs.BoolVar(&csvOut, "csv", false, "print the table as CSV")
	fs.StringVar(&plotPath, "plot", "", "draw the learning curves (mistakes per epoch) of all learners to this PNG")
	fs.StringVar(&export, "export-libsvm", "", "also write the features as libsvm files in this folder, to check results with LIBSVM")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("compare: unexpected argument %q", fs.Arg(0))
	}
	if jsonOut && csvOut {
		return usagef("give --json or --csv, not both")
	}
	for name, v := range map[string]string{"learners": learners, "features": features} {
		if fs.Changed(name) && len(split(v)) == 0 {
			return usagef("--%s %q names none; give a comma-separated list", name, v)
		}
	}
	if plotPath != "" && !strings.HasSuffix(strings.ToLower(plotPath), ".png") {
		return usagef("--plot %s: the curves are drawn as PNG; give a file name ending in .png", plotPath)
	}
	k, err := kernel.Parse(kern)
	if err != nil {
		return usageError{err}
	}
	if !(c > 0) || math.IsInf(c, 0) || !(cacheMB > 0) || epochs < 1 || epochs > 100000 {
		return usagef("--C and --cache-mb must be > 0, --epochs in [1, 100000]")
	}
	spec := compare.Spec{Learners: split(learners), Features: split(features), Kernel: k, C: c, CacheMB: cacheMB, Epochs: epochs, Seed: mf.seed}
	if err := spec.Validate(); err != nil {
		return usageError{err}
	}
	cfg, err := mf.build(fs)
	if err != nil {
		return err
	}
	seeds := machine.SeedsFrom(mf.seed)
	train, test, err := data.load(seeds.Master)
	if err != nil {
		return err
	}
	if err := data.checkFit(cfg, train, test); err != nil {
		return err
	}
	if export != "" {
		if err := exportLibSVM(export, cfg, seeds, train, test); err != nil {
			return err
		}
	}
	quiet := jsonOut || csvOut
	rep, err := compare.Run(ctx, cfg, seeds, train, test, spec, func(l, f string) {
		if !quiet {
			fmt.Fprintf(env.Stderr, "  training %s on %s…\n", l, f)
		}
	})
	if err != nil {
		return err
	}
	if plotPath != "" {
		if err := plotCurves(plotPath, rep); err != nil {
			return err
		}
	}
	switch {
	case jsonOut:
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case csvOut:
		return writeCSV(env.Stdout, rep)
	}
	printReport(env.Stdout, rep)
	return nil
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// num formats *v, or "-" when v is nil (not applicable).
func num[T int | int64 | float64](v *T, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

// scaled returns 100·*v, or nil.
func scaled(v *float64) *float64 {
	if v == nil {
		return nil
	}
	p := 100 * *v
	return &p
}

func printReport(w io.Writer, rep *compare.Report) {
	fmt.Fprintf(w, "Comparison on %s: %d classes, %d training cards, %d held out; machine preset %q; kernel %s.\n\n",
		rep.Data, len(rep.Classes), rep.Train, rep.Test, rep.Preset, rep.Kernel)
	fmt.Fprintf(w, "%-18s %-12s %7s %7s %8s %6s %9s %7s %9s %12s %9s\n",
		"learner", "features", "P_r", "P_g", "updates", "epochs", "margin", "SVs", "time", "machine time", "pulses")
	for _, r := range rep.Rows {
		mtime := "-"
		if r.MachineSeconds != nil {
			mtime = clock(*r.MachineSeconds)
		}
		conv := " "
		if !r.Converged {
			conv = "*"
		}
		fmt.Fprintf(w, "%-18s %-12s %6.1f%% %7s %8d %5d%s %9s %7s %9s %12s %9s\n",
			r.Learner, r.Features, 100*r.Pr, num(scaled(r.Pg), "%.1f%%"), r.Updates, r.Epochs, conv,
			num(r.Margin, "%.4f"), num(r.SupportVectors, "%d"), time.Duration(r.Seconds*1e9).Round(time.Microsecond), mtime, num(r.Pulses, "%d"))
	}
	fmt.Fprintf(w, "\n* stopped at a limit, not converged. updates: mistakes corrected (perceptrons, hardware), steps (batch GD) or solver iterations (SVMs).\n")
	fmt.Fprintf(w, "margin: smallest over the binary machines. Perceptrons and hardware: the geometric margin min y·f(x)/‖w‖ on the training data\n")
	fmt.Fprintf(w, "(negative: a training card on the wrong side). SVMs: 1/‖w‖, the margin they maximize (the same when no card lies inside it).\n")
	for _, t := range rep.Theory {
		if !t.Separable {
			fmt.Fprintf(w, "Theory, %s: %s.\n", t.Features, t.Note)
			continue
		}
		fmt.Fprintf(w, "Theory, %s: separable; hard-margin SVM γ = %.4g, R = %.4g, mistake bound (R/γ)² = %.4g", t.Features, t.Margin, t.Radius, t.Bound)
		if t.PerceptronMistakes != nil {
			fmt.Fprintf(w, "; the perceptron made %d mistakes", *t.PerceptronMistakes)
		}
		fmt.Fprintln(w, ".")
	}
}

func writeCSV(w io.Writer, rep *compare.Report) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"learner", "features", "p_r", "p_g", "updates", "epochs", "converged", "margin", "support_vectors", "bounded_svs", "seconds", "machine_seconds", "pulses"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	// Empty cells for what does not apply.
	opt := func(s string) string {
		if s == "-" {
			return ""
		}
		return s
	}
	for _, r := range rep.Rows {
		cw.Write([]string{r.Learner, r.Features, f(r.Pr), opt(num(r.Pg, "%.6g")), strconv.Itoa(r.Updates), strconv.Itoa(r.Epochs),
			strconv.FormatBool(r.Converged), opt(num(r.Margin, "%.6g")), opt(num(r.SupportVectors, "%d")), opt(num(r.BoundedSVs, "%d")),
			f(r.Seconds), opt(num(r.MachineSeconds, "%.6g")), opt(num(r.Pulses, "%d"))})
	}
	cw.Flush()
	return cw.Error()
}

// plotCurves draws mistakes per epoch of every learner with a curve: one
// colour per learner, solid for pixels and dashed for association features.
// A curve identical to one drawn before (the averaged perceptron makes the
// perceptron's mistakes) says so in the legend, since it hides the other.
func plotCurves(path string, rep *compare.Report) error {
	p := plot.New()
	p.Title.Text = "Learning curves: " + rep.Data
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = "mistakes (updates) in the epoch"
	p.Legend.Top = true
	palette := []color.Color{
		color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
		color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
		color.RGBA{0xe3, 0x77, 0xc2, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff},
	}
	colour := map[string]color.Color{}
	drawn := map[string]string{} // curve → first label with it
	for _, r := range rep.Rows {
		if len(r.Curve) == 0 || r.Learner == "svm" || r.Learner == "linear-svm" {
			continue // solver iterations are not epochs over the data
		}
		if _, ok := colour[r.Learner]; !ok {
			colour[r.Learner] = palette[len(colour)%len(palette)]
		}
		pts := make(plotter.XYs, len(r.Curve))
		for e, m := range r.Curve {
			pts[e] = plotter.XY{X: float64(e + 1), Y: float64(m)}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("plotting %s: %w", path, err)
		}
		l.Color = colour[r.Learner]
		l.Width = vg.Points(1.5)
		if r.Features == "association" {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		p.Add(l)
		label := r.Learner + " (" + r.Features + ")"
		key := fmt.Sprint(r.Curve)
		if first, ok := drawn[key]; ok {
			label += " = " + first
		} else {
			drawn[key] = label
		}
		p.Legend.Add(label, l)
	}
	wt, err := p.WriterTo(9*vg.Inch, 5.5*vg.Inch, "png")
	if err != nil {
		return fmt.Errorf("plotting %s: %w", path, err)
	}
	return atomicfile.Write(path, func(f *os.File) error { _, err := wt.WriteTo(f); return err })
}

// exportLibSVM writes the train and test features of both kinds as libsvm
// files, labels as class indices.
func exportLibSVM(dir string, cfg machine.Config, seeds machine.Seeds, train, test *images.Dataset) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	m, err := machine.New(cfg, train.Classes, seeds, nil)
	if err != nil {
		return err
	}
	for _, part := range []struct {
		name string
		d    *images.Dataset
	}{{"train", train}, {"test", test}} {
		fields := m.Fields(part.d)
		for _, kind := range compare.Features() {
			X := compare.FeatureVectors(m, fields, kind)
			y := make([]float64, len(fields.Y))
			for i, c := range fields.Y {
				y[i] = float64(c)
			}
			path := filepath.Join(dir, part.name+"-"+kind+".libsvm")
			if err := atomicfile.Write(path, func(f *os.File) error { return images.WriteLibSVM(f, X, y) }); err != nil {
				return err
			}
		}
	}
	return nil
}
