package selection

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
)

// PlanFormat and ResultFormat are the Format fields of plan and result
// files; Version is their version. Version 3: the data's fingerprint of
// rows held as float32 holds the variance of their values taken 65,536
// values at a time, whatever the rows a reader parses at a time (version
// 2 took it a block of 4,096 rows at a time), so a version 2 plan of such
// rows would not match its data.
const (
	PlanFormat   = "mark1-sweep-plan"
	ResultFormat = "mark1-sweep-result"
	Version      = 3
)

// MaxFits bounds a plan's fits (C values × γ values × folds).
const MaxFits = 1 << 20

// maxFileBytes bounds a plan or result file read.
const maxFileBytes = 64 << 20

// Data identifies a plan's data: where they were read from and how, and
// what they hold.
type Data struct {
	// Path is the data file as given when the plan was made.
	Path string `json:"path"`
	// Format, LabelColumn and Indices are how the file was read
	// (dataset.Options: "libsvm", "csv", "text"; a label column or "";
	// "auto", "0-based", "1-based").
	Format      string `json:"format"`
	LabelColumn string `json:"label_column"`
	Indices     string `json:"indices"`
	// Fingerprint is dataset.Set.Fingerprint of the data read.
	Fingerprint string `json:"sha256"`
	Rows        int    `json:"rows"`
	Dim         int    `json:"dim"`
	Classes     int    `json:"classes"`
}

// Plan is a cross-validated grid search written down before any work (see
// the package documentation).
type Plan struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Data    Data   `json:"data"`
	// Learner names the learner and Options its fixed settings, by name
	// (as the model file and fit name them: kernel, degree, coef0, eps,
	// scale, …); the grid sets C and gamma.
	Learner string            `json:"learner"`
	Options map[string]string `json:"options"`
	// C holds the grid's values of C, Gamma its values of γ: numbers, or
	// "scale"/"auto" (resolved on each fold's training part), or the one
	// value "" for a learner without γ. Log2C and Log2Gamma hold their
	// base-2 logarithms when the values came from a range (for the
	// picture's axes), else are null.
	C         []float64 `json:"c"`
	Gamma     []string  `json:"gamma"`
	Log2C     []float64 `json:"log2c"`
	Log2Gamma []float64 `json:"log2gamma"`
	// Folds is the number of folds, Seed the seed that deals them
	// (Folds), FoldRows the rows of each fold.
	Folds    int    `json:"folds"`
	Seed     uint64 `json:"seed"`
	FoldRows []int  `json:"fold_rows"`
	// WarmStart says that each fit of a column but the first (of the
	// smallest C) starts from the solution for the C before it (the
	// kernel SVM's Kernel.FitPath); otherwise every fit starts from α = 0.
	WarmStart bool `json:"warm_start"`
	// Pairs, when not 0, splits every task into the one-vs-one binary
	// problems of the kernel SVM, Classes·(Classes−1)/2 of them (ByPair):
	// a task is then one binary problem of one fold of one γ, every C,
	// and it records the votes its machine casts on the fold's rows, which
	// Merge counts as the SVM's prediction does.
	Pairs int `json:"pairs,omitempty"`
	// Final, when true, makes the plan the fit of the final model rather
	// than a search (NewFinalPlan): its one C and one γ on all of the
	// data's rows, no folds (Folds 0, Seed 0, FoldRows null), a task per
	// binary problem (Pairs), each recording its machine (Result.Machine),
	// which merge joins into the model file fit writes. Data.Fingerprint
	// is then that of the rows as fit takes them
	// (modelfile.FitFingerprint).
	Final bool `json:"final,omitempty"`
	// Tasks is len(Gamma) × Folds (× Pairs when split by pair): one task
	// per fold (and binary problem) of each column; Pairs for a final
	// plan.
	Tasks int `json:"tasks"`
}

// Column is one task of a plan: one fold of the grid's column of one γ,
// every C; in a plan split by pair, one binary problem of it, the classes
// A against B (indices into the data's classes), Pair its number.
type Column struct {
	Task, Gamma, Fold int // indices into the plan's lists
	Pair, A, B        int
}

// MaxPairClasses bounds the classes of a plan split by pair: a fold's
// labels are recorded a byte a row.
const MaxPairClasses = 256

