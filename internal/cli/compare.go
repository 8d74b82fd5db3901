package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"mark1/compare"
	"mark1/images"
	"mark1/internal/base/jsonnum"
	"mark1/learning/learners"
	"mark1/machine"
	"mark1/memistors"

	"github.com/spf13/pflag"
)

// compareOptions are compare's flags.
type compareOptions struct {
	data                                                  dataFlags
	mf                                                    machineFlags
	lf                                                    learnerFlags
	learnerList, features, plotPath, export, scale, seeds string
	adalineBank, rule                                     string
	jsonOut, csvOut, quiet, asPictures, noTheory          bool
	threads, prCards                                      int
	fs                                                    *pflag.FlagSet
}

// compareFlags registers compare's flags on a new flag set.
func compareFlags(env *Env, o *compareOptions) *pflag.FlagSet {
	fs := newFlags(env, "compare [--task NAME | --data PATH] [flags]", `Trains the Mark I's motor-driven rule and software learners on the same seeded
split and prints one table: P_r (train accuracy), P_g (test accuracy), mistakes or
updates, epochs, margin, support vectors, time; for the hardware also simulated
machine time and motor pulses. "hardware" is the --preset machine, "ideal" the
same wiring with ideal pots; "memistor-adaline" is Widrow and Hoff's ADALINE (1960)
with memistor weights (bounded, slowly plated, noisy, leaking) trained by α-LMS
on the same machine's A-units, its plating pulses and time in the same columns;
software learners see the retina's pixels or the same machine's A-unit outputs
(--features).`)
	o.data.register(fs, true)
	o.mf.fourLayer = true
	o.mf.register(fs, o.data.memory)
	fs.StringVar(&o.learnerList, "learners", strings.Join(compare.DefaultLearners(), ","), "comma-separated: "+strings.Join(compare.Learners(), ", "))
	fs.StringVar(&o.features, "features", "pixels,association", "comma-separated: pixels (S-units), association (A-units); numeric data files: raw (their values, the default)")
	// The learners' options, as fit takes them; --seed is the machine's
	// master seed, which seeds the learners too, --threads compare's, and
	// --bias the machine's R-unit bias (the learners keep their default
	// constant input 1).
	o.lf.register(fs, fieldFlags{}, "", "seed", "threads", "bias", "epsilon", "class-weight")
	fs.StringVar(&o.rule, "rule", "error-correction", "how hardware and ideal train, as train's --rule: error-correction, forced, forced-monovalent,\ntrial-and-error or spontaneous (no labels: reported as clusters of the hidden classes,\npurity and responses used, not P_r and P_g); the last three need --code one-per-class")
	fs.StringVar(&o.adalineBank, "adaline-bank", "memistors", "the weights of memistor-adaline, trained by α-LMS with --alpha (0.1 when 0): memistors (the 1960 plated memistors: bounded, slow, noisy,\nleaking; docs/record.md), rheostats (hand-set knobs, 21 settings), ideal (exact numbers: what the memistors cost)")
	fs.BoolVar(&o.jsonOut, "json", false, "print the report as JSON")
	fs.BoolVar(&o.csvOut, "csv", false, "print the table as CSV")
	fs.BoolVar(&o.quiet, "quiet", false, "print no progress on standard error")
	fs.IntVar(&o.threads, "threads", 0, "cores for the SVM's binary problems and predictions (0: all); results do not depend on it")
	fs.IntVar(&o.prCards, "pr-cards", 10000, "measure P_r on a seeded sample of this many training cards when there are more, the same for every learner (0: all)")
	fs.BoolVar(&o.noTheory, "no-theory", false, "leave out the convergence theorem's line for two classes (otherwise it takes at most a fifth of the learners' time, at least half a second)")
	fs.StringVar(&o.plotPath, "plot", "", "draw the learning curves to this PNG, one panel per quantity: mistakes per epoch (online\nlearners, hardware), the objective (batch GD, SVMs), P_g per epoch (hardware, memistor ADALINE); what is not drawn is named")
	fs.StringVar(&o.seeds, "seeds", "", "repeat the comparison for each of these master seeds (A-B or a list), on all cores,\nand print mean ± standard deviation per row")
	fs.StringVar(&o.export, "export-libsvm", "", "also write the features as libsvm files in this folder, to check results with LIBSVM")
	fs.BoolVar(&o.asPictures, "as-pictures", false, "read a libsvm file whose rows are k×k pictures as pictures (values in [0,1] or [0,255] as grey levels), for the hardware")
	fs.StringVar(&o.scale, "scale", "none", "numeric data: scale each feature, fitted on the training part: none, 01, pm1, std (with --as-pictures: 01 makes the values grey levels)")
	o.fs = fs
	return fs
}

