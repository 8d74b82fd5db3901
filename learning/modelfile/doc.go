// Package modelfile saves and loads the trained models of the software
// learners (package learning and learning/svm) with what it takes to apply
// them to new data — the class names, the dimension, the scaling fitted on
// the training data — and writes them in LIBSVM's and LIBLINEAR's model
// formats, which those libraries' svm-predict and liblinear-predict read.
//
// # The mark1 model file
//
// A model file is JSON (see File for every field). Numbers are written in
// the shortest form that reads back to the same float64, so a saved and
// loaded model predicts exactly what the trained one did. Fields that do not
// apply to a learner are null. Read checks every field (lengths, ranges,
// finite numbers) and refuses files above MaxFileBytes before decoding.
//
// # LIBSVM and LIBLINEAR
//
// WriteLIBSVM writes a kernel SVM (one-vs-one, linear, polynomial or
// Gaussian kernel) as svm_save_model does (LIBSVM 3.x, svm.cpp): the header,
// then the support vectors grouped by class in class order, each line with
// its nr_class−1 coefficients and its non-zero features. Two details differ
// on purpose and are read identically by svm_load_model: feature values are
// written to 17 significant digits (LIBSVM writes 8, which would move
// decision values), and labels must be integers, because LIBSVM's format
// stores them as such. WriteLIBLINEAR writes a linear SVM (or a perceptron's
// linear model) as LIBLINEAR's save_model does, with one weight per feature
// and the bias weight last.
package modelfile
