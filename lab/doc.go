// Package lab is the lecture notes (shared/reference 000–004), runnable: the
// notes' small examples as built-in data sets, traces of the learners step
// for step as the notes write them, the geometry the notes draw (dual lines,
// the feasible region, the perceptron risk R(w) and its gradient, margins and
// radii), and pictures of all of it.
//
// Nothing here learns. The traces drive the learners of package learning
// (Perceptron, BatchGD, KernelPerceptron) through their Watch hooks and the
// SVM of package learning/svm, and write down what they did; the geometry is
// measured on the data, for the pictures and for checking the traces.
//
// The examples are two-class: label +1 (the notes' O, class "+") and −1 (X,
// class "−"). Traces work in any dimension; the x-space and w-space pictures
// need two features and say so otherwise.
package lab
