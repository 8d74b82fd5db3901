package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"mark1/dataset"
	"mark1/internal/base/param"
)

// MaxClasses bounds the classes of a lab data set.
const MaxClasses = 4

// Multi is a data set of 2 to MaxClasses classes: X[i] is of class Y[i],
// an index into Classes. The lab's learners separate two classes; on a
// Multi they run as the multi-class machines do (StartMulti).
type Multi struct {
	Name    string      `json:"name"`
	Teaches string      `json:"teaches"`
	X       [][]float64 `json:"x"`
	Y       []int       `json:"y"`
	Classes []string    `json:"classes"`
}

// NewMulti checks a data set as NewExample does, with class indices for
// labels: 2 to MaxClasses classes, each with at least one point.
func NewMulti(name string, x [][]float64, y []int, classes []string) (Multi, error) {
	k := len(classes)
	if k < 2 || k > MaxClasses {
		return Multi{}, fmt.Errorf("%s: %d classes; the lab takes 2 to %d", name, k, MaxClasses)
	}
	pm := make([]int, len(y))
	count := make([]int, k)
	for i, c := range y {
		if c < 0 || c >= k {
			return Multi{}, fmt.Errorf("%s: point %d has class %d; want 0 to %d", name, i+1, c, k-1)
		}
		count[c]++
		pm[i] = 1
	}
	if _, err := NewExample(name, x, pm); err != nil { // the points' own checks
		return Multi{}, err
	}
	for c, n := range count {
		if n == 0 {
			return Multi{}, fmt.Errorf("%s: class %s has no points", name, classes[c])
		}
	}
	m := Multi{Name: name, X: make([][]float64, len(x)), Y: slices.Clone(y), Classes: slices.Clone(classes)}
	for i, r := range x {
		m.X[i] = slices.Clone(r)
	}
	return m, nil
}

// MultiFromDataset makes a Multi of a data set read by package dataset
// with 2 to MaxClasses classes, in the file's order of classes.
func MultiFromDataset(s *dataset.Set) (Multi, error) {
	if s.Rows() > MaxDataRows {
		return Multi{}, fmt.Errorf("%s: %d rows; the lab writes every step down and takes at most %d", s.Name, s.Rows(), MaxDataRows)
	}
	x, err := s.Dense(MaxDataRows * 1000)
	if err != nil {
		return Multi{}, err
	}
	m, err := NewMulti(filepath.Base(s.Name), x, s.Y, s.Classes)
	if err != nil {
		return Multi{}, err
	}
	m.Teaches = fmt.Sprintf("your data: %d classes (%s)", len(s.Classes), strings.Join(s.Classes, ", "))
	return m, nil
}

// OneVsRest returns the two-class problem of class c against the others:
// + is class c.
func (m Multi) OneVsRest(c int) Example {
	e := Example{Name: fmt.Sprintf("%s: %s against the rest", m.Name, m.Classes[c]), X: m.X, Y: make([]int, len(m.Y))}
	for i, y := range m.Y {
		e.Y[i] = -1
		if y == c {
			e.Y[i] = 1
		}
	}
	return e
}

// OneVsOne returns the two-class problem of classes a and b alone (+ is
// a), and the index in m of each of its points.
func (m Multi) OneVsOne(a, b int) (Example, []int) {
	e := Example{Name: fmt.Sprintf("%s: %s against %s", m.Name, m.Classes[a], m.Classes[b])}
	var idx []int
	for i, y := range m.Y {
		if y == a || y == b {
			e.X = append(e.X, m.X[i])
			e.Y = append(e.Y, 1-2*b2i(y == b))
			idx = append(idx, i)
		}
	}
	return e, idx
}

// Pairs returns the one-vs-one pairs (a, b), a < b, in LIBSVM's order:
// (0, 1), (0, 2), …, (1, 2), ….
func Pairs(k int) [][2]int {
	var p [][2]int
	for a := range k {
		for b := a + 1; b < k; b++ {
			p = append(p, [2]int{a, b})
		}
	}
	return p
}

