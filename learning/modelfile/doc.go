// Package modelfile saves and loads the trained models of the software
// learners (package learning and learning/svm) with what it takes to apply
// them to new data — the class names, the dimension, the scaling fitted on
// the training data — and writes them in LIBSVM's and LIBLINEAR's model
// formats, which those libraries' svm-predict and liblinear-predict read.
//
// # The mark1 model file
//
// A model file is JSON (see File for every field). Numbers are written in
// the shortest form that reads back to the same float64, and support
// vectors of dense rows as one block of their bytes (SupportVectors: grey
// levels, float32 or float64, whichever holds them exactly), so a saved
// and loaded model predicts exactly what the trained one did. Fields that do not
// apply to a learner are null. Read checks every field (lengths, ranges,
// finite numbers) and refuses files above MaxFileBytes before decoding.
// ReadCompact, for prediction (mark1 apply), keeps a float32 block's
// support vectors as the file holds them, 4 bytes a value, and Model
// builds the SVM on them in place: a third of the memory of Sparse vectors
// and no second copy.
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
// and the bias weight last. WriteLIBSVM also writes the ν-SVC, the one-class
// SVM and the SVRs (svm_type nu_svc, one_class, epsilon_svr, nu_svr) and the
// sigmoid kernel.
//
// # Reading LIBSVM's and LIBLINEAR's models
//
// Read tells the three formats apart by their first word and reads model
// files that svm-train (all five svm_types; linear, polynomial, rbf and
// sigmoid kernels) and liblinear-train (every solver: the classifiers -s 0
// to 7, the regressions -s 11 to 13 and the one-class -s 21) wrote, into a
// File that predicts as svm-predict and liblinear-predict do (the tests
// train models with the Debian tools and compare every prediction). A
// one-class model or a regression has no classes: Values is true and
// ValueModel gives its predictions. Errors are *ParseError values naming
// the file and line; the readers hold at most MaxFileBytes of input, lines
// of 64 MiB and dataset.DefaultMaxValues numbers.
//
// # Fitting, applying and tuning as mark1 does
//
// Fit and FitValues train a learner on a data file's rows, Apply predicts
// a data file, and Outputs.Write writes a model file with its exports.
// What they found is a FitReport or an ApplyReport, which mark1 fit and
// apply print as JSON (marshalled) or as text (WriteText). A Setup is a
// learner as a cross-validation plan records it: Grid reads a grid
// search's axes, NewPlan writes its plan down, RunTask runs one of its
// tasks, and CrossValidateClasses and CrossValidateValues are fit --cv
// (a CVReport).
package modelfile
