package modelfile

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/learners"
	"mark1/learning/selection"
	"mark1/learning/svm"
)

// This file trains the kernel SVM's final model a binary problem at a time
// (a sweep's final plan, selection.Plan.Final) and joins the machines into
// the model file Fit writes, byte for byte.

// FitFingerprint returns the SHA-256, in hex, of training data as Fit
// takes them: train's own rows give dataset.Set.Fingerprint; rows read in
// blocks or compact (dataset.ReadFileCompact) give the hash of the
// dimension, the classes and labels and, in turn, each block's
// Fingerprint, or the compact rows' bytes or float32 values with Exact
// and Variance — all a fit reads of them. Call it before Fit, FitPair or
// JoinPairs, which let the rows go.
func FitFingerprint(train *dataset.Set, blocks []*dataset.Set, compact *dataset.Compact) string {
	if compact == nil && blocks == nil {
		return train.Fingerprint()
	}
	h := sha256.New()
	fitHead(h, train, blocks, compact)
	if compact != nil {
		h.Write(compact.Grey)
		writeFloat32s(h, compact.Float32)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fitHead writes what FitFingerprint hashes before the compact rows: the
// dimension, the classes and labels, the blocks' fingerprints, and the
// compact rows' Exact and Variance (not their rows).
func fitHead(w io.Writer, train *dataset.Set, blocks []*dataset.Set, compact *dataset.Compact) {
	head := struct {
		Dim     int      `json:"dim"`
		Classes []string `json:"classes"`
		Y       []int    `json:"y"`
		Blocks  []string `json:"blocks,omitempty"`
		Exact   bool     `json:"exact,omitempty"`
		// Variance is the compact rows' variance, as bits
		Variance uint64 `json:"variance,omitempty"`
	}{Dim: train.Dim, Classes: train.Classes, Y: train.Y}
	for _, b := range blocks {
		head.Blocks = append(head.Blocks, b.Fingerprint())
	}
	if compact != nil {
		head.Dim, head.Exact, head.Variance = compact.Dim, compact.Exact, math.Float64bits(compact.Variance)
	}
	if err := json.NewEncoder(w).Encode(head); err != nil {
		panic(err) // strings and integers
	}
}

// writeFloat32s writes v's values as FitFingerprint hashes them: each one's
// bits, little-endian.
func writeFloat32s(w io.Writer, v []float32) {
	buf := make([]byte, 0, min(1<<18, 4*len(v)))
	for _, x := range v {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		if len(buf) == cap(buf) {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	w.Write(buf)
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

// prepareKernel is prepare for the one-vs-one kernel SVM, which it
// returns beside the data, the learner built and the row order.
func prepareKernel(spec learners.Spec, opts learners.Options, train *dataset.Set, blocks []*dataset.Set, o FitOptions) (*learning.Data, learners.Built, svm.Kernel, []int, error) {
	d, built, order, err := prepare(spec, opts, train, blocks, o)
	if err != nil {
		return nil, built, svm.Kernel{}, nil, err
	}
	km, ok := built.Learner.(svm.Kernel)
	if !ok || km.Type != svm.CSVC || km.Multiclass != svm.OneVsOne {
		return nil, built, km, nil, fmt.Errorf("%s: a model trained a binary problem at a time is the kernel SVM's (svm), one-vs-one", spec.Name)
	}
	return d, built, km, order, nil
}

// FitPair trains binary problem q of spec's one-vs-one kernel SVM (the
// classes selection.PairClasses(q, classes) gives) with opts on train, its
// rows taken as Fit takes them (blocks and o.Compact as Fit's), exactly as
// Fit trains it within its fit of all of train: the same rows, γ of scale
// or auto and class weights resolved on all of train. train's rows are let
// go, and compact rows are reordered in place.
func FitPair(ctx context.Context, spec learners.Spec, opts learners.Options, train *dataset.Set, blocks []*dataset.Set, o FitOptions, q int) (*PairModel, error) {
	d, built, km, order, err := prepareKernel(spec, opts, train, blocks, o)
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
	d, built, _, order, err := prepareKernel(spec, opts, train, blocks, o)
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
	m := svm.NewKernelModel(built.Kernel, k, svm.OneVsOne, learning.Subset(d.Rows, svRows), machines)
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