func runCompare(ctx context.Context, env *Env, args []string) (err error) {
	var o compareOptions
	fs := compareFlags(env, &o)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	spec, err := o.spec()
	if err != nil {
		return err
	}
	ctx, finish := guardMemory(ctx, "compare", o.data.memory.bytes())
	defer func() { err = finish(err) }()
	if o.data.data != "" && !o.asPictures && isNumericFile(o.data.data) {
		if fs.Changed("features") && o.features != compare.Raw {
			return usagef("--features %s: %s holds numeric data, not pictures; its features are raw (or read square rows as pictures with --as-pictures)", o.features, o.data.data)
		}
		return compareRaw(ctx, env, o.data, o.scale, spec, o.jsonOut, o.csvOut, o.quiet, o.plotPath)
	}
	if fs.Changed("features") && o.features == compare.Raw {
		return usagef("--features raw is for numeric data files (libsvm, CSV, text), not pictures")
	}
	if o.scale != "none" && !o.asPictures {
		return usagef("--scale is for numeric data files (libsvm, CSV, text)")
	}
	origData, cleanup := o.data.data, func() {}
	if o.asPictures && o.scale != "none" {
		scaled, remove, err := scaledCopy(ctx, o.data.memory.bytes(), o.data.data, o.scale)
		if err != nil {
			return err
		}
		defer remove()
		o.data.data, cleanup = scaled, remove
	}
	cfg, err := o.mf.build(given(fs))
	if err != nil {
		return err
	}
	if err := spec.Recipe.CheckMachine(cfg); err != nil {
		return usagef("--rule %s: %s needs one R-unit per class: add --code one-per-class", o.rule, o.rule)
	}
	if o.seeds != "" {
		return o.runSeeds(ctx, env, cfg, spec, cleanup)
	}
	return o.runOne(ctx, env, cfg, spec, origData, cleanup)
}

// spec checks the flags that need no data and returns the comparison they
// ask for, validated by compare.Spec.Validate.
func (o *compareOptions) spec() (compare.Spec, error) {
	fs := o.fs
	if o.jsonOut && o.csvOut {
		return compare.Spec{}, usagef("give --json or --csv, not both")
	}
	for name, v := range map[string]string{"learners": o.learnerList, "features": o.features} {
		if fs.Changed(name) && len(split(v)) == 0 {
			return compare.Spec{}, usagef("--%s %q names none; give a comma-separated list", name, v)
		}
	}
	if o.plotPath != "" && !strings.HasSuffix(strings.ToLower(o.plotPath), ".png") {
		return compare.Spec{}, usagef("--plot %s: the curves are drawn as PNG; give a file name ending in .png", o.plotPath)
	}
	opts, err := o.lf.options()
	if err != nil {
		return compare.Spec{}, err
	}
	if o.prCards < 0 {
		return compare.Spec{}, usagef("--pr-cards %d: want 0 (all training cards) or a sample size", o.prCards)
	}
	if _, err := workers(o.threads); err != nil { // the one rule for --threads, as train and ablate
		return compare.Spec{}, err
	}
	spec := compare.Spec{Learners: split(o.learnerList), Features: pictureFeatures(o.features), Options: opts, Seed: o.mf.seed, NoTheory: o.noTheory, Threads: o.threads, PrSample: o.prCards}
	bank, err := memistors.Kind(o.adalineBank)
	if err != nil {
		return compare.Spec{}, usagef("--adaline-bank %q: want %s", o.adalineBank, strings.Join(memistors.Kinds(), ", "))
	}
	spec.Memistors = &bank
	rule, err := machine.ParseRule(o.rule)
	if err != nil {
		return compare.Spec{}, usageError{fmt.Errorf("--rule: %w", err)}
	}
	spec.Recipe.Rule = rule
	o.lf.fields.add("learners", "learners")
	o.lf.fields.add("features", "features")
	o.lf.fields.add("pr-sample", "pr-cards")
	o.lf.fields.add("threads", "threads")
	if err := spec.Validate(); err != nil {
		if m := o.lf.fields.message(err); m != "" {
			return spec, usageError{errors.New(m)}
		}
		return spec, usageError{err}
	}
	return spec, nil
}