// ByPair splits the plan's tasks by one-vs-one binary problem (Pairs).
func (p *Plan) ByPair() error {
	k := p.Data.Classes
	if k < 2 || k > MaxPairClasses {
		return fmt.Errorf("%d classes: a plan split by pair takes 2 to %d", k, MaxPairClasses)
	}
	p.Pairs = k * (k - 1) / 2
	p.Tasks = p.wantTasks()
	return p.Check()
}

// PairClasses returns the classes a < b of one-vs-one binary problem q of
// k classes, numbered as the SVM numbers them: (0,1), (0,2), …, (1,2), ….
func PairClasses(q, k int) (a, b int) {
	for a = 0; q >= k-1-a; a++ {
		q -= k - 1 - a
	}
	return a, a + 1 + q
}

// NewPlan makes the plan for data s (read as d says; d's sizes are filled
// in, and its fingerprint, s.Fingerprint, unless d has one: that of rows
// s does not hold, its reader's), the learner and options, the grid and
// the folds.
// It returns a *FoldError when a class has fewer rows than folds, and an
// error for an empty grid or one of more than MaxTasks tasks.
func NewPlan(s *dataset.Set, d Data, learner string, options map[string]string, c []float64, gamma []string, folds int, seed uint64) (*Plan, error) {
	if d.Fingerprint == "" {
		d.Fingerprint = s.Fingerprint()
	}
	d.Rows, d.Dim, d.Classes = s.Rows(), s.Dim, len(s.Classes)
	f, err := Folds(s.Y, len(s.Classes), folds, seed)
	if err != nil {
		return nil, err
	}
	p := &Plan{Format: PlanFormat, Version: Version, Data: d, Learner: learner, Options: options,
		C: c, Gamma: gamma, Folds: folds, Seed: seed, FoldRows: make([]int, folds)}
	for _, k := range f {
		p.FoldRows[k]++
	}
	if len(c) == 0 || len(gamma) == 0 {
		return nil, errors.New("an empty grid: no values of C or of gamma")
	}
	if n := len(c) * len(gamma) * folds; n > MaxFits {
		return nil, fmt.Errorf("%d C × %d γ × %d folds = %d fits, more than %d", len(c), len(gamma), folds, n, MaxFits)
	}
	p.Tasks = len(gamma) * folds
	return p, p.Check()
}

// wantTasks is the number of tasks of p's grid, folds and pairs.
func (p *Plan) wantTasks() int {
	if p.Final {
		return p.Pairs
	}
	return len(p.Gamma) * p.Folds * max(1, p.Pairs)
}

// Check reports the first inconsistency of a plan read from a file.
func (p *Plan) Check() error {
	switch {
	case p.Format == PlanFormat && p.Version < Version:
		return fmt.Errorf("a mark1 sweep plan of version %d, made by an older mark1; this mark1 reads version %d (make the plan again)", p.Version, Version)
	case p.Format != PlanFormat || p.Version != Version:
		return fmt.Errorf("format %q version %d; want %q version %d", p.Format, p.Version, PlanFormat, Version)
	case len(p.C) == 0 || len(p.Gamma) == 0:
		return errors.New("an empty grid: no values of C or of gamma")
	case p.Final:
		if err := p.checkFinal(); err != nil {
			return err
		}
	case p.Folds < 2 || len(p.FoldRows) != p.Folds:
		return fmt.Errorf("folds %d with %d fold sizes", p.Folds, len(p.FoldRows))
	case p.Pairs != 0 && (p.Data.Classes < 2 || p.Data.Classes > MaxPairClasses || p.Pairs != p.Data.Classes*(p.Data.Classes-1)/2):
		return fmt.Errorf("pairs %d for %d classes; want k·(k−1)/2 for k in [2, %d]", p.Pairs, p.Data.Classes, MaxPairClasses)
	case p.Tasks != p.wantTasks() || len(p.C)*p.Tasks > MaxFits:
		return fmt.Errorf("tasks %d; want %d γ × %d folds × %d pairs, with %d C at most %d fits", p.Tasks, len(p.Gamma), p.Folds, max(1, p.Pairs), len(p.C), MaxFits)
	case p.Log2C != nil && len(p.Log2C) != len(p.C), p.Log2Gamma != nil && len(p.Log2Gamma) != len(p.Gamma):
		return errors.New("log2 axes of another length than the grid's")
	case p.Data.Rows < p.Folds || len(p.Data.Fingerprint) != 64:
		return fmt.Errorf("data of %d rows with fingerprint %q", p.Data.Rows, p.Data.Fingerprint)
	}
	for _, c := range p.C {
		if !(c > 0) || math.IsInf(c, 0) {
			return fmt.Errorf("c %v out of range: C must be a finite number > 0", c)
		}
	}
	for _, g := range p.Gamma {
		if g == "" || g == "scale" || g == "auto" {
			continue
		}
		if x, err := strconv.ParseFloat(g, 64); err != nil || !(x > 0) || math.IsInf(x, 0) {
			return fmt.Errorf("gamma %q: want scale, auto or a finite number > 0", g)
		}
	}
	for k, e := range p.Log2C {
		if !sameValue(p.C[k], math.Exp2(e)) {
			return fmt.Errorf("c %v is not 2^%v, its log2c", p.C[k], e)
		}
	}
	for k, e := range p.Log2Gamma {
		if g, err := strconv.ParseFloat(p.Gamma[k], 64); err != nil || !sameValue(g, math.Exp2(e)) {
			return fmt.Errorf("gamma %q is not 2^%v, its log2gamma", p.Gamma[k], e)
		}
	}
	if p.Final {
		return nil
	}
	n := 0
	for k, r := range p.FoldRows {
		if r < 1 {
			return fmt.Errorf("fold %d of %d rows: every fold holds at least one row", k, r)
		}
		n += r
	}
	if n != p.Data.Rows {
		return fmt.Errorf("fold sizes add up to %d rows; the data have %d", n, p.Data.Rows)
	}
	return nil
}

