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
// number of folds and the fold seed, and whether fits start warm. Its
// tasks are numbered 0 … Tasks−1, one per fold of each column of the
// grid: task i is fold i mod Folds of Gamma[i div Folds], with every C.
// A task trains on the other folds with each C in increasing order — each
// fit but the first started, with WarmStart, from the solution for the C
// before it — and counts each fit's right predictions on its own fold
// (Run); its Result names the plan by its ID (the SHA-256 of the plan
// file's bytes). A warm-started fit depends on the fit before it, so the
// chain is never split: each task depends on the plan and the data alone,
// results are the same whichever machine, worker or thread count
// computes them, and Merge — which refuses results of another plan and
// names every missing or duplicated task — gives the same table whatever
// order they come in. A task on a job array finds its number in the
// engine's variable (Plan.ArrayTask), its data as the plan read them
// (Plan.ReadData), and a results folder that holds nothing foreign
// (CheckOut).
//
// # The final model
//
// A final plan (NewFinalPlan, Plan.Final) trains the kernel SVM's model on
// all rows with one C and one γ, a task per one-vs-one binary problem:
// task i trains pair i (PairClasses) as the SVM trains it within its fit
// of all the rows (RunFinal) and records its machine — support vectors by
// row, coefficients and ρ (Result.Machine). modelfile.Setup.Join joins the
// machines into the model file fit writes, byte for byte.
package selection
