package learning

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Adaline is Widrow and Hoff's adaptive linear element (1960), trained by
// the least-mean-squares (LMS) rule on targets d = ±1: the presented row's
// error is that of its linear output, ε = d − (w·x + b), not of its sign,
// and it moves the weights (the bias as the weight of a constant input 1)
//
//	μ-LMS (the default):  w ← w + 2μ·ε·x
//	α-LMS (Alpha > 0):    w ← w + α·ε·x/‖x‖²
//
// α-LMS takes the presented row's error down by exactly the factor
// (1 − α); it converges for 0 < α < 2 and diverges beyond. With a step
// that decays (Decay), μ-LMS reaches the least-squares (Wiener) solution
// w = (XᵀX)⁻¹Xᵀd. The class is the sign of w·x + b (the quantizer);
// more than two classes are one-vs-rest machines, the largest output
// winning, as the perceptrons'.
type Adaline struct {
	// Mu is μ-LMS's step; 0 means 0.01.
	Mu float64
	// Alpha, when positive, selects α-LMS with this α.
	Alpha float64
	// Decay, when positive, divides the step in epoch e by 1 + Decay·(e−1).
	Decay float64
	// NoBias drops the constant input.
	NoBias bool
	// MaxEpochs bounds the passes; 0 means 100.
	MaxEpochs int
	// Tol stops the run once an epoch moves no weight by more than Tol
	// times the weights' largest size; 0 means 1e-12.
	Tol float64
	// InOrder presents the rows in data order every epoch, else in a fresh
	// order drawn from Seed.
	InOrder bool
	Seed    uint64
	// Bank, if not nil, makes the weights physical parts (memistors,
	// rheostats): it is given the number of weights, machines × (features
	// + 1 with the bias), and returns the bank that holds them, all zero.
	// Each presentation's changes to every machine are then commanded at
	// once through WeightBank.Adapt, PresentSeconds pass on the bank's
	// clock, and the rule reads the weights back as the bank holds them.
	// Without a bank the weights are exact numbers.
	Bank           func(n int) (WeightBank, error)
	PresentSeconds float64
	// UntilRight also stops the run after an epoch in which every row was
	// answered right before its change (the Mark I's stopping rule).
	UntilRight bool
}

// A WeightBank holds an ADALINE's weights as parts that move as commanded,
// more or less: memistors.Bank is one.
type WeightBank interface {
	// Weights returns the weights as they stand; the caller must not
	// change them.
	Weights() []float64
	// Adapt commands weight i to change by delta[i], all at once, and
	// returns the time it took.
	Adapt(delta []float64) float64
	// Advance lets seconds pass.
	Advance(seconds float64)
}

// exactBank is the weights as exact numbers: every change made as
// commanded, in no time.
type exactBank struct{ w []float64 }

func (b *exactBank) Weights() []float64 { return b.w }

func (b *exactBank) Adapt(delta []float64) float64 {
	for i, d := range delta {
		b.w[i] += d
	}
	return 0
}

func (b *exactBank) Advance(float64) {}

// Name returns "adaline".
func (Adaline) Name() string { return "adaline" }

// divergeAt is the size past which the weights are taken to diverge.
const divergeAt = 1e100