// sameValue reports whether a and b agree to the last few bits (a value
// and the power of two its exponent gives, each written as JSON).
func sameValue(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// Column returns task i's column (γ) and fold. It panics if i is out of
// range.
func (p *Plan) Column(i int) Column {
	if i < 0 || i >= p.Tasks {
		panic(fmt.Sprintf("selection: task %d out of range [0, %d)", i, p.Tasks))
	}
	if p.Final {
		c := Column{Task: i, Pair: i}
		c.A, c.B = PairClasses(i, p.Data.Classes)
		return c
	}
	if p.Pairs == 0 {
		return Column{Task: i, Gamma: i / p.Folds, Fold: i % p.Folds}
	}
	per := p.Folds * p.Pairs
	c := Column{Task: i, Gamma: i / per, Fold: i % per / p.Pairs, Pair: i % p.Pairs}
	c.A, c.B = PairClasses(c.Pair, p.Data.Classes)
	return c
}

// Encode returns the plan file's bytes: indented JSON and a newline.
func (p *Plan) Encode() []byte {
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		panic(err) // a Plan holds nothing json cannot encode
	}
	return append(b, '\n')
}

// ID returns the plan's identity, the SHA-256 of Encode's bytes, which
// results carry.
func (p *Plan) ID() string {
	h := sha256.Sum256(p.Encode())
	return hex.EncodeToString(h[:])
}

// WritePlan writes p to path atomically.
func WritePlan(path string, p *Plan) error {
	return atomicfile.WriteBytes(path, p.Encode())
}

// ReadPlan reads and checks a plan file; errors name path.
func ReadPlan(path string) (*Plan, error) {
	var p Plan
	if err := readJSON(path, &p); err != nil {
		return nil, err
	}
	if p.Format != PlanFormat {
		return nil, fmt.Errorf("%s: not a mark1 sweep plan (format %q)", path, p.Format)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("%s: bad plan: %w", path, err)
	}
	return &p, nil
}

// PlanData returns the data path the plan file at path names, read
// leniently (a plan ReadPlan refuses may still name its data), or "" when
// path is not a readable plan: the files a sweep reads, for a check that
// keeps its outputs off them.
func PlanData(path string) string {
	b, err := atomicfile.ReadFile(path, maxFileBytes, "")
	var p Plan
	if err != nil || json.Unmarshal(b, &p) != nil {
		return ""
	}
	return p.Data.Path
}

// readJSON decodes one JSON value from a regular file of at most
// maxFileBytes, refusing unknown fields.
func readJSON(path string, v any) error {
	fh, err := atomicfile.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxFileBytes+1))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxFileBytes {
		return fmt.Errorf("%s: larger than %d bytes", path, maxFileBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: not JSON of the expected form: %w", path, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: more than one JSON value", path)
	}
	return nil
}
