package modelfile

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/selection"
	"mark1/learning/svm"
)

// This file trains the kernel SVM's final model a binary problem at a time
// (a sweep's final plan, selection.Plan.Final) and joins the machines into
// the model file Fit writes, byte for byte.

// FitFingerprint returns the SHA-256, in hex, of training data as Fit
// takes them: train's own rows, or those of blocks, give
// dataset.Set.Fingerprint of the file's parsed rows; compact rows
// (dataset.ReadFileCompact) give the hash of their bytes or float32 values
// with the labels, the classes, Exact and Variance — all a fit reads of
// them. Call it before Fit, FitPair or JoinPairs, which let the rows go.
func FitFingerprint(train *dataset.Set, blocks []*dataset.Set, compact *dataset.Compact) string {
	if compact == nil && blocks == nil {
		return train.Fingerprint()
	}
	h := sha256.New()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	if compact != nil {
		h.Write([]byte("mark1 compact rows\n"))
		put(uint64(compact.Dim))
	} else {
		put(uint64(train.Dim))
	}
	put(uint64(len(train.Classes)))
	for _, c := range train.Classes {
		put(uint64(len(c)))
		h.Write([]byte(c))
	}
	put(uint64(train.Rows()))
	if compact != nil {
		for _, y := range train.Y {
			put(uint64(y))
		}
		put(uint64(btoi(compact.Exact)))
		put(math.Float64bits(compact.Variance))
		h.Write(compact.Grey)
		for _, v := range compact.Float32 {
			binary.LittleEndian.PutUint32(b[:4], math.Float32bits(v))
			h.Write(b[:4])
		}
		return hex.EncodeToString(h.Sum(nil))
	}
	i := 0 // as Set.Fingerprint, the rows of the blocks in turn
	for _, s := range blocks {
		for r := range s.Rows() {
			idx, val := s.Row(r)
			put(uint64(train.Y[i]))
			put(uint64(len(idx)))
			for k, j := range idx {
				put(uint64(j))
				put(math.Float64bits(val[k]))
			}
			i++
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// PairModel is one binary machine of the kernel SVM's one-vs-one fit,
// trained on its own (FitPair): f(x) = Σ Coef[k]·K(row SV[k], x) − Rho,
// positive for class Pos against class Neg, over the training data's rows
// SV (0-based, in the data's order), with LIBSVM's γ Gamma (nil without
// one) and the solver's Iterations.
type PairModel struct {
	Pos, Neg   int
	SV         []int
	Coef       []float64
	Rho        float64
	Gamma      *float64
	Iterations int
}

// kernelSVM returns the kernel SVM prepare built.
func kernelSVM(spec learners.Spec, built learners.Built) (svm.Kernel, error) {
	km, ok := built.Learner.(svm.Kernel)
	if !ok || km.Type != svm.CSVC || km.Multiclass != svm.OneVsOne {
		return km, fmt.Errorf("%s: a model trained a binary problem at a time is the kernel SVM's (svm), one-vs-one", spec.Name)
	}
	return km, nil
}

// FitPair trains binary problem q of spec's one-vs-one kernel SVM (the
// classes selection.PairClasses(q, classes) gives) with opts on train, its
// rows taken as Fit takes them (blocks and o.Compact as Fit's), exactly as
// Fit trains it within its fit of all of train: the same rows, γ of scale
// or auto and class weights resolved on all of train. train's rows are let
// go, and compact rows are reordered in place.
func FitPair(ctx context.Context, spec learners.Spec, opts learners.Options, train *dataset.Set, blocks []*dataset.Set, o FitOptions, q int) (*PairModel, error) {
	d, built, order, err := prepare(spec, opts, train, blocks, o)
	if err != nil {
		return nil, err
	}
	km, err := kernelSVM(spec, built)
	if err != nil {
		return nil, err
	}
	mc, err := km.FitPair(ctx, d, q)
	if err != nil {
		return nil, err
	}
	if order != nil {
		for k, r := range mc.SV {
			mc.SV[k] = order[r]
		}
	}
	return &PairModel{Pos: mc.Pos, Neg: mc.Neg, SV: mc.SV, Coef: mc.Coef, Rho: mc.Rho, Gamma: built.Gamma, Iterations: mc.Iter}, nil
}

// ErrPairs is wrapped by JoinPairs's error when the machines are not those
// of the fit on these data.
var ErrPairs = errors.New("not the machines of this fit")

// JoinPairs joins the machines of every binary problem (FitPair's, in pair
// order) of spec's kernel SVM into the model file Fit writes for opts and
// train (rows as Fit takes them), byte for byte: their support vectors in
// the order the machines first name them, as the fit lists them. It
// returns an error wrapping ErrPairs for machines of other classes or
// another γ, or rows out of range.
func JoinPairs(ctx context.Context, spec learners.Spec, opts learners.Options, train *dataset.Set, blocks []*dataset.Set, o FitOptions, pairs []PairModel) (*File, error) {
	k := len(train.Classes)
	if len(pairs) != k*(k-1)/2 {
		return nil, fmt.Errorf("%w: %d machines for %d classes, want %d", ErrPairs, len(pairs), k, k*(k-1)/2)
	}
	n := train.Rows()
	d, built, order, err := prepare(spec, opts, train, blocks, o)
	if err != nil {
		return nil, err
	}
	km, err := kernelSVM(spec, built)
	if err != nil {
		return nil, err
	}
	at := make([]int, n) // row r of train is row at[r] of d
	for r := range at {
		at[r] = r
	}
	for j, r := range order {
		at[r] = j
	}
	slot := map[int]int{}
	var svRows []int
	machines := make([]svm.Machine, len(pairs))
	for q, pm := range pairs {
		if q%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		a, b := selection.PairClasses(q, k)
		switch {
		case pm.Pos != a || pm.Neg != b:
			return nil, fmt.Errorf("%w: machine %d is of classes %d and %d, want %d and %d", ErrPairs, q, pm.Pos, pm.Neg, a, b)
		case (pm.Gamma == nil) != (built.Gamma == nil) || pm.Gamma != nil && math.Float64bits(*pm.Gamma) != math.Float64bits(*built.Gamma):
			return nil, fmt.Errorf("%w: machine %d was trained with γ %s; these data give %s", ErrPairs, q, gammaOf(pm.Gamma), gammaOf(built.Gamma))
		case len(pm.SV) != len(pm.Coef):
			return nil, fmt.Errorf("%w: machine %d has %d support vectors and %d coefficients", ErrPairs, q, len(pm.SV), len(pm.Coef))
		}
		mc := svm.Machine{Pos: a, Neg: b, Rho: pm.Rho, SV: make([]int, len(pm.SV)), Coef: pm.Coef}
		for j, r := range pm.SV {
			if r < 0 || r >= n {
				return nil, fmt.Errorf("%w: machine %d names row %d of %d", ErrPairs, q, r, n)
			}
			s, ok := slot[at[r]]
			if !ok {
				s = len(svRows)
				slot[at[r]] = s
				svRows = append(svRows, at[r])
			}
			mc.SV[j] = s
		}
		machines[q] = mc
	}
	kern := km.Kernel
	if kern == nil {
		kern = kernel.Linear{}
	}
	m := svm.NewKernelModel(kern, k, svm.OneVsOne, learning.Subset(d.Rows, svRows), machines)
	f, err := FromModel(spec.Name, m, train.Classes, train.Dim, o.Scaler, built.Gamma, built.Bias)
	if err != nil {
		return nil, err
	}
	f.Schema = SchemaOf(train)
	return f, nil
}

func gammaOf(g *float64) string {
	if g == nil {
		return "none"
	}
	return strconv.FormatFloat(*g, 'g', -1, 64)
}

// cell returns the learner's options with threads, cacheMB, C c and γ
// gamma (as in selection.Plan.Gamma; "" leaves the kernel's).
func (l Setup) cell(threads int, cacheMB, c float64, gamma string) (learners.Options, error) {
	o := l.Options
	o.Threads, o.CacheMB, o.C = threads, cacheMB, c
	if gamma != "" {
		var err error
		if o.Gamma, err = kernel.ParseGamma(gamma); err != nil {
			return o, err
		}
	}
	return o, nil
}

// FinalFit is selection.FinalFitFunc for the learner on train, its rows
// taken as Fit takes them (blocks, o.Compact) and already scaled as
// o.Scaler says (the Setup's Scale, fitted on train): the binary problem
// trained as fit trains it within its fit (FitPair), on threads
// goroutines (0: all cores) with cacheMB of kernel cache. It trains one
// problem: FitPair lets train's rows go.
func (l Setup) FinalFit(train *dataset.Set, blocks []*dataset.Set, o FitOptions, threads int, cacheMB float64) selection.FinalFitFunc {
	return func(ctx context.Context, pair int, c float64, gamma string) (selection.Machine, int, error) {
		opts, err := l.cell(threads, cacheMB, c, gamma)
		if err != nil {
			return selection.Machine{}, 0, err
		}
		pm, err := FitPair(ctx, l.Spec, opts, train, blocks, o, pair)
		if err != nil {
			return selection.Machine{}, 0, err
		}
		return selection.Machine{SV: pm.SV, Coef: pm.Coef, Rho: pm.Rho, Gamma: pm.Gamma}, pm.Iterations, nil
	}
}

// Join joins the machines of final plan p's results (selection.ReadResults
// checked them, in task order) into the model file fit writes for the
// plan's learner, C and γ on train — rows as Fit takes them, scaled as
// FinalFit's — byte for byte (JoinPairs).
func (l Setup) Join(ctx context.Context, p *selection.Plan, results []selection.Result, train *dataset.Set, blocks []*dataset.Set, o FitOptions) (*File, error) {
	if !p.Final {
		return nil, errors.New("not a final plan: its results are a grid's")
	}
	opts, err := l.cell(0, l.Options.CacheMB, p.C[0], p.Gamma[0])
	if err != nil {
		return nil, err
	}
	pairs := make([]PairModel, len(results))
	for q, m := range selection.Machines(results) {
		a, b := selection.PairClasses(q, p.Data.Classes)
		pairs[q] = PairModel{Pos: a, Neg: b, SV: m.SV, Coef: m.Coef, Rho: m.Rho, Gamma: m.Gamma, Iterations: results[q].Iterations[0]}
	}
	return JoinPairs(ctx, l.Spec, opts, train, blocks, o, pairs)
}