// Fit trains one machine per class against the rest (one for two
// classes), on targets ±1.
func (a Adaline) Fit(ctx context.Context, d *Data, rec Recorder) (*Result, error) {
	mu, tol, maxEpochs := a.Mu, a.Tol, a.MaxEpochs
	if mu == 0 {
		mu = 0.01
	}
	if tol == 0 {
		tol = 1e-12
	}
	if maxEpochs == 0 {
		maxEpochs = defaultMaxEpochs
	}
	if !(mu > 0) || math.IsInf(mu, 0) || a.Alpha < 0 || math.IsNaN(a.Alpha) || a.Decay < 0 {
		panic(fmt.Sprintf("learning: adaline: μ %v, α %v, decay %v out of range", a.Mu, a.Alpha, a.Decay))
	}
	f := d.Features()
	n, dim := f.Len(), f.Dim()
	machines := d.Classes
	if machines == 2 {
		machines = 1
	}
	in := dim
	if !a.NoBias {
		in++
	}
	var bank WeightBank = &exactBank{make([]float64, machines*in)}
	if a.Bank != nil {
		var err error
		if bank, err = a.Bank(machines * in); err != nil {
			return nil, err
		}
		if len(bank.Weights()) != machines*in {
			return nil, fmt.Errorf("adaline: the bank holds %d weights; want %d", len(bank.Weights()), machines*in)
		}
	}
	delta := make([]float64, machines*in)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(a.Seed, orderStream))
	res := &Result{}
	var x []float64
	for e := 1; e <= maxEpochs; e++ {
		if err := ctx.Err(); err != nil {
			res.Status = Cancelled
			return res, err
		}
		if !a.InOrder {
			rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		step := 1 / (1 + a.Decay*float64(e-1))
		moved, size, mistakes := 0.0, 0.0, 0
		for _, i := range order {
			x = f.Row(x, i)
			norm2 := 0.0
			for _, v := range x {
				norm2 += v * v
			}
			if !a.NoBias {
				norm2++
			}
			w := bank.Weights()
			for k := range machines {
				wk, dk := w[k*in:(k+1)*in], delta[k*in:(k+1)*in]
				t := ovrSign(d.Y[i], k, d.Classes)
				out := dot(wk[:dim], x)
				if !a.NoBias {
					out += wk[dim]
				}
				if (out > 0) != (t > 0) {
					mistakes++
				}
				eps := t - out
				var g float64 // the factor of x in the update
				switch {
				case a.Alpha > 0 && norm2 == 0: // no change
				case a.Alpha > 0:
					g = step * a.Alpha * eps / norm2
				default:
					g = step * 2 * mu * eps
				}
				for j, v := range x {
					dk[j] = g * v
					moved = math.Max(moved, math.Abs(dk[j]))
				}
				if !a.NoBias {
					dk[dim] = g
					moved = math.Max(moved, math.Abs(g))
				}
			}
			bank.Adapt(delta)
			bank.Advance(a.PresentSeconds)
		}
		w := bank.Weights()
		for _, v := range w {
			size = math.Max(size, math.Abs(v))
		}
		res.Epochs, res.Updates = e, res.Updates+n
		entry := Epoch{Epoch: e, Mistakes: mistakes, Risk: math.NaN()}
		res.Curve = append(res.Curve, entry)
		if size > divergeAt || math.IsNaN(size) || math.IsInf(size, 0) {
			res.Status = Diverged
			res.Summary = fmt.Sprintf("diverged in epoch %d: the weights grew past %g (α-LMS needs 0 < α < 2; μ-LMS a smaller μ)", e, float64(divergeAt))
			res.Model = newLinearModel(d.Classes, dim, make([]float64, machines*dim), make([]float64, machines))
			return res, nil
		}
		if rec != nil {
			if err := rec.Record(entry); err != nil {
				res.Status = Stopped
				res.Model = a.model(d.Classes, dim, in, machines, bank.Weights())
				return res, err
			}
		}
		if (a.UntilRight && mistakes == 0) || moved <= tol*math.Max(size, 1) {
			res.Status = Converged
			break
		}
	}
	if res.Status == Running {
		res.Status = EpochLimit
	}
	res.Model = a.model(d.Classes, dim, in, machines, bank.Weights())
	if a.UntilRight && res.Status == Converged && res.Curve[len(res.Curve)-1].Mistakes == 0 {
		res.Summary = fmt.Sprintf("every row right in epoch %d", res.Epochs)
	}
	if res.Summary == "" {
		res.Summary = fmt.Sprintf("%s after %d epochs", res.Status, res.Epochs)
	}
	return res, nil
}

// model returns the trained machines as a LinearModel.
func (a Adaline) model(classes, dim, in, machines int, w []float64) *LinearModel {
	ws, bs := make([]float64, machines*dim), make([]float64, machines)
	for k := range machines {
		copy(ws[k*dim:(k+1)*dim], w[k*in:k*in+dim])
		if !a.NoBias {
			bs[k] = w[k*in+dim]
		}
	}
	return newLinearModel(classes, dim, ws, bs)
}
