// Package svm trains support vector machines: the maximum-margin separators
// of the lecture notes, beside which the Mark I's error-correction rules and
// the perceptron can be measured.
//
// # The problem
//
// A soft-margin SVM on examples x_i with labels y_i = ±1 solves
//
//	min_{w,b,ξ} ½‖w‖² + C Σ_i ξ_i  subject to  y_i (w·Φ(x_i) + b) ≥ 1 − ξ_i, ξ_i ≥ 0,
//
// where Φ is the feature map of a kernel k(x, z) = Φ(x)·Φ(z) from package
// learning/kernel. The solvers work on the dual,
//
//	min_α ½ αᵀQα − Σ_i α_i  subject to  0 ≤ α_i ≤ C, Σ_i y_i α_i = 0,  Q_ij = y_i y_j k(x_i, x_j),
//
// whose solution gives w = Σ_i α_i y_i Φ(x_i); the examples with α_i > 0
// are the support vectors. The geometric margin of the separator is 1/‖w‖,
// with ‖w‖² = αᵀQα. As C → ∞ the problem becomes the hard-margin SVM,
// which exists only when the data are separable in the feature space.
//
// # The solvers
//
// Solve is sequential minimal optimization (Platt, "Fast training of
// support vector machines using sequential minimal optimization", 1998):
// each iteration changes two α's, the smallest number that keeps Σ y_i α_i
// = 0, by an analytic step. The pair is chosen by the second-order rule of
// Fan, Chen and Lin ("Working set selection using second order information
// for training support vector machines", JMLR 6, 2005; "WSS 3"), which
// picks the most violating i and then the j that promises the largest
// decrease of the objective. As in LIBSVM (Chang and Lin, "LIBSVM: a
// library for support vector machines", ACM TIST 2, 2011) the solver keeps
// the gradient ∇f(α) = Qα − e, stops when the maximal KKT violation
// m(α) − M(α) is below Eps, caches rows of Q in float32 under a memory
// budget (least recently used first out), and shrinks: variables that sit
// at a bound and are unlikely to move leave the active set, and their
// gradient is rebuilt from Ḡ_i = C Σ_{α_j=C} Q_ij before the end. The
// objective, threshold ρ and support vector counts agree with LIBSVM's
// svm-train to its printed precision (see testdata/libsvm-golden.json).
//
// The learners read the training data through learning.Rows (dense, bit
// sets or sparse CSR) and never write a sparse row out densely. Kernel rows
// are computed from the data stored in the fastest layout for their dot
// products: bit sets with popcount for 0/1 data such as the retina's
// photocells, the caller's index lists for sparse data (each row's values
// gathered from the other row scattered, four products at a time with AVX
// where the processor has it), bytes for grey pictures whose values are
// all b/255 exactly (an exact integer dot product, AVX2 where the
// processor has it), float32 rows (AVX2 and FMA; a kernel
// row reads consecutive memory: each pair's rows are read where they lie
// when the rows are grouped by class, as Kernel.RowOrder orders them and
// mark1 fit stores them, and gathered in the pair's order otherwise),
// gonum's dense dot otherwise; the
// Gaussian and Laplace kernels then use ‖x−z‖² = ‖x‖² + ‖z‖² − 2x·z with
// precomputed norms, and their exponentials are taken four at a time
// (bit for bit math.Exp's).
//
// Once the active rows' data outgrow the processor's caches (12 MB), a
// kernel row costs the reading of the data from memory more than its
// arithmetic. When the
// row the pair selection asks for is not cached, the solver computes it in
// one pass over the data with the rows of the most violating variable of
// each side that are not cached either (the columns a tile at a time, each
// tile read once for all the rows), and it rebuilds the gradient of shrunk
// variables a window of rows at a time in the same way. Most of the rows
// computed ahead are asked for soon after; the steps, and so the model,
// are those of computing every row when it is asked for.
//
// The one-vs-one pairs of more than two classes of float32, byte or
// sparse rows, grouped by class (Kernel.RowOrder), share their kernel values within a
// class: a row's values over its own class are the same in the k−1 pairs
// of its class, and are computed once, over the whole class, when a pair
// first asks for them, in what the pairs' caches leave of CacheMB; a pair
// computes only its values against the other class. The pair selection's
// loops and the gradient update take four entries at a time with AVX2,
// with the scalar operations in their order. The values, the pairs chosen
// and so the model are the same, to the bit.
//
// # Threads
//
// Settings.Threads (0: all cores) is the number of binary problems of a
// multi-class model solved at once, each with an equal share of CacheMB;
// cores left over compute long kernel rows together. KernelModel.PredictRows
// predicts a table in blocks of rows on all cores, with the kernel values of
// a row computed once for all machines. Every kernel entry is computed
// alone, so models and predictions are the same whatever the number.
//
// Settings.Hard (or C = +Inf) asks for the hard margin. It is found as the
// limit of soft margins with C growing tenfold from 1/mean k(x,x), each
// warm-started from the last: once no α is at the bound the solution is the
// hard-margin one (Status Separable). If bounded α remain up to
// C = 10⁸/mean k(x,x), or the solution shows that any separator would have
// a margin below the smallest that ladder can recognise, the Status is
// NotSeparable and the Message says how many training points are still
// misclassified.
//
// SolveLinear is the linear SVM by dual coordinate descent (Hsieh, Chang,
// Lin, Keerthi and Sundararajan, "A dual coordinate descent method for
// large-scale linear SVM", ICML 2008), as LIBLINEAR's -s 3 (hinge loss) and
// -s 1 (squared hinge loss): it keeps w = Σ α_i y_i x_i explicitly, so one
// coordinate step costs one sparse dot product; it visits the variables in
// a random order per pass from a seeded math/rand/v2 source, shrinks
// variables stuck at a bound, and stops when the projected gradient varies
// by less than Eps over a pass. A constant feature Bias (default 1, as
// LIBLINEAR's -B 1) gives the bias term, which is then regularized with w.
//
// # LIBSVM's other formulations
//
// The same solver, given a linear term p (the dual min ½αᵀQα + pᵀα) and a
// bound per label (Cp, Cn: the class weights of Kernel.ClassWeight, as
// LIBSVM's -wi), solves all five of LIBSVM's problems as its svm.cpp does:
// the C-SVC; the ν-SVC (Kernel.Type NuSVC), whose Solver_NU chooses pairs
// of equal labels and finds ρ and r, the solution scaled by 1/r being the
// C-SVC's with C = 1/r; the one-class SVM (OneClassSVM) with p = 0 and
// eᵀα = νl; and the ε-SVR and ν-SVR (SVR) on 2l variables α, α* with labels
// +1 and −1 and p = ε ∓ z. The one-class SVM and the SVRs give a
// ValueModel, whose single decision function is the prediction (or its
// sign). Their objectives, ρ, support vectors and predictions agree with
// Debian's svm-train and svm-predict (types_live_test.go).
//
// # Several classes
//
// The learners Kernel and Linear implement learning.Learner. Kernel trains
// one machine per pair of classes and predicts by their votes, as LIBSVM
// (OneVsOne), or one machine per class against the rest (OneVsRest); Linear
// always uses one-vs-rest, as LIBLINEAR. With two classes both train a
// single machine, with the smaller class index on the positive side. The
// models implement learning.Model, learning.Scorer, learning.Margined (for
// several machines, the smallest margin among them) and
// learning.SupportVectored.
//
// # Failures
//
// As in gonum's optimize, misuse panics with an "svm: ..." message (X and y
// of different lengths; a vector of the wrong length given to a model); bad
// data or settings return an error wrapping ErrShape, ErrValue, ErrLabel,
// ErrOneClass or ErrSetting; and how a run ended (Optimal, IterationLimit,
// Separable, NotSeparable) is a Status, never an error.
//
// Memory: besides the data (shared with the caller's sparse rows, bit sets
// and dense rows; stored once more per problem as bytes for grey pictures,
// and a pair's float32 rows gathered once more unless the rows are grouped
// by class) and O(n) vectors (a problem lists its rows only while it is
// solved, and keeps its support vectors' coefficients), the
// kernel solver uses at most Settings.CacheMB of kernel rows (at least two
// rows), allocated as the cache fills (256 KB at a time). The problems one
// goroutine solves in turn share those chunks for their caches and one
// block for their gathered rows, and a large cache is
// collected and its pages given back to the system before the model is
// assembled. Nothing is kept in
// package-level state.
package svm