// runSeeds repeats the comparison over --seeds (compare.SeedExperiment).
func (o *compareOptions) runSeeds(ctx context.Context, env *Env, cfg machine.Config, spec compare.Spec, cleanup func()) error {
	for _, name := range []string{"seed", "plot", "export-libsvm", "csv"} {
		if o.fs.Changed(name) {
			return usagef("compare --seeds: --%s works on one run; drop it", name)
		}
	}
	list, err := parseSeeds(o.seeds)
	if err != nil {
		return usageError{err}
	}
	nw, err := workers(o.threads)
	if err != nil {
		return err
	}
	exp := compare.SeedExperiment{Config: cfg, Spec: spec, Threads: nw, Load: func(ctx context.Context, seed uint64) (*images.Dataset, *images.Dataset, error) {
		return o.data.load(ctx, given(o.fs), seed)
	}}
	rep, err := exp.Run(ctx, list)
	cleanup()
	if err != nil {
		return err
	}
	if o.jsonOut {
		return writeJSON(env.Stdout, rep)
	}
	printSeedsReport(env.Stdout, rep)
	return nil
}

// runOne runs one comparison, writing the --export-libsvm files first.
func (o *compareOptions) runOne(ctx context.Context, env *Env, cfg machine.Config, spec compare.Spec, origData string, cleanup func()) (err error) {
	seeds := machine.SeedsFrom(o.mf.seed)
	train, test, err := o.data.load(ctx, given(o.fs), seeds.Master)
	cleanup() // the scaled copy is read
	if err != nil {
		return err
	}
	if o.data.data != origData { // name the user's file, not the scaled copy
		name := origData + " scaled " + o.scale
		train.Name = strings.Replace(train.Name, o.data.data, name, 1)
		test.Name = strings.Replace(test.Name, o.data.data, name, 1)
	}
	if err := o.data.checkFit(cfg, train, test); err != nil {
		return err
	}
	if o.export != "" {
		undo, xerr := compare.ExportLibSVM(ctx, o.export, cfg, seeds, train, test)
		if xerr != nil {
			return fmt.Errorf("--export-libsvm: %w", xerr)
		}
		// The export is one of the command's outputs: a comparison that is
		// interrupted or fails afterwards leaves none of them.
		defer func() {
			if err != nil {
				undo()
			}
		}()
	}
	quiet := o.quiet || o.jsonOut || o.csvOut
	// On a terminal, a progress line (fitprogress.go) counts the learners
	// and shows the one that reported last: its epoch, pair or pass, rate
	// and time left; elsewhere a line per learner.
	prog := startCompareProgress(env, quiet, &spec, len(train.Classes), false)
	rep, err := compare.Run(learnerBudget(ctx), cfg, seeds, train, test, spec, prog.start)
	prog.end()
	if err != nil {
		return err
	}
	return emitReport(env, rep, o.jsonOut, o.csvOut, quiet, o.plotPath)
}

// startCompareProgress starts the progress of spec's learners on classes
// classes and sets spec.Record to feed it; raw is true for numeric data
// (one run per software learner, no hardware).
func startCompareProgress(env *Env, quiet bool, spec *compare.Spec, classes int, raw bool) *learnerProgress {
	runs := 0
	features := spec.Features
	if features == nil {
		features = compare.Features()
	}
	if raw {
		features = []string{compare.Raw}
	}
	names := spec.Learners
	if names == nil {
		names = compare.DefaultLearners()
	}
	epochs := map[string]int{}
	limit := spec.Options.Epochs
	if limit == 0 {
		limit = learners.Defaults().Epochs
	}
	for _, l := range names {
		switch {
		case (l == "hardware" || l == "ideal" || l == compare.MemistorName) && !raw:
			runs++ // one run, on the machine's A-units
		case l != "hardware" && l != "ideal" && l != compare.MemistorName:
			runs += len(features)
		}
		epochs[l] = limit
	}
	prog := newLearnerProgress(env.Stderr, quiet, runs, classes, epochs, time.Now)
	spec.Record = prog.record
	spec.Checking = prog.checking
	return prog
}

