package learning

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// A fit's working memory (weights, per-row state, kernel caches, one model
// per one-vs-one pair) depends on the data's shape and can be far larger
// than the data: a thousand classes of a thousand rows whose largest
// feature index is 2²⁴ need 134 GB of perceptron weights although the file
// is 19 kB. Every learner therefore counts what it will allocate from the
// shape before it allocates, and refuses with a *MemoryError when the count
// passes the budget its context carries (WithMemoryBudget). A caller
// without a budget (plain context) is not checked: Go callers who give
// their own data bear their own limits.

// memoryKey is the context key of the memory budget.
type memoryKey struct{}

// WithMemoryBudget returns a copy of ctx that carries a budget of bytes for
// the working memory of every fit run under it; bytes ≤ 0 means no budget.
func WithMemoryBudget(ctx context.Context, bytes int64) context.Context {
	return context.WithValue(ctx, memoryKey{}, bytes)
}

// MemoryBudget returns the budget ctx carries (WithMemoryBudget), or 0 when
// it carries none.
func MemoryBudget(ctx context.Context) int64 {
	if b, ok := ctx.Value(memoryKey{}).(int64); ok && b > 0 {
		return b
	}
	return 0
}

// MemoryError reports a fit refused before it allocated: the data's shape
// asks for more working memory than the budget.
type MemoryError struct {
	Learner string // the learner, in its own name ("perceptron", "svm")
	Need    int64  // the bytes the fit would allocate (math.MaxInt64 when past counting)
	Budget  int64  // the bytes it may
	Cause   string // what needs them, as a phrase: "1000 machines × 16777217 weights"
}

func (e *MemoryError) Error() string {
	need := fmt.Sprintf("%.0f MB", float64(e.Need)/1e6)
	switch {
	case e.Need == math.MaxInt64:
		need = "more than 9.2 EB"
	case e.Need >= 10e9:
		need = fmt.Sprintf("%.0f GB", float64(e.Need)/1e9)
	}
	return fmt.Sprintf("%s: %s need %s of working memory, over the budget of %d bytes (%.0f MB)",
		e.Learner, e.Cause, need, e.Budget, float64(e.Budget)/1e6)
}

// Need is an amount of memory counted in float64, so that the product of
// large counts saturates instead of wrapping around; Bytes rounds it.
type Need float64

// Times returns the need of count items of size bytes each.
func Times(count int, size int) Need { return Need(float64(count) * float64(size)) }

// Bytes returns n as bytes, math.MaxInt64 when it is more.
func (n Need) Bytes() int64 {
	if float64(n) >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(math.Ceil(float64(n)))
}

// CheckMemory returns a *MemoryError naming learner and cause when need is
// over the budget ctx carries, and nil otherwise (or without a budget).
func CheckMemory(ctx context.Context, learner string, need Need, cause string) error {
	budget := MemoryBudget(ctx)
	if budget == 0 || need.Bytes() <= budget {
		return nil
	}
	return &MemoryError{Learner: learner, Need: need.Bytes(), Budget: budget, Cause: cause}
}

// Spare returns what the budget ctx carries leaves once used bytes are
// counted, for a learner that sizes a cache to its budget; def when ctx
// carries none, and at most def.
func Spare(ctx context.Context, used Need, def int64) int64 {
	budget := MemoryBudget(ctx)
	if budget == 0 {
		return def
	}
	return max(0, min(def, budget-used.Bytes()))
}

// onlineNeed is the working memory of the perceptron family on n rows of
// dim features for mach machines: the weights (copies as the variant
// keeps them: the running weights, the averaged sum or the pocket's, and
// the model's copy), the ±1 labels and the presentation order.
func onlineNeed(n, dim, mach, copies int) (Need, string) {
	w := Times(mach, dim+1) * Need(8*copies)
	return w + Times(n, 8*mach+8), fmt.Sprintf("%d machines × %d weights (%d copies of 8 bytes)", mach, dim+1, copies)
}

// ErrOverflow is wrapped by the error of a fit whose sums overflowed: the
// data's values are so large (near 1e308) that a decision value w·x + b
// or a kernel value is ±Inf or NaN, and no separator can be computed.
var ErrOverflow = errors.New("numbers overflow")

// overflowError is the error of learner at row i (0-based), whose decision
// value came out as v.
func overflowError(learner string, i int, v float64) error {
	return fmt.Errorf("%s: the decision value on row %d is %v, not a finite number: the data's values are too large for its sums (scale them): %w", learner, i+1, v, ErrOverflow)
}

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
