package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"mark1/associator"
	"mark1/learning"
	"mark1/machine"
)

type trainOptions struct {
	data    dataFlags
	machine machineFlags
	rule    string
	values  string
	pulses  int
	epochs  int
	out     string
	wiring  string
	quiet   bool
	record  string // --record DIR: pot snapshots per epoch (see dials.go)
}

func runTrain(ctx context.Context, env *Env, args []string) error {
	var o trainOptions
	fs := newFlags(env, "train [flags]", `Builds a simulated Mark I, trains it with the perceptron error-correction rule
carried out by its motors, reports each epoch, and saves the machine.
Without --data it trains on the built-in task "`+defaultTask+`".
Flags marked [history] follow the record; [guess] marks documented guesses.`)
	o.data.register(fs, true)
	o.machine.register(fs)
	fs.StringVar(&o.rule, "rule", "error-correction", "training: error-correction (change values only on a wrong answer) or forced (reinforce every card)")
	fs.StringVar(&o.values, "values", "alpha", "value system of 1958: alpha (active units change) or gamma (the source-set's total is kept)")
	fs.IntVar(&o.pulses, "pulses", 1, "motor pulses per correction")
	fs.IntVar(&o.epochs, "epochs", 50, "stop after this many epochs if not converged")
	fs.StringVar(&o.out, "out", "mark1.json", "where to save the trained machine")
	fs.StringVar(&o.wiring, "wiring", "", "use this plugboard listing (from mark1 wiring) instead of random wiring")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the summary")
	fs.StringVar(&o.record, "record", "", "keep the pot positions after every epoch in this folder (for mark1 dials --animate)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("train: unexpected argument %q", fs.Arg(0))
	}
	rule, err := learning.ParseRule(o.rule)
	if err != nil {
		return usageError{err}
	}
	values, err := learning.ParseValueSystem(o.values)
	if err != nil {
		return usageError{err}
	}
	if o.pulses < 1 || o.pulses > 1000 {
		return usagef("--pulses %d out of range [1, 1000]", o.pulses)
	}
	if o.epochs < 1 || o.epochs > 1_000_000 {
		return usagef("--epochs %d out of range [1, 1000000]", o.epochs)
	}
	if o.out == "" {
		return usagef("--out must name a file")
	}
	cfg, err := o.machine.build(fs)
	if err != nil {
		return err
	}
	var plug *associator.Plugboard
	if o.wiring != "" {
		f, err := os.Open(o.wiring)
		if err != nil {
			return fmt.Errorf("reading plugboard: %w", err)
		}
		plug, err = associator.Read(f, o.wiring)
		f.Close()
		if err != nil {
			return err
		}
	}
	seeds := machine.SeedsFrom(o.machine.seed)
	train, test, err := o.data.load(seeds.Master)
	if err != nil {
		return err
	}
	m, err := machine.New(cfg, train.Classes, seeds, plug)
	if err != nil {
		return err
	}
	m.Training = map[string]string{
		"data":       train.Name,
		"rule":       rule.String(),
		"values":     values.String(),
		"pulses":     strconv.Itoa(o.pulses),
		"max_epochs": strconv.Itoa(o.epochs),
		"train_size": strconv.Itoa(train.Len()),
		"test_size":  strconv.Itoa(test.Len()),
	}
	tr := learning.Fields{X: m.Fit(train), Y: machine.Labels(train)}
	te := learning.Fields{X: m.Fit(test), Y: machine.Labels(test)}
	w := env.Stdout
	fmt.Fprintf(w, "Training a %q machine (%d S-units, %d A-units, %d of %d R-units in use, %d pots) on %s:\n",
		cfg.Preset, m.Retina.Cells(), len(m.Plugboard.Units), m.Layer.Used(), m.Layer.Config().Units, m.Layer.Pots(), train.Name)
	fmt.Fprintf(w, "  %d classes (%s), %d training cards, %d held out.\n", len(train.Classes), classList(train.Classes), train.Len(), test.Len())
	if !o.quiet {
		fmt.Fprintf(w, "\n  epoch  mistakes   P_r     P_g    machine time  pulses\n")
	}
	h := learning.Hardware{Rule: rule, Values: values, Pulses: o.pulses, MaxEpochs: o.epochs}
	// --record: a snapshot of the pots after every epoch (recordHook, dials.go).
	record, recordErr := func(machine.Epoch) {}, func() error { return nil }
	if o.record != "" {
		if record, recordErr, err = recordHook(o.record, m); err != nil {
			return err
		}
	}
	start := time.Now()
	res, err := h.Train(ctx, m, tr, te, func(e machine.Epoch) {
		record(e)
		if !o.quiet {
			fmt.Fprintf(w, "  %5d  %4d/%-4d %6.1f%%  %6s  %12s  %d\n", e.Epoch, e.Mistakes, tr.Len(),
				100*e.Pr, pct(e.Pg), clock(e.Seconds), e.Pulses)
		}
	})
	if err == nil {
		err = recordErr()
	}
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := m.Save(o.out); err != nil {
		return err
	}
	summary(w, m, res, te, elapsed, o.out)
	return nil
}

func summary(w io.Writer, m *machine.Machine, res *learning.Result, te learning.Fields, elapsed time.Duration, out string) {
	last := m.History[len(m.History)-1]
	fmt.Fprintf(w, "\n%s.\n", capital(res.Status))
	fmt.Fprintf(w, "  P_r, on the cards it was trained on:  %5.1f%%\n", 100*last.Pr)
	if last.Pg != nil {
		fmt.Fprintf(w, "  P_g, on %3d cards it never saw:       %5.1f%%\n", len(te.X), 100**last.Pg)
	}
	pa := meanPa(m, te)
	if !math.IsNaN(pa) {
		fmt.Fprintf(w, "  P_a, A-units firing per card:        %5.1f%%\n", 100*pa)
	}
	atStop := 0
	for i := range m.Bank.Len() {
		if m.Bank.AtStop(i) {
			atStop++
		}
	}
	fmt.Fprintf(w, "  Motors: %d pulses, %d against end stops; %d of %d pots rest at a stop.\n",
		last.Pulses, last.Saturations, atStop, m.Bank.Len())
	fmt.Fprintf(w, "  Simulated machine time %s (%.3g s per card, %.3g s per pulse); this run took %s.\n",
		clock(last.Seconds), m.Config.PresentSeconds, m.Config.Motors.PulseSeconds, elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "Saved the machine to %s. Next: mark1 predict --machine %s IMAGE, or mark1 wiring --machine %s.\n", out, out, out)
}

// meanPa is the mean fraction of A-units firing over the held-out cards.
func meanPa(m *machine.Machine, f learning.Fields) float64 {
	if len(f.X) == 0 {
		return math.NaN()
	}
	var r machine.Response
	noise := m.EvalNoise()
	var sum float64
	for _, x := range f.X {
		m.Present(&r, x, noise)
		sum += r.Pa(m)
	}
	return sum / float64(len(f.X))
}

func pct(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**p)
}

// clock formats simulated seconds as 1h02m03s.
func clock(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	return d.String()
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func classList(c []string) string {
	if len(c) <= 10 {
		return strings.Join(c, ", ")
	}
	return fmt.Sprintf("%s, %s, … %s", c[0], c[1], c[len(c)-1])
}