// emitReport draws the --plot and prints the report as JSON, CSV or the
// table.
func emitReport(env *Env, rep *compare.Report, jsonOut, csvOut, quiet bool, plotPath string) error {
	if plotPath != "" {
		missing, err := plotComparison(plotPath, rep)
		if err != nil {
			return err
		}
		if !quiet {
			fmt.Fprintf(env.Stderr, "Wrote the learning curves to %s; not drawn:\n", plotPath)
			for _, m := range missing {
				fmt.Fprintf(env.Stderr, "  %s\n", m)
			}
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
	if rep.Preset != nil {
		fmt.Fprintf(w, "Comparison on %s: %d classes, %d training cards, %d held out; machine preset %q; kernel %s.\n\n",
			rep.Data, len(rep.Classes), rep.Train, rep.Test, *rep.Preset, rep.Kernel)
	} else {
		fmt.Fprintf(w, "Comparison on %s: %d classes, %d training rows, %d held out; raw features; kernel %s.\n\n",
			rep.Data, len(rep.Classes), rep.Train, rep.Test, rep.Kernel)
	}
	var facts []string
	if rep.Chance != nil {
		facts = append(facts, fmt.Sprintf("Chance (always the most common held-out class): %.1f%%.", 100**rep.Chance))
	}
	if rep.Preset != nil {
		facts = append(facts, fmt.Sprintf("P_a, A-units firing per card: %.1f%% (the 1958 model at each card's lit area: %.1f%%).", 100*rep.Pa, 100*rep.PaModel))
	}
	if len(facts) > 0 {
		fmt.Fprintf(w, "%s\n\n", strings.Join(facts, " "))
	}
	fmt.Fprintf(w, "%-18s %-12s %7s %7s %9s %8s %6s %9s %7s %9s %12s %9s\n",
		"learner", "features", "P_r", "P_g", "P_g 95%CI", "updates", "epochs", "margin", "SVs", "time", "machine time", "pulses")
	for _, r := range rep.Rows {
		mtime := "-"
		if r.MachineSeconds != nil {
			mtime = clock(*r.MachineSeconds)
		}
		conv := " "
		if !r.Converged {
			conv = "*"
		}
		ci := "-"
		if r.Pg != nil {
			ci = ciRange(*r.Pg, rep.Test)
		}
		pr, pg := fmt.Sprintf("%.1f%%", 100*r.Pr), num(scaled(r.Pg), "%.1f%%")
		if r.Clustered() { // no labels: no accuracy (printClusterRows)
			pr, pg, ci = "-", "-", "-"
		}
		fmt.Fprintf(w, "%-18s %-12s %7s %7s %9s %8d %5d%s %9s %7s %9s %12s %9s\n",
			r.Learner, r.Features, pr, pg, ci, r.Updates, r.Epochs, conv,
			num(r.Margin, "%.4f"), num(r.SupportVectors, "%d"), time.Duration(r.Seconds*1e9).Round(time.Microsecond), mtime, num(r.Pulses, "%d"))
	}
	printClusterRows(w, rep)
	if len(rep.Classes) > 2 {
		fmt.Fprintf(w, "\nPairwise, 1958 (P_r, P_g: the right class scored above each other class, one at a time; chance 50%%;\none-vs-one SVMs score by votes):")
		for _, r := range rep.Rows {
			if r.PrPairwise != nil {
				fmt.Fprintf(w, "\n  %-18s %-12s %6.1f%% %7s", r.Learner, r.Features, 100**r.PrPairwise, num(scaled(r.PgPairwise), "%.1f%%"))
			}
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintf(w, "\nFor two classes 1958's pairwise P_r and P_g are these accuracies.\n")
	}
	if rep.PrCards < rep.Train {
		fmt.Fprintf(w, "\nP_r on a seeded sample of %d of the %d training cards, the same for every learner (--pr-cards 0: all).", rep.PrCards, rep.Train)
	}
	printReportNotes(w, rep)
}

// printClusterRows says, for the machines trained by the spontaneous rule,
// how their responses split the cards against the labels they never saw:
// what they did in their own words, in place of P_r and P_g.
func printClusterRows(w io.Writer, rep *compare.Report) {
	var rows []compare.Row
	for _, r := range rep.Rows {
		if r.Clustered() {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSpontaneous learning uses no labels: its P_r, P_g and margin would count a response as the class of its number.\n")
	fmt.Fprintf(w, "Its responses as clusters of the hidden classes (purity: each response counted as its commonest class; updates: every card shown):\n")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-18s %-12s on %d training cards %s", r.Learner, r.Features, r.Clusters.Cards, clusterWords(*r.Clusters))
		if r.TestClusters != nil {
			fmt.Fprintf(w, "; on %d held out %s", r.TestClusters.Cards, clusterWords(*r.TestClusters))
		}
		fmt.Fprintln(w, ".")
	}
}

// clusterWords says how responses split cards: "purity 50.0% (chance
// 50.0%), 1 of 2 responses used: collapsed".
func clusterWords(c machine.Clusters) string {
	s := fmt.Sprintf("purity %.1f%% (chance %.1f%%), %d of %d responses used", 100*c.Purity, 100*c.Chance, c.Responses, len(c.Class))
	if c.Collapsed {
		s += ": collapsed"
	}
	return s
}

// printReportNotes prints the table's footnotes, the report's notes and
// the convergence theorem's lines.
func printReportNotes(w io.Writer, rep *compare.Report) {
	fmt.Fprintf(w, "\n* stopped at a limit, not converged. updates: mistakes corrected (perceptrons, hardware), adaptations (ADALINEs: every card),\nsteps (batch GD) or solver iterations (SVMs). pulses: the Mark I's motor pulses; the memistor ADALINE's plating pulses, one per adaptation.\n")
	fmt.Fprintf(w, "margin: smallest over the binary machines. Perceptrons, hardware, memistor ADALINE: the geometric margin min y·f(x)/‖w‖ on the training data\n")
	fmt.Fprintf(w, "(negative: a training card on the wrong side). SVMs: 1/‖w‖, the margin they maximize (the same when no card lies inside it).\n")
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "Note: %s.\n", n)
	}
	for _, t := range rep.Theory {
		if !t.Separable {
			fmt.Fprintf(w, "Theory, %s: %s.\n", t.Features, t.Note)
			continue
		}
		fmt.Fprintf(w, "Theory, %s: separable; in the perceptron's space (x, 1) the largest margin γ = %s (hard-margin SVM without a bias term there), R = max ‖(x, 1)‖ = %s, mistake bound (R/γ)² = %s", t.Features, num(t.Margin, "%.4g"), num(t.Radius, "%.4g"), num(t.Bound, "%.4g"))
		if t.PerceptronMistakes != nil {
			fmt.Fprintf(w, "; the perceptron made %d mistakes", *t.PerceptronMistakes)
		}
		fmt.Fprintln(w, ".")
	}
}

// clusterCells are a row's CSV cells for the spontaneous rule's clusters:
// purity, responses used and collapse on the training and held-out cards,
// empty for the other rows.
func clusterCells(r compare.Row) []string {
	cells := make([]string, 6)
	for k, c := range []*machine.Clusters{r.Clusters, r.TestClusters} {
		if c != nil {
			cells[k] = jsonnum.Cell(&c.Purity, 'g', 6)
			cells[2+k] = strconv.Itoa(c.Responses)
			cells[4+k] = strconv.FormatBool(c.Collapsed)
		}
	}
	return cells
}

func writeCSV(w io.Writer, rep *compare.Report) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"learner", "features", "p_r", "p_g", "updates", "epochs", "converged", "margin", "support_vectors", "bounded_svs", "seconds", "machine_seconds", "pulses", "p_r_pairwise", "p_g_pairwise",
		"purity", "test_purity", "responses_used", "test_responses_used", "collapsed", "test_collapsed"})
	f := func(v float64) string { return jsonnum.Cell(&v, 'g', 6) }
	// Empty cells for what does not apply.
	opt := func(s string) string {
		if s == "-" {
			return ""
		}
		return s
	}
	fp := func(v *float64) string { return jsonnum.Cell(v, 'g', 6) }
	for _, r := range rep.Rows {
		pr, pg := f(r.Pr), fp(r.Pg)
		if r.Clustered() { // no labels: no accuracy; the cluster cells say what it did
			pr, pg = "", ""
		}
		cw.Write(append([]string{r.Learner, r.Features, pr, pg, strconv.Itoa(r.Updates), strconv.Itoa(r.Epochs),
			strconv.FormatBool(r.Converged), fp(r.Margin), opt(num(r.SupportVectors, "%d")), opt(num(r.BoundedSVs, "%d")),
			f(r.Seconds), fp(r.MachineSeconds), opt(num(r.Pulses, "%d")), fp(r.PrPairwise), fp(r.PgPairwise)}, clusterCells(r)...))
	}
	cw.Flush()
	return cw.Error()
}
