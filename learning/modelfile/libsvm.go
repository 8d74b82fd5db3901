package modelfile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"mark1/learning/kernel"
)

// intLabels returns the classes as integers, as LIBSVM and LIBLINEAR store
// labels, or an error naming the first that is not one.
func intLabels(f *File) ([]int, error) {
	out := make([]int, len(f.Classes))
	for c, s := range f.Classes {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("class %q is not an integer; LIBSVM's and LIBLINEAR's model files store labels as integers", s)
		}
		out[c] = v
	}
	return out, nil
}

func g17(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }

// WriteLIBSVM writes an svm model in LIBSVM's text format (svm_save_model);
// see the package documentation. It returns an error for other learners,
// for kernels LIBSVM does not have (Laplace), for non-integer labels and for
// a model whose inputs are scaled (svm-predict would not scale them; scale
// the data with the same rule first, or train without --scale).
func WriteLIBSVM(w io.Writer, f *File) error {
	f = f.full()
	typ, ok := svmTypes[f.Learner]
	if !ok {
		return fmt.Errorf("a %s model cannot be written in LIBSVM's format (svm, nu-svc, one-class, epsilon-svr and nu-svr only)", f.Learner)
	}
	if f.Scale != nil {
		return fmt.Errorf("the model expects inputs scaled with %q, which svm-predict does not do; train on scaled files instead", f.Scale.Method)
	}
	var labels []int
	if !f.Values() {
		var err error
		if labels, err = intLabels(f); err != nil {
			return err
		}
	}
	k, err := kernel.ParseKernel(*f.Kernel)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "svm_type %s\n", typ)
	switch k := k.(type) {
	case kernel.Linear:
		fmt.Fprintf(bw, "kernel_type linear\n")
	case kernel.Polynomial:
		g := k.Gamma
		if g == 0 {
			g = 1
		}
		fmt.Fprintf(bw, "kernel_type polynomial\ndegree %d\ngamma %s\ncoef0 %s\n", k.Degree, g17(g), g17(k.Coef0))
	case kernel.Gaussian:
		g := 1 / (2 * k.Sigma * k.Sigma)
		if f.Gamma != nil {
			g = *f.Gamma
		}
		fmt.Fprintf(bw, "kernel_type rbf\ngamma %s\n", g17(g))
	case kernel.Sigmoid:
		fmt.Fprintf(bw, "kernel_type sigmoid\ngamma %s\ncoef0 %s\n", g17(k.Gamma), g17(k.Coef0))
	default:
		return fmt.Errorf("LIBSVM has no %s kernel", k)
	}
	if f.Values() {
		mc := f.Machines[0]
		fmt.Fprintf(bw, "nr_class 2\ntotal_sv %d\nrho %s\nSV\n", len(mc.SV), g17(*mc.Rho))
		for k, s := range mc.SV {
			fmt.Fprintf(bw, "%s ", g17(mc.Coef[k]))
			for q, j := range f.SV[s].Index {
				fmt.Fprintf(bw, "%d:%s ", j+1, g17(f.SV[s].Value[q]))
			}
			fmt.Fprintf(bw, "\n")
		}
		return bw.Flush()
	}
	K := len(f.Classes)
	// The class of each support vector: the side it is on in the machines
	// that use it. LIBSVM's format can only say so when every machine
	// that uses a support vector has it on its class's side.
	class := make([]int, len(f.SV))
	for s := range class {
		class[s] = -1
	}
	for m, mc := range f.Machines {
		for k, s := range mc.SV {
			c := *mc.Neg
			if mc.Coef[k] > 0 {
				c = mc.Pos
			}
			if class[s] >= 0 && class[s] != c {
				return fmt.Errorf("support vector %d is on the side of class %d in machine %d and of class %d in another; LIBSVM's format keeps one class per support vector", s, c, m, class[s])
			}
			class[s] = c
		}
	}
	for s, c := range class {
		if c < 0 {
			return fmt.Errorf("support vector %d is in no machine; LIBSVM's format has none such", s)
		}
	}
	// coef[s][o]: the coefficient of SV s in its machine against class o.
	coef := make([][]float64, len(f.SV))
	for s := range coef {
		coef[s] = make([]float64, K)
	}
	rho := make([]float64, 0, len(f.Machines))
	for i := range K {
		for j := i + 1; j < K; j++ {
			found := false
			for _, mc := range f.Machines {
				if mc.Pos == i && *mc.Neg == j {
					for k, s := range mc.SV {
						other := j
						if class[s] == j {
							other = i
						}
						coef[s][other] = mc.Coef[k]
					}
					rho = append(rho, *mc.Rho)
					found = true
					break
				}
			}
			if !found {
				return fmt.Errorf("no machine for classes %d and %d; LIBSVM needs one per pair (smaller class positive)", i, j)
			}
		}
	}
	nSV := make([]int, K)
	for _, c := range class {
		nSV[c]++
	}
	fmt.Fprintf(bw, "nr_class %d\ntotal_sv %d\nrho", K, len(f.SV))
	for _, r := range rho {
		fmt.Fprintf(bw, " %s", g17(r))
	}
	fmt.Fprintf(bw, "\nlabel")
	for _, l := range labels {
		fmt.Fprintf(bw, " %d", l)
	}
	fmt.Fprintf(bw, "\nnr_sv")
	for _, n := range nSV {
		fmt.Fprintf(bw, " %d", n)
	}
	fmt.Fprintf(bw, "\nSV\n")
	for c := range K {
		for s, sc := range class {
			if sc != c {
				continue
			}
			// Column o−1 for o > c, column o for o < c (svm_predict_values).
			for o := range K {
				if o != c {
					fmt.Fprintf(bw, "%s ", g17(coef[s][o]))
				}
			}
			for k, j := range f.SV[s].Index {
				fmt.Fprintf(bw, "%d:%s ", j+1, g17(f.SV[s].Value[k]))
			}
			fmt.Fprintf(bw, "\n")
		}
	}
	return bw.Flush()
}

