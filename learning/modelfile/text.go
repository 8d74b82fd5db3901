package modelfile

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// The text forms below are what fit and apply print without --json: the
// same reports, in LIBSVM's words where LIBSVM has them.

// WriteText writes the report as mark1 fit prints it: the learner and the
// settings that shape its model in one phrase, the data, each binary
// machine in LIBSVM's words (obj, rho, nSV, nBSV), the status, and how the
// model did on the training rows and the test file when measured.
func (r *FitReport) WriteText(w io.Writer) error {
	t := bufio.NewWriter(w)
	values := r.Classes == nil
	if values {
		fmt.Fprintf(t, "%s on %s: %d rows, %d features\n", r.describe(), r.Data.File, r.Data.Rows, r.Data.Features)
	} else {
		fmt.Fprintf(t, "%s on %s: %d rows, %d features, %d classes (%s)\n", r.describe(), r.Data.File, r.Data.Rows, r.Data.Features, len(r.Classes), strings.Join(r.Classes, " "))
	}
	for _, m := range r.Machines {
		if err := m.writeText(t, values); err != nil { // one-vs-one of many classes prints millions
			return err
		}
	}
	fmt.Fprintf(t, "%s\n", r.Status)
	oneClass := r.Learner == "one-class"
	switch {
	case r.Training == nil:
	case values:
		fmt.Fprintf(t, "training: %s\n", r.Training.valueText(oneClass))
	default:
		fmt.Fprintf(t, "training accuracy %s\n", r.Training.accuracyText())
	}
	switch {
	case r.Test == nil:
	case values:
		fmt.Fprintf(t, "test on %s: %s\n", r.Test.File, r.Test.valueText(oneClass))
	default:
		fmt.Fprintf(t, "test accuracy %s on %s\n", r.Test.accuracyText(), r.Test.File)
	}
	writeUnseen(t, r.Unseen)
	return t.Flush()
}

// describe names the learner and the settings that shape its model in one
// phrase: its kernel as used (with γ, and the rule that gave it), its loss,
// C, ν, ε and class weights.
func (r *FitReport) describe() string {
	var parts []string
	if r.Kernel != "" {
		parts = append(parts, "kernel "+r.Kernel)
		if r.Gamma != nil {
			g := fmt.Sprintf("gamma %.6g", *r.Gamma)
			if rule := r.Options["gamma"]; rule == "scale" || rule == "auto" {
				g += " (" + rule + ")"
			}
			parts = append(parts, g)
		}
	}
	for _, o := range []struct{ name, format string }{{"loss", "%s loss"}, {"C", "C %s"}, {"nu", "nu %s"}, {"epsilon", "epsilon %s"}, {"class-weight", "class-weight %s"}} {
		if v := r.Options[o.name]; v != "" {
			parts = append(parts, fmt.Sprintf(o.format, v))
		}
	}
	if len(parts) == 0 {
		return r.Learner
	}
	return fmt.Sprintf("%s (%s)", r.Learner, strings.Join(parts, ", "))
}

// writeText writes a machine as LIBSVM's svm-train and LIBLINEAR's train
// print it: a kernel machine (one with nBSV) with its rho and iterations,
// a linear one with its passes; a value model's one machine without the
// classes.
func (m MachineReport) writeText(t *bufio.Writer, values bool) (err error) {
	if !values {
		fmt.Fprintf(t, "machine %s vs %s: ", orRest(m.Pos), orRest(m.Neg))
	}
	if m.NBSV == nil {
		_, err = fmt.Fprintf(t, "obj = %.10g, nSV = %d, %d passes\n", orNaN(m.Obj), orZero(m.NSV), m.Iterations)
	} else {
		_, err = fmt.Fprintf(t, "obj = %.10g, rho = %.10g, nSV = %d, nBSV = %d, %d iterations\n", orNaN(m.Obj), orNaN(m.Rho), orZero(m.NSV), *m.NBSV, m.Iterations)
	}
	return err
}

// WriteText writes the report as mark1 apply prints it: the accuracy (a
// value model's scores), and the labels the model has no class for.
func (r *ApplyReport) WriteText(w io.Writer) error {
	t := bufio.NewWriter(w)
	m := r.Metrics
	switch {
	case r.Classes == nil:
		fmt.Fprintf(t, "%s on %s: %s\n", r.Model, r.Data.File, m.valueText(oneClass(r.Learner, r.Solver)))
	case m.Correct != nil:
		fmt.Fprintf(t, "%s on %s: accuracy %s\n", r.Model, r.Data.File, m.accuracyText())
	default:
		fmt.Fprintf(t, "%s on %s: %d rows predicted; the data have no labels, so no accuracy\n", r.Model, r.Data.File, m.Rows)
	}
	writeUnseen(t, r.Unseen)
	return t.Flush()
}

// writeUnseen says which labels of the data the model was not trained on.
func writeUnseen(t *bufio.Writer, unseen []UnseenLabel) {
	for _, u := range unseen {
		fmt.Fprintf(t, "label %q (%d rows) was not among the training data's classes: those rows count as wrong\n", u.Label, u.Rows)
	}
}

// accuracyText is the accuracy as a percentage and its count, "" without
// labels.
func (m *Metrics) accuracyText() string {
	if m.Correct == nil {
		return ""
	}
	return percent(*m.Correct, m.Rows)
}

// valueText says in one line how a value model did: the one-class SVM's
// rows inside (and its agreement with labels), a regression's scores.
func (m *Metrics) valueText(oneClass bool) string {
	if oneClass {
		inside := 0
		if m.Inside != nil {
			inside = int(math.Round(*m.Inside * float64(m.Rows)))
		}
		line := fmt.Sprintf("%s of the rows inside (+1)", percent(inside, m.Rows))
		if m.Correct != nil {
			line += fmt.Sprintf("; accuracy against the labels (1 inside, -1 outside) %s", m.accuracyText())
		}
		return line
	}
	if m.MSE == nil && m.R2 == nil && m.SquaredCorrelation == nil {
		return fmt.Sprintf("%d rows predicted; the data have no labels, so no error", m.Rows)
	}
	return fmt.Sprintf("mean squared error %.6g, R² %.6g, squared correlation %.6g (%d rows)", orNaN(m.MSE), orNaN(m.R2), orNaN(m.SquaredCorrelation), m.Rows)
}

func percent(right, n int) string {
	if n == 0 {
		return "n/a (no rows)"
	}
	return fmt.Sprintf("%.2f%% (%d/%d)", 100*float64(right)/float64(n), right, n)
}

// orNaN is a number of a report, NaN where the report has null.
func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

func orZero(v *int) int {
	if v == nil {
		return 0
	}
	return *v
}

func orRest(class *string) string {
	if class == nil {
		return "rest"
	}
	return *class
}
