// Package learning trains classifiers on plain numeric data: the software
// learners of the lecture notes (perceptron and its averaged, voted and pocket
// variants, batch gradient descent on the perceptron risk, the kernel
// perceptron), behind one small interface (Learner) so that a comparison is
// one loop. The SVM lives in the sub-package learning/svm, kernels in
// learning/kernel. The package imports nothing of the machine or of images:
// the Mark I's own rule lives with the machine (machine.Session), and reaches
// a comparison through an adapter (learning/compare.Hardware).
//
// Three kinds of failure are kept apart, as in gonum: misuse (slices of the
// wrong length) panics with a "learning: ..." message; bad data returns an
// error; outcomes of an algorithm (epoch limit reached, data not separable)
// are reported in a Result's Status, never as an error.
package learning