// MultiRun is one learner on a data set of several classes, run as the
// multi-class machines run it: one-vs-rest (a two-class run of each class
// against the others: f_c) and one-vs-one (a two-class run for each pair
// of classes: f_ab, + for a). Three rules turn them into a class:
//
//	ovr     one-vs-rest by sign: the one class whose f_c(x) > 0; none
//	        (−1) where no class or several claim x
//	unit    one R-unit per class, the largest response wins: the c of
//	        the largest f_c(x), the first on a tie (mark1's machine
//	        decides so, each class its own R-unit)
//	ovo     one-vs-one votes: f_ab(x) > 0 votes a, else b; the class with
//	        the most votes, the first on a tie (LIBSVM's svm_predict)
type MultiRun struct {
	Data  Multi
	Setup Setup
	OvR   []*Run
	OvO   []*Run
	Pairs [][2]int
}

// Rules lists the rules of a MultiRun, in the order the pictures show them.
func Rules() []string { return []string{"ovr", "unit", "ovo"} }

// StartMulti runs s's learner on each one-vs-rest and one-vs-one problem
// of m (Start).
func StartMulti(ctx context.Context, m Multi, s Setup) (*MultiRun, error) {
	if s.Learner == SGD && s.Loss == "squared" {
		return nil, fmt.Errorf("%s: the squared loss fits a line through the points, not classes; choose another loss for %d classes", m.Name, len(m.Classes))
	}
	if s.Learner == ALayer {
		// Each two-class run would draw A-units of its own; the Mark I's
		// R-units share one A-layer, which the lab does not draw yet.
		return nil, param.Errorf("learner", ALayer, "a learner of two classes' data: %s draws two-class runs only (%d classes here)", ALayer, len(m.Classes))
	}
	r := &MultiRun{Data: m, Setup: s, Pairs: Pairs(len(m.Classes))}
	for c := range m.Classes {
		run, err := Start(ctx, m.OneVsRest(c), s)
		if err != nil {
			return nil, err
		}
		r.OvR = append(r.OvR, run)
	}
	for _, p := range r.Pairs {
		e, _ := m.OneVsOne(p[0], p[1])
		run, err := Start(ctx, e, s)
		if err != nil {
			return nil, err
		}
		r.OvO = append(r.OvO, run)
	}
	r.Setup = r.OvR[0].Setup
	return r, nil
}

// Frames returns the number of frames: those of the longest of the
// two-class runs (each shows its last after it ends).
func (r *MultiRun) Frames() int {
	n := 0
	for _, run := range slices.Concat(r.OvR, r.OvO) {
		n = max(n, run.Frames())
	}
	return n
}

// Classify returns the three rules' classifiers at frame f (−1: the
// last): each gives a class index, or −1 where one-vs-rest by sign
// leaves x to none or to several.
func (r *MultiRun) Classify(f int) (ovr, unit, ovo func([]float64) int, err error) {
	if f < 0 || f >= r.Frames() {
		f = r.Frames() - 1
	}
	var fr, fo []func([]float64) float64
	for _, run := range r.OvR {
		d, err := run.decisionAt(min(f, run.Frames()-1))
		if err != nil {
			return nil, nil, nil, err
		}
		fr = append(fr, d)
	}
	for _, run := range r.OvO {
		d, err := run.decisionAt(min(f, run.Frames()-1))
		if err != nil {
			return nil, nil, nil, err
		}
		fo = append(fo, d)
	}
	k := len(r.Data.Classes)
	ovr = func(x []float64) int {
		got := -1
		for c, d := range fr {
			if d(x) > 0 {
				if got >= 0 {
					return -1
				}
				got = c
			}
		}
		return got
	}
	unit = func(x []float64) int {
		best, bv := 0, fr[0](x)
		for c := 1; c < k; c++ {
			if v := fr[c](x); v > bv {
				best, bv = c, v
			}
		}
		return best
	}
	pairs := r.Pairs
	ovo = func(x []float64) int {
		votes := make([]int, k)
		for p, d := range fo {
			if d(x) > 0 {
				votes[pairs[p][0]]++
			} else {
				votes[pairs[p][1]]++
			}
		}
		best := 0
		for c := 1; c < k; c++ {
			if votes[c] > votes[best] {
				best = c
			}
		}
		return best
	}
	return ovr, unit, ovo, nil
}

// RuleScore is how a rule does on the training points at a frame.
type RuleScore struct {
	Rule  string `json:"rule"`
	Right int    `json:"right"`
	// Wrong counts the points given another class; None those left to
	// no class (one-vs-rest by sign only).
	Wrong int `json:"wrong"`
	None  int `json:"none"`
}

