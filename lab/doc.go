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
// class "−"). Besides the built-in Examples, NewExample takes points from
// the lab page and FromDataset a two-class file read by package dataset.
// Data of up to four classes (Multi: NewMulti, MultiFromDataset,
// GenerateMulti) run as the multi-class machines run (StartMulti):
// one-vs-rest and one-vs-one two-class runs, turned into a class by
// one-vs-rest's sign, one R-unit per class (the largest response, as the
// machine), or one-vs-one votes (LIBSVM's).
// The random A-layer (TraceALayer, the registry's a-layer) puts the Mark
// I's structure on the plane: random threshold units, half-planes
// (RandomUnits) or units wired to the plane rasterised into a small retina
// with x excitatory and y inhibitory origin cells (Retina, RandomRaster,
// the associator's rule written again here, since the lab links no
// simulator), and the perceptron on their 0/1 outputs only.
// Traces work in any dimension; the x-space and w-space pictures need two
// features and say so otherwise.
//
// A Run (Start) is one learner on one example; it writes itself as text or
// JSON, draws any of its Views at any frame (Picture, Animate, rendered by
// package dials), and gives each frame as data for the panel's lab page
// (Frame), so that the command and the page show the same run.
package lab
