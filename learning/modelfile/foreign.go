package modelfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"mark1/dataset"
	"mark1/learning/kernel"
)

// maxLine bounds one line of a LIBSVM or LIBLINEAR model file, in bytes.
const maxLine = 64 << 20

// ParseError is a LIBSVM or LIBLINEAR model file that cannot be read: the
// file, the 1-based line (0 for the file as a whole) and what is wrong.
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// ErrFormat is wrapped by every ParseError.
var ErrFormat = errors.New("not a valid model file")

// Format names the formats Read recognises.
type Format int

const (
	// Mark1 is mark1's JSON model file.
	Mark1 Format = iota
	// LIBSVM is svm-train's model file (svm_save_model).
	LIBSVM
	// LIBLINEAR is liblinear-train's model file (save_model).
	LIBLINEAR
)

// String returns "mark1", "libsvm" or "liblinear".
func (f Format) String() string {
	switch f {
	case Mark1:
		return "mark1"
	case LIBSVM:
		return "libsvm"
	case LIBLINEAR:
		return "liblinear"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// sniff tells the format from the first bytes of a file: JSON starts with
// '{', LIBSVM's model with "svm_type", LIBLINEAR's with "solver_type".
func sniff(head []byte) (Format, bool) {
	head = bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte("{")):
		return Mark1, true
	case bytes.HasPrefix(head, []byte("svm_type")):
		return LIBSVM, true
	case bytes.HasPrefix(head, []byte("solver_type")):
		return LIBLINEAR, true
	}
	return 0, false
}

// lineReader reads a model file line by line within MaxFileBytes and
// maxLine, counting lines for errors.
type lineReader struct {
	sc   *bufio.Scanner
	name string
	line int
}

func newLineReader(r io.Reader, name string) *lineReader {
	sc := bufio.NewScanner(io.LimitReader(r, MaxFileBytes+1))
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &lineReader{sc: sc, name: name}
}

// next returns the next line's fields, or io.EOF.
func (lr *lineReader) next() ([]string, error) {
	if !lr.sc.Scan() {
		if err := lr.sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return nil, lr.errorf("line longer than %d bytes", maxLine)
			}
			return nil, &ParseError{File: lr.name, Line: lr.line + 1, Err: err}
		}
		return nil, io.EOF
	}
	lr.line++
	return strings.Fields(lr.sc.Text()), nil
}

// blankToEnd reads the rest of the file, which may hold only blank lines:
// the first other line is an error of format and a.
func (lr *lineReader) blankToEnd(format string, a ...any) error {
	for {
		fl, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(fl) > 0 {
			return lr.errorf(format, a...)
		}
	}
}

func (lr *lineReader) errorf(format string, a ...any) error {
	return &ParseError{File: lr.name, Line: lr.line, Err: fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))}
}