// WriteLIBLINEAR writes a linear model (linear-svm, or a perceptron's) in
// LIBLINEAR's text format (save_model), as solver L2R_L1LOSS_SVC_DUAL (or
// L2R_L2LOSS_SVC_DUAL for the squared hinge loss, given by squared): one
// line of weights per feature, the bias weight last, for one machine (two
// classes, the first label positive) or one per class. A perceptron's model
// (whose two-class machine has class 1 positive) is written with the labels
// in the order that makes liblinear-predict agree. It returns an error for
// kernel models, non-integer labels and scaled inputs.
func WriteLIBLINEAR(w io.Writer, f *File, squared bool) error {
	if f.Kernel != nil {
		return fmt.Errorf("a %s model cannot be written in LIBLINEAR's format (linear models only)", f.Learner)
	}
	if f.Scale != nil {
		return fmt.Errorf("the model expects inputs scaled with %q, which liblinear-predict does not do; train on scaled files instead", f.Scale.Method)
	}
	if f.Values() {
		return writeLIBLINEARValues(w, f)
	}
	labels, err := intLabels(f)
	if err != nil {
		return err
	}
	solver := "L2R_L1LOSS_SVC_DUAL"
	if squared {
		solver = "L2R_L2LOSS_SVC_DUAL"
	}
	if f.Solver != "" { // a model read from LIBLINEAR keeps its solver
		solver = f.Solver
	}
	// LIBLINEAR's machine m is positive for labels[m]; with two classes its
	// single machine is positive for labels[0].
	order := make([]int, len(f.Classes)) // order[m] = our class of LIBLINEAR's label m
	if len(f.Machines) == 1 {
		order[0], order[1] = f.Machines[0].Pos, *f.Machines[0].Neg
	} else {
		for m, mc := range f.Machines {
			order[m] = mc.Pos
		}
	}
	// The bias feature: the linear SVM's own, else 1 when some machine
	// has a bias, else none (-1).
	bias := -1.0
	if f.Bias != nil {
		bias = *f.Bias
	} else {
		for _, mc := range f.Machines {
			if *mc.B != 0 {
				bias = 1
			}
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "solver_type %s\nnr_class %d\nlabel", solver, len(f.Classes))
	for _, c := range order {
		fmt.Fprintf(bw, " %d", labels[c])
	}
	fmt.Fprintf(bw, "\nnr_feature %d\nbias %s\nw\n", f.Dim, g17(bias))
	for j := range f.Dim {
		for _, mc := range f.Machines {
			fmt.Fprintf(bw, "%s ", g17(mc.W[j]))
		}
		fmt.Fprintf(bw, "\n")
	}
	if bias >= 0 {
		for _, mc := range f.Machines {
			fmt.Fprintf(bw, "%s ", g17(biasWeight(*mc.B, bias)))
		}
		fmt.Fprintf(bw, "\n")
	}
	return bw.Flush()
}

// writeLIBLINEARValues writes a LIBLINEAR regression or one-class model
// read from a LIBLINEAR file: no labels, one weight per line, the bias
// weight (or the one-class ρ line) as LIBLINEAR keeps it.
func writeLIBLINEARValues(w io.Writer, f *File) error {
	mc := f.Machines[0]
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "solver_type %s\nnr_class 2\nnr_feature %d\n", f.Solver, f.Dim)
	bias := -1.0
	if f.Bias != nil {
		bias = *f.Bias
	}
	fmt.Fprintf(bw, "bias %s\n", g17(bias))
	if f.OneClass() {
		fmt.Fprintf(bw, "rho %s\n", g17(-*mc.B))
	}
	fmt.Fprintf(bw, "w\n")
	for _, v := range mc.W {
		fmt.Fprintf(bw, "%s \n", g17(v))
	}
	if bias >= 0 {
		fmt.Fprintf(bw, "%s \n", g17(biasWeight(*mc.B, bias)))
	}
	return bw.Flush()
}

// biasWeight is the weight of LIBLINEAR's bias feature of value bias that
// adds b to the decision: b/bias, and 0 for a bias feature of 0 (which adds
// nothing whatever its weight).
func biasWeight(b, bias float64) float64 {
	if bias == 0 {
		return 0
	}
	return b / bias
}