// Scores returns each rule's score on the training points at frame f.
func (r *MultiRun) Scores(f int) ([]RuleScore, error) {
	ovr, unit, ovo, err := r.Classify(f)
	if err != nil {
		return nil, err
	}
	var out []RuleScore
	for k, rule := range []func([]float64) int{ovr, unit, ovo} {
		s := RuleScore{Rule: Rules()[k]}
		for i, x := range r.Data.X {
			switch c := rule(x); {
			case c < 0:
				s.None++
			case c == r.Data.Y[i]:
				s.Right++
			default:
				s.Wrong++
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// ruleText names a rule for people.
func ruleText(rule string) string {
	switch rule {
	case "ovr":
		return "one-vs-rest by sign (the one class with f_c(x) > 0)"
	case "unit":
		return "one R-unit per class (the largest f_c(x) wins, as the machine decides)"
	}
	return "one-vs-one votes (f_ab(x) > 0 votes a; most votes wins, LIBSVM's rule)"
}

// runSummary says in one line where a two-class run ended.
func runSummary(run *Run) string {
	last := run.Frames() - 1
	var what string
	switch {
	case run.Kernel != nil:
		what = fmt.Sprintf("%d stored", len(run.Kernel.Stored))
	case run.SVM != nil:
		what = fmt.Sprintf("%d support vectors, b = %s", len(run.SVM.Support), Num(run.SVM.B))
	default:
		path := run.Path(-1)
		what = "w = " + Vec(path[len(path)-1])
	}
	return fmt.Sprintf("%d steps, %s; %s", last, what, run.status())
}

// status returns how the run ended.
func (r *Run) status() string {
	switch {
	case r.Perceptron != nil:
		return r.Perceptron.Status
	case r.GD != nil:
		return r.GD.Status
	case r.Kernel != nil:
		return r.Kernel.Status
	case r.Loss != nil:
		return r.Loss.Status
	}
	return r.SVM.Status
}

// WriteText writes the run: each two-class run's end in a line, and how
// each rule does on the training points.
func (r *MultiRun) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	m := r.Data
	ew.printf("%s: %d points, %d classes (%s); %s\n", m.Name, len(m.X), len(m.Classes), strings.Join(m.Classes, ", "), r.OvR[0].setupText())
	var names []string
	for c := range r.OvR {
		names = append(names, m.Classes[c]+" vs rest")
	}
	for _, p := range r.Pairs {
		names = append(names, m.Classes[p[0]]+" vs "+m.Classes[p[1]])
	}
	width := 0
	for _, n := range names {
		width = max(width, utf8.RuneCountInString(n))
	}
	ew.printf("\none-vs-rest: a run of each class (+) against the others (−), f_c\n")
	for c, run := range r.OvR {
		ew.printf("  %-*s  %s\n", width, names[c], runSummary(run))
	}
	ew.printf("\none-vs-one: a run of each pair (+ the first), f_ab, in LIBSVM's order\n")
	for p, run := range r.OvO {
		ew.printf("  %-*s  %s\n", width, names[len(r.OvR)+p], runSummary(run))
	}
	scores, err := r.Scores(-1)
	if err != nil {
		return err
	}
	ew.printf("\nthe rules on the %d training points at the end:\n", len(m.X))
	for _, s := range scores {
		ew.printf("  %-72s %d right, %d wrong", ruleText(s.Rule), s.Right, s.Wrong)
		if s.Rule == "ovr" {
			ew.printf(", %d claimed by none or several", s.None)
		}
		ew.printf("\n")
	}
	return ew.err
}

// traceValue returns the run's trace, as WriteJSON writes it.
func (r *Run) traceValue() any {
	switch {
	case r.Perceptron != nil:
		return r.Perceptron
	case r.GD != nil:
		return r.GD
	case r.Kernel != nil:
		return r.Kernel
	case r.Loss != nil:
		return r.Loss
	}
	return r.SVM
}

// WriteJSON writes the run as indented JSON: the classes, each two-class
// run's trace, and the rules' scores at the end.
func (r *MultiRun) WriteJSON(w io.Writer) error {
	type pair struct {
		Classes [2]string `json:"classes"`
		Trace   any       `json:"trace"`
	}
	type rest struct {
		Class string `json:"class"`
		Trace any    `json:"trace"`
	}
	scores, err := r.Scores(-1)
	if err != nil {
		return err
	}
	v := struct {
		Example   string      `json:"example"`
		Classes   []string    `json:"classes"`
		Learner   string      `json:"learner"`
		OneVsRest []rest      `json:"one_vs_rest"`
		OneVsOne  []pair      `json:"one_vs_one"`
		Rules     []RuleScore `json:"rules"`
	}{Example: r.Data.Name, Classes: r.Data.Classes, Learner: r.Setup.Learner, Rules: scores}
	for c, run := range r.OvR {
		v.OneVsRest = append(v.OneVsRest, rest{r.Data.Classes[c], run.traceValue()})
	}
	for p, run := range r.OvO {
		v.OneVsOne = append(v.OneVsOne, pair{[2]string{r.Data.Classes[r.Pairs[p][0]], r.Data.Classes[r.Pairs[p][1]]}, run.traceValue()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// RuleGrid is the class a rule gives over an N×N grid of x-space, row by
// row from the bottom as Grid's; −1 where one-vs-rest by sign gives none.
type RuleGrid struct {
	Rule  string     `json:"rule"`
	Title string     `json:"title"`
	N     int        `json:"n"`
	Box   [4]float64 `json:"box"`
	Z     []int8     `json:"z"`
	Score RuleScore  `json:"score"`
}

// Frame returns frame f (−1: the last) of the run as data for the lab
// page: the points with their class indices in Labels, the classes, each
// rule's classes over XBox on n×n grids with its score, the one-vs-rest
// lines of the linear learners (ending in Line's form: a·x₁ + b·x₂ + c =
// 0), and the text.
func (r *MultiRun) Frame(f, n int, minHalf float64) (*Frame, error) {
	m := r.Data
	if len(m.X[0]) != 2 {
		return nil, fmt.Errorf("%s: the lab page draws 2 features and the data have %d; the trace (text or JSON) works in any dimension", m.Name, len(m.X[0]))
	}
	if n < 8 || n > 200 {
		panic(fmt.Sprintf("lab: Frame: grid size %d not in [8, 200]", n))
	}
	if f < 0 || f >= r.Frames() {
		f = r.Frames() - 1
	}
	e := Example{Name: m.Name, X: m.X, Y: m.Y}
	fr := &Frame{Frame: f, Frames: r.Frames(), Points: m.X, Labels: m.Y, Mark: -1, Feasible: [][2]float64{}, Ringed: []int{}, Classes: m.Classes}
	fr.Caption = fmt.Sprintf("%s · %d classes · %s · step %d: each two-class run at its step %d (or its end)", m.Name, len(m.Classes), r.OvR[0].setupText(), f, f)
	xb := frameBox(e, minHalf)
	fr.XBox = [4]float64{xb.X0, xb.X1, xb.Y0, xb.Y1}
	var buf strings.Builder
	if err := r.WriteText(&buf); err != nil {
		return nil, err
	}
	fr.Text = buf.String()
	ovr, unit, ovo, err := r.Classify(f)
	if err != nil {
		return nil, err
	}
	scores, err := r.Scores(f)
	if err != nil {
		return nil, err
	}
	at := boxGrid{box: xb, n: n} // the cells' centres
	x := make([]float64, 2)
	for k, rule := range []func([]float64) int{ovr, unit, ovo} {
		g := RuleGrid{Rule: Rules()[k], Title: ruleText(Rules()[k]), N: n, Box: fr.XBox, Z: make([]int8, n*n), Score: scores[k]}
		for row := range n {
			for c := range n {
				x[0] = at.X(c)
				x[1] = at.Y(row)
				g.Z[row*n+c] = int8(rule(x))
			}
		}
		fr.Rules = append(fr.Rules, g)
	}
	for _, run := range r.OvR {
		g := min(f, run.Frames()-1)
		if path := run.Path(g); path != nil {
			w := path[len(path)-1]
			b := 0.0
			if (run.Loss != nil && run.Loss.Options.Bias) || (run.Loss == nil && run.Setup.Bias) {
				b = w[2]
			}
			fr.Lines = append(fr.Lines, [3]float64{w[0], w[1], b})
		}
	}
	fr.Status = fmt.Sprintf("%s: %d of %d right", ruleText("unit"), scores[1].Right, len(m.X))
	fr.Converged = f == r.Frames()-1
	return fr, nil
}