// number parses a finite float.
func number(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// header holds the key-value lines of a LIBSVM or LIBLINEAR header.
type header struct {
	vals  map[string][]string
	lines map[string]int
}

func (h header) has(key string) bool { _, ok := h.vals[key]; return ok }

func (h header) ints(lr *lineReader, key string, n int) ([]int, error) {
	v := h.vals[key]
	if n >= 0 && len(v) != n {
		lr.line = h.lines[key]
		return nil, lr.errorf("%s has %d values; want %d", key, len(v), n)
	}
	out := make([]int, len(v))
	for i, s := range v {
		x, err := strconv.Atoi(s)
		if err != nil {
			lr.line = h.lines[key]
			return nil, lr.errorf("%s: %q is not an integer", key, s)
		}
		out[i] = x
	}
	return out, nil
}

// labels reads the label line of K distinct integer labels as class names.
func (h header) labels(lr *lineReader, K int) ([]string, error) {
	labels, err := h.ints(lr, "label", K)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	classes := make([]string, 0, K)
	for _, l := range labels {
		if seen[l] {
			lr.line = h.lines["label"]
			return nil, lr.errorf("label %d appears twice", l)
		}
		seen[l] = true
		classes = append(classes, strconv.Itoa(l))
	}
	return classes, nil
}

func (h header) floats(lr *lineReader, key string, n int) ([]float64, error) {
	v := h.vals[key]
	if len(v) != n {
		lr.line = h.lines[key]
		return nil, lr.errorf("%s has %d values; want %d", key, len(v), n)
	}
	out := make([]float64, n)
	for i, s := range v {
		x, err := number(s)
		if err != nil {
			lr.line = h.lines[key]
			return nil, lr.errorf("%s: %v", key, err)
		}
		out[i] = x
	}
	return out, nil
}

func (h header) one(lr *lineReader, key string) (float64, error) {
	if !h.has(key) {
		return 0, lr.errorf("no %s line before the data", key)
	}
	v, err := h.floats(lr, key, 1)
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

func (h header) count(lr *lineReader, key string, lo, hi int) (int, error) {
	if !h.has(key) {
		return 0, lr.errorf("no %s line before the data", key)
	}
	v, err := h.ints(lr, key, 1)
	if err != nil {
		return 0, err
	}
	if v[0] < lo || v[0] > hi {
		lr.line = h.lines[key]
		return 0, lr.errorf("%s %d out of range [%d, %d]", key, v[0], lo, hi)
	}
	return v[0], nil
}

// readHeader reads key-value lines up to the line that is end alone.
func readHeader(lr *lineReader, end string, keys []string) (header, error) {
	h := header{vals: map[string][]string{}, lines: map[string]int{}}
	for {
		f, err := lr.next()
		if err == io.EOF {
			return h, lr.errorf("the file ends before the %q line", end)
		}
		if err != nil {
			return h, err
		}
		if len(f) == 0 {
			continue
		}
		if f[0] == end && len(f) == 1 {
			return h, nil
		}
		known := false
		for _, k := range keys {
			known = known || f[0] == k
		}
		if !known {
			return h, lr.errorf("unknown header line %q", clip(f[0]))
		}
		if h.has(f[0]) {
			return h, lr.errorf("%s given twice", f[0])
		}
		h.vals[f[0]], h.lines[f[0]] = f[1:], lr.line
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// svmLearners maps LIBSVM's svm_type to mark1's learner names.
var svmLearners = map[string]string{"c_svc": "svm", "nu_svc": "nu-svc", "one_class": "one-class", "epsilon_svr": "epsilon-svr", "nu_svr": "nu-svr"}

// DecodeLIBSVM reads a model file that LIBSVM's svm-train wrote
// (svm_save_model: svm_type c_svc, nu_svc, one_class, epsilon_svr or
// nu_svr; kernel_type linear, polynomial, rbf or sigmoid) into a File that
// predicts as svm-predict does. probA, probB and prob_density_marks are read
// and ignored (svm-predict without -b does not use them). A precomputed
// kernel is refused: its model refers to the training data by number.
// Errors are *ParseError naming name and the line; at most MaxFileBytes and
// dataset.DefaultMaxValues stored values are read.
func DecodeLIBSVM(r io.Reader, name string) (*File, error) {
	lr := newLineReader(r, name)
	h, err := readHeader(lr, "SV", []string{"svm_type", "kernel_type", "degree", "gamma", "coef0", "nr_class", "total_sv", "rho", "label", "probA", "probB", "nr_sv", "prob_density_marks"})
	if err != nil {
		return nil, err
	}
	svLine := lr.line
	at := func(key string) *lineReader { lr.line = h.lines[key]; return lr }
	if !h.has("svm_type") || len(h.vals["svm_type"]) != 1 {
		return nil, lr.errorf("no svm_type line")
	}
	learner, ok := svmLearners[h.vals["svm_type"][0]]
	if !ok {
		return nil, at("svm_type").errorf("unknown svm_type %q (want c_svc, nu_svc, one_class, epsilon_svr or nu_svr)", clip(h.vals["svm_type"][0]))
	}
	f := &File{Format: FormatName, Version: Version, Learner: learner, Source: "libsvm", Classes: []string{}}
	if !h.has("kernel_type") || len(h.vals["kernel_type"]) != 1 {
		return nil, lr.errorf("no kernel_type line")
	}
	var k kernel.Kernel
	switch kt := h.vals["kernel_type"][0]; kt {
	case "linear":
		k = kernel.Linear{}
	case "polynomial", "rbf", "sigmoid":
		g, err := h.one(lr, "gamma")
		if err != nil {
			return nil, err
		}
		if !(g > 0) {
			return nil, at("gamma").errorf("gamma %v: mark1's %s kernel needs γ > 0", g, kt)
		}
		switch kt {
		case "rbf":
			k = kernel.Gaussian{Sigma: 1 / math.Sqrt(2*g)}
			f.Gamma = ptr(g)
		case "polynomial":
			d, err := h.count(lr, "degree", 1, 20)
			if err != nil {
				return nil, err
			}
			c, err := h.one(lr, "coef0")
			if err != nil {
				return nil, err
			}
			k = kernel.Polynomial{Degree: d, Gamma: g, Coef0: c}
			f.Gamma = ptr(g)
		default:
			c, err := h.one(lr, "coef0")
			if err != nil {
				return nil, err
			}
			k = kernel.Sigmoid{Gamma: g, Coef0: c}
			f.Gamma = ptr(g)
		}
	case "precomputed":
		return nil, at("kernel_type").errorf("a precomputed-kernel model is not supported: its support vectors are numbers of training rows, not vectors")
	default:
		return nil, at("kernel_type").errorf("unknown kernel_type %q (want linear, polynomial, rbf or sigmoid)", clip(kt))
	}
	if err := kernel.Validate(k); err != nil {
		return nil, at("kernel_type").errorf("%v", err)
	}
	f.Kernel = ptr(k.String())
	K, err := h.count(lr, "nr_class", 1, 1<<16)
	if err != nil {
		return nil, err
	}
	total, err := h.count(lr, "total_sv", 0, dataset.DefaultMaxValues)
	if err != nil {
		return nil, err
	}
	classify := learner == "svm" || learner == "nu-svc"
	ncoef := K - 1
	if !classify {
		if K != 2 {
			return nil, at("nr_class").errorf("nr_class %d for %s; LIBSVM writes 2", K, h.vals["svm_type"][0])
		}
		ncoef = 1
	} else if K < 2 {
		return nil, at("nr_class").errorf("nr_class %d: a classifier has at least 2 classes", K)
	}
	machines := 1
	if classify {
		machines = K * (K - 1) / 2
	}
	if !h.has("rho") {
		return nil, lr.errorf("no rho line before the data")
	}
	rho, err := h.floats(lr, "rho", machines)
	if err != nil {
		return nil, err
	}
	var nSV []int
	if classify {
		if !h.has("label") || !h.has("nr_sv") {
			return nil, lr.errorf("a classifier's header needs label and nr_sv lines")
		}
		if f.Classes, err = h.labels(lr, K); err != nil {
			return nil, err
		}
		if nSV, err = h.ints(lr, "nr_sv", K); err != nil {
			return nil, err
		}
		sum := 0
		for _, n := range nSV {
			if n < 0 {
				return nil, at("nr_sv").errorf("nr_sv %d is negative", n)
			}
			sum += n
		}
		if sum != total {
			return nil, at("nr_sv").errorf("nr_sv adds up to %d; total_sv is %d", sum, total)
		}
	} else if h.has("label") || h.has("nr_sv") {
		return nil, lr.errorf("%s models have no label or nr_sv lines", h.vals["svm_type"][0])
	}
	// The support vectors, each line with ncoef coefficients and then
	// index:value pairs.
	coef := make([][]float64, ncoef)
	stored := 0
	for s := range total {
		fl, err := lr.next()
		if err == io.EOF {
			return nil, &ParseError{File: name, Line: lr.line, Err: fmt.Errorf("%w: %d support vectors after the SV line (line %d); total_sv is %d", ErrFormat, s, svLine, total)}
		}
		if err != nil {
			return nil, err
		}
		if len(fl) < ncoef {
			return nil, lr.errorf("support vector %d: %d fields; want %d coefficients first", s+1, len(fl), ncoef)
		}
		for j := range ncoef {
			v, err := number(fl[j])
			if err != nil {
				return nil, lr.errorf("support vector %d, coefficient %d: %v", s+1, j+1, err)
			}
			coef[j] = append(coef[j], v)
		}
		// a support vector's arrays of the size its line gives, not grown
		// by append (a third more)
		sp := Sparse{Index: make([]int32, 0, len(fl)-ncoef), Value: make([]float64, 0, len(fl)-ncoef)}
		for _, t := range fl[ncoef:] {
			is, vs, ok := strings.Cut(t, ":")
			if !ok {
				return nil, lr.errorf("support vector %d: %q is not index:value", s+1, clip(t))
			}
			j, err := strconv.Atoi(is)
			if err != nil || j < 1 || j > dataset.DefaultMaxDim {
				return nil, lr.errorf("support vector %d: feature index %q is not in [1, %d]", s+1, clip(is), dataset.DefaultMaxDim)
			}
			if n := len(sp.Index); n > 0 && int32(j-1) <= sp.Index[n-1] {
				return nil, lr.errorf("support vector %d: feature index %d does not increase", s+1, j)
			}
			v, err := number(vs)
			if err != nil {
				return nil, lr.errorf("support vector %d, feature %d: %v", s+1, j, err)
			}
			if v == 0 {
				continue
			}
			if stored++; stored > dataset.DefaultMaxValues {
				return nil, lr.errorf("more than %d stored values", dataset.DefaultMaxValues)
			}
			sp.Index = append(sp.Index, int32(j-1))
			sp.Value = append(sp.Value, v)
			f.Dim = max(f.Dim, j)
		}
		f.SV = append(f.SV, sp)
	}
	if err := lr.blankToEnd("more lines than total_sv %d support vectors", total); err != nil {
		return nil, err
	}
	if !classify {
		mc := Machine{Pos: 0, SV: make([]int, total), Coef: coef[0], Rho: ptr(rho[0])}
		for s := range mc.SV {
			mc.SV[s] = s
		}
		f.Machines = []Machine{mc}
	} else {
		// svm_predict_values: the machine for classes i < j takes the
		// support vectors of class i with their coefficient in column
		// j−1 and those of class j with column i.
		start := make([]int, K)
		for c := 1; c < K; c++ {
			start[c] = start[c-1] + nSV[c-1]
		}
		p := 0
		for i := range K {
			for j := i + 1; j < K; j++ {
				mc := Machine{Pos: i, Neg: ptr(j), Rho: ptr(rho[p])}
				for _, side := range [][3]int{{start[i], nSV[i], j - 1}, {start[j], nSV[j], i}} {
					for s := side[0]; s < side[0]+side[1]; s++ {
						if c := coef[side[2]][s]; c != 0 {
							mc.SV = append(mc.SV, s)
							mc.Coef = append(mc.Coef, c)
						}
					}
				}
				f.Machines = append(f.Machines, mc)
				p++
			}
		}
	}
	if err := f.Check(); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	return f, nil
}

// liblinearSolvers are LIBLINEAR's solver_type names (linear.cpp's
// solver_type_table); the regressions end in SVR.
var liblinearSolvers = []string{"L2R_LR", "L2R_L2LOSS_SVC_DUAL", "L2R_L2LOSS_SVC", "L2R_L1LOSS_SVC_DUAL", "MCSVM_CS",
	"L1R_L2LOSS_SVC", "L1R_LR", "L2R_LR_DUAL", "L2R_L2LOSS_SVR", "L2R_L2LOSS_SVR_DUAL", "L2R_L1LOSS_SVR_DUAL", liblinearOneClass}

// DecodeLIBLINEAR reads a model file that LIBLINEAR's liblinear-train wrote
// (save_model), for any of its solvers: the classifiers (-s 0 to 7), the
// regressions (-s 11 to 13) and the one-class SVM (-s 21, LIBLINEAR 2.4x),
// into a File that predicts as liblinear-predict does: features beyond
// nr_feature are ignored, the bias weight multiplies the bias value. Errors
// are *ParseError naming name and the line.
func DecodeLIBLINEAR(r io.Reader, name string) (*File, error) {
	lr := newLineReader(r, name)
	h, err := readHeader(lr, "w", []string{"solver_type", "nr_class", "label", "nr_feature", "bias", "rho"})
	if err != nil {
		return nil, err
	}
	at := func(key string) *lineReader { lr.line = h.lines[key]; return lr }
	if !h.has("solver_type") || len(h.vals["solver_type"]) != 1 {
		return nil, lr.errorf("no solver_type line")
	}
	solver := h.vals["solver_type"][0]
	known := false
	for _, s := range liblinearSolvers {
		known = known || s == solver
	}
	if !known {
		return nil, at("solver_type").errorf("unknown solver_type %q", clip(solver))
	}
	f := &File{Format: FormatName, Version: Version, Learner: "liblinear", Solver: solver, Source: "liblinear", Classes: []string{}}
	K, err := h.count(lr, "nr_class", 1, 1<<16)
	if err != nil {
		return nil, err
	}
	dim, err := h.count(lr, "nr_feature", 0, dataset.DefaultMaxDim)
	if err != nil {
		return nil, err
	}
	bias, err := h.one(lr, "bias")
	if err != nil {
		return nil, err
	}
	f.Dim = dim
	values := strings.HasSuffix(solver, "SVR") || strings.HasSuffix(solver, "SVR_DUAL") || solver == liblinearOneClass
	nw := K
	if values || (K == 2 && solver != "MCSVM_CS") {
		nw = 1
	}
	if !values {
		if K < 2 {
			return nil, at("nr_class").errorf("nr_class %d: a classifier has at least 2 classes", K)
		}
		if !h.has("label") {
			return nil, lr.errorf("no label line before the weights")
		}
		if f.Classes, err = h.labels(lr, K); err != nil {
			return nil, err
		}
	}
	rho := 0.0
	if solver == liblinearOneClass {
		if rho, err = h.one(lr, "rho"); err != nil {
			return nil, err
		}
	} else if h.has("rho") {
		return nil, at("rho").errorf("rho is for the one-class solver only")
	}
	rowsW := dim
	if bias >= 0 {
		rowsW++
	}
	if rowsW > 0 && nw > dataset.DefaultMaxValues/rowsW {
		return nil, lr.errorf("%d weights × %d machines is over the budget of %d values", rowsW, nw, dataset.DefaultMaxValues)
	}
	W := make([][]float64, nw)
	for m := range W {
		W[m] = make([]float64, rowsW)
	}
	for i := range rowsW {
		fl, err := lr.next()
		if err == io.EOF {
			return nil, &ParseError{File: name, Line: lr.line, Err: fmt.Errorf("%w: %d weight lines; want %d (nr_feature %d%s)", ErrFormat, i, rowsW, dim, map[bool]string{true: " and the bias", false: ""}[bias >= 0])}
		}
		if err != nil {
			return nil, err
		}
		if len(fl) != nw {
			return nil, lr.errorf("weight line %d has %d values; want %d", i+1, len(fl), nw)
		}
		for m, s := range fl {
			if W[m][i], err = number(s); err != nil {
				return nil, lr.errorf("weight line %d, machine %d: %v", i+1, m+1, err)
			}
		}
	}
	if err := lr.blankToEnd("more than %d weight lines", rowsW); err != nil {
		return nil, err
	}
	for m, w := range W {
		b := -rho
		if bias >= 0 {
			b = w[dim] * bias
		}
		mc := Machine{Pos: m, W: w[:dim:dim], B: ptr(b)}
		switch {
		case values:
			mc.Pos = 0
		case nw == 1:
			mc.Neg = ptr(1)
		}
		f.Machines = append(f.Machines, mc)
	}
	if bias >= 0 {
		f.Bias = ptr(bias)
	}
	if err := f.Check(); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	return f, nil
}
