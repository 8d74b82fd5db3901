// Package selection chooses a learner's settings by cross-validation, as
// LIBSVM's svm-train -v and grid.py and scikit-learn's cross_val_score and
// GridSearchCV do, in a form that runs on one machine or on a job array.
//
// # Folds
//
// Folds deals each class's rows, in an order drawn from a seed, into k
// folds of nearly equal size, as LIBSVM's stratified cross-validation
// does: fold f gets rows [count·f/k, count·(f+1)/k) of each class's
// shuffled list. Every class needs at least k rows.
//
// # Plans, tasks and results
//
// A Plan is the whole of a search, written down before any work: the data
// (path, read options, a SHA-256 fingerprint of their content, fold sizes),
// the learner and its fixed options, the grid of C and γ values, the
// number of folds and the fold seed. Its tasks are numbered 0 … Tasks−1:
// task i is fold i mod Folds of grid cell i div Folds, and cell c is
// C[c div len(Gamma)] with Gamma[c mod len(Gamma)]. A task trains on the
// other folds and counts the right predictions on its own (Run); its
// Result names the plan by its ID (the SHA-256 of the plan file's bytes).
// Each task depends on the plan and the data alone, so results are the
// same whichever machine, worker or thread count computes them, and
// Merge — which refuses results of another plan and names every missing
// or duplicated task — gives the same table whatever order they come in.
//
// The cells are solved from scratch: the SVM solver's warm start is not
// offered by the multiclass learner, and a cell that began from the
// previous C's solution would depend on it (and stop at a slightly
// different point within the tolerance), so a cell would no longer be one
// independent task.
package selection
