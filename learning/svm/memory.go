package svm

import (
	"context"
	"fmt"
	"slices"

	"mark1/learning"
)

// machineBytes is what one trained binary machine costs beyond its support
// vectors' coefficients: its Machine and Binary records and their headers.
const machineBytes = 512

// kernelNeed counts a kernel SVM's working memory on d before anything is
// allocated: the binary problems (one-vs-one: one per pair of the present
// classes cs; one-vs-rest: one per class over all rows), each keeping, at
// most, an index, a coefficient and a bound flag for each of its rows (its
// support vectors) until the model is assembled, the largest problem's
// list of rows and labels and its solver state (and its float32 rows,
// gathered unless the rows are grouped by class, as Kernel.RowOrder
// orders them, or a view) on each of threads
// solvers at once, and the kernel cache, at
// most the whole matrix of a problem. It
// returns a *learning.MemoryError naming the number of problems when the
// count is over the budget ctx carries.
func kernelNeed(ctx context.Context, d *learning.Data, cs []int, strat Multiclass, s Settings) error {
	if learning.MemoryBudget(ctx) == 0 {
		return nil
	}
	n, k := d.Len(), len(cs)
	count := make(map[int]int, k)
	for _, c := range d.Y {
		count[c]++
	}
	var problems, rowsAll, largest int
	if k == 2 || strat != OneVsRest {
		problems = k * (k - 1) / 2
		rowsAll = (k - 1) * n // every row is in the k−1 pairs of its class
		first, second := 0, 0
		for _, c := range count {
			switch {
			case c > first:
				first, second = c, first
			case c > second:
				second = c
			}
		}
		largest = first + second
	} else {
		problems, rowsAll, largest = k, k*n, n
	}
	threads := s.Threads
	if threads == 0 {
		threads = 2 // at least: the budget does not depend on the cores
	}
	threads = max(1, min(threads, problems))
	cache := learning.Need(max(s.CacheMB, 0) * (1 << 20))
	full := learning.Times(largest, 4*largest)
	need := learning.Times(problems, machineBytes) + learning.Times(rowsAll, 17) + learning.Times(n, 8) +
		learning.Times(threads*largest, 49+16)
	if shareable(d, k, strat) {
		// the classes' rows over their own class (classRows), in what
		// the pairs' caches leave of the budget, and their bookkeeping
		for _, c := range count {
			full += learning.Times(c, 4*c)
		}
		// (45 bytes a row, and 48 for the whole data's gram), and each
		// problem's scratch (12 bytes a row)
		need += learning.Times(n, 45+48) + learning.Times(threads*largest, 12)
	}
	need += min(cache, full)
	if f, ok := d.Features().(*learning.Float32); ok && largest < n && !slices.IsSorted(d.Y) && !f.IsView() {
		need += learning.Times(threads*largest, 4*f.Dim()) // each problem's rows, gathered (vectors.setF32)
	}
	kind := "one-vs-one pairs"
	if problems == k && k > 2 {
		kind = "one-vs-rest machines"
	}
	return learning.CheckMemory(ctx, "svm", need, fmt.Sprintf("%d classes in %d %s over %d rows", k, problems, kind, n))
}

// shareable reports whether a fit's pairs may share their classes' rows
// (classRows): one-vs-one on more than two classes of float32 or byte rows.
func shareable(d *learning.Data, classes int, strat Multiclass) bool {
	switch d.Features().(type) {
	case *learning.Float32, *learning.Grey:
		return classes > 2 && strat != OneVsRest && !noClassRows
	}
	return false
}

// linearNeed counts a linear SVM's working memory on d: one weight vector
// per machine (one for two classes, one per class otherwise), per-row
// state, and the rows' index copy when they are not stored sparse.
func linearNeed(ctx context.Context, d *learning.Data, cs []int) error {
	if learning.MemoryBudget(ctx) == 0 {
		return nil
	}
	r := d.Features()
	n, dim, mach := r.Len(), r.Dim(), len(cs)
	if mach == 2 {
		mach = 1
	}
	need := learning.Times(mach, 8*(dim+1)) + learning.Times(n, 8*4+1)
	return learning.CheckMemory(ctx, "linear-svm", need, fmt.Sprintf("%d machines × %d weights and %d rows", mach, dim+1, n))
}
