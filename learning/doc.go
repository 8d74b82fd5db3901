// Package learning trains classifiers on plain numeric data: the software
// learners of the lecture notes (perceptron and its averaged, voted and pocket
// variants, batch gradient descent on the perceptron risk, the kernel
// perceptron), behind one small interface (Learner) so that a comparison is
// one loop. The SVM lives in the sub-package learning/svm, kernels in
// learning/kernel. The package imports nothing of the machine or of images:
// the Mark I's own rule lives with the machine (machine.Session), and reaches
// a comparison through an adapter (compare.Hardware, a top-level package).
//
// Features are stored once, compactly, as Rows: Dense rows of float64, Bits
// for 0/1 features, or Sparse rows (CSR) for data with many features and few
// non-zeros; Compact picks the form (Sparse.Compact32 also Grey bytes and
// Float32 rows). A file read a block at a time is a Stack of sparse parts,
// whose Compact32 copies it into that form in any row order, letting each
// part go as it is copied. Every learner here and in learning/svm
// reads them through Rows' methods (dot with a dense vector, add to a dense
// vector, squared norm), so the same learner runs on any form without
// copying, and a sparse row is never written out densely during a fit. A
// Data built from X [][]float64 is read as Dense rows in place.
//
// Three kinds of failure are kept apart, as in gonum: misuse (slices of the
// wrong length) panics with a "learning: ..." message; bad data returns an
// error; outcomes of an algorithm (epoch limit reached, data not separable)
// are reported in a Result's Status, never as an error.
package learning
