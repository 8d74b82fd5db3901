// Package learning trains classifiers: the Mark I's hardware rules, which turn
// mistakes into motor pulses on the machine's potentiometers, and the software
// learners of the lecture notes (perceptron and its averaged, voted and pocket
// variants, batch gradient descent on the perceptron risk, the kernel
// perceptron), behind one small interface so that a comparison is one loop.
// The SVM lives in the sub-package learning/svm, kernels in learning/kernel.
//
// Three kinds of failure are kept apart, as in gonum: misuse (slices of the
// wrong length) panics with a "learning: ..." message; bad data returns an
// error; outcomes of an algorithm (epoch limit reached, data not separable)
// are reported in a Result's Status, never as an error.
package learning
