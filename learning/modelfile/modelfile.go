package modelfile

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"mark1/dataset"
	"mark1/internal/base/atomicfile"
	"mark1/learning"
	"mark1/learning/internal/bytedot"
	"mark1/learning/internal/f32dot"
	"mark1/learning/kernel"
	"mark1/learning/learners"
	"mark1/learning/svm"
)

// FormatName is the value of File.Format.
const FormatName = "mark1-model"

// Version is the File.Version this package writes. It reads every version
// from 1: version 2 added the dense block of support vectors
// (SupportVectors), which version 1's readers do not know.
const Version = 2

// MaxFileBytes bounds the size of a model file Read accepts (1 GiB).
const MaxFileBytes = 1 << 30

// File is a saved model. Fields that do not apply to the learner are nil
// (JSON null).
type File struct {
	// Format is "mark1-model"; Version is 1 or 2 (Version).
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Learner names the learner, a name of the registry
	// (learning/learners) whose model a file stores (Learners).
	// A model read from a LIBLINEAR model file is "liblinear" (Solver
	// says which of its solvers).
	Learner string `json:"learner"`
	// Solver is LIBLINEAR's solver_type of a "liblinear" model, such as
	// "L2R_LR"; empty (and left out) otherwise.
	Solver string `json:"solver,omitempty"`
	// Source is the format the model was read from, "libsvm" or
	// "liblinear", for a model another program trained (whose training
	// data mark1 never saw); empty (and left out) for mark1's own.
	Source string `json:"source,omitempty"`
	// Classes holds the class labels; class c is Classes[c]. It is empty
	// for the models that predict a value (the SVRs, LIBLINEAR's
	// regressions) or ±1 (the one-class SVMs): see Values.
	Classes []string `json:"classes"`
	// Dim is the number of features of the training data.
	Dim int `json:"dim"`
	// Scale is the scaling fitted on the training data, applied to every
	// input before the model; null when the data were not scaled.
	Scale *dataset.Scaler `json:"scale"`
	// Schema describes the training data's columns, so that new data are
	// read as they were; absent (null) in files written before it was
	// recorded, which are read all the same.
	Schema *Schema `json:"schema,omitempty"`
	// Kernel is the kernel in kernel.Parse's form (svm,
	// kernel-perceptron); null for linear models.
	Kernel *string `json:"kernel"`
	// Gamma is LIBSVM's γ of a Gaussian ("rbf") or polynomial kernel as it
	// was given or resolved from "scale"/"auto"; null otherwise.
	Gamma *float64 `json:"gamma"`
	// KernelBias is the kernel perceptron's always-on extra input; null for
	// other learners.
	KernelBias *bool `json:"kernel_bias"`
	// Bias is LIBLINEAR's -B of a linear SVM (the constant feature whose
	// weight is the bias); null for other learners and without a bias.
	Bias *float64 `json:"bias"`
	// SV holds the support vectors (svm) or stored examples
	// (kernel-perceptron), sparse, with 0-based feature indices, written
	// as a list or a dense block (see SupportVectors); null for linear
	// models.
	SV SupportVectors `json:"sv"`
	// Machines holds the binary machines.
	Machines []Machine `json:"machines"`

	// dense holds the support vectors instead of SV in a File ReadCompact
	// read from a float32 or grey8 block.
	dense *denseRows
}

// numSV returns the number of support vectors (or stored examples).
func (f *File) numSV() int {
	if f.dense != nil {
		return f.dense.n
	}
	return len(f.SV)
}

// full returns f with its support vectors in SV: f itself, or a copy of
// it when ReadCompact kept them dense.
func (f *File) full() *File {
	if f.dense == nil {
		return f
	}
	g := *f
	g.SV, g.dense = f.dense.sparse(), nil
	return &g
}

// svmTypes maps the learners of LIBSVM's formulations to its svm_type.
var svmTypes = map[string]svm.Type{"svm": svm.CSVC, "nu-svc": svm.NuSVC, "one-class": svm.OneClass, "epsilon-svr": svm.EpsilonSVR, "nu-svr": svm.NuSVR}

// liblinearOneClass is the solver_type of LIBLINEAR's one-class SVM.
const liblinearOneClass = "ONECLASS_SVM"

// Values reports whether the model predicts a number for each input rather
// than a class: the SVRs and LIBLINEAR's regressions (the value) and the
// one-class SVMs (+1 inside, −1 outside; see OneClass).
func (f *File) Values() bool {
	return f.form() == learners.ValueSVMForm || (f.Learner == "liblinear" && len(f.Classes) == 0)
}

// OneClass reports whether the model is a one-class SVM, whose values are
// +1 or −1.
func (f *File) OneClass() bool { return oneClass(f.Learner, f.Solver) }

// oneClass reports whether a model of the learner (and LIBLINEAR solver)
// is a one-class SVM.
func oneClass(learner, solver string) bool {
	return learner == "one-class" || (learner == "liblinear" && solver == liblinearOneClass)
}

// Sparse is a vector's non-zero entries: 0-based, increasing indices.
type Sparse struct {
	Index []int32   `json:"index"`
	Value []float64 `json:"value"`
}

// Machine is one binary machine: positive for class Pos against class Neg,
// or against all other classes when Neg is null.
type Machine struct {
	Pos int  `json:"pos"`
	Neg *int `json:"neg"`
	// SV indexes File.SV (svm); null otherwise.
	SV []int `json:"sv"`
	// Coef holds α_i y_i per entry of SV (svm) or per stored example
	// (kernel-perceptron); null for linear models.
	Coef []float64 `json:"coef"`
	// Rho is the svm's threshold, f(x) = Σ Coef k(SV, x) − Rho; null
	// otherwise.
	Rho *float64 `json:"rho"`
	// W and B are a linear machine's f(x) = W·x + B; null for kernel
	// machines.
	W []float64 `json:"w"`
	B *float64  `json:"b"`
}

func ptr[T any](v T) *T { return &v }

func sparse(x []float64) Sparse {
	var s Sparse
	for j, v := range x {
		if v != 0 {
			s.Index = append(s.Index, int32(j))
			s.Value = append(s.Value, v)
		}
	}
	return s
}

// sparseRows returns the rows of r (or of X when r is nil) sparse.
func sparseRows(r learning.Rows, X [][]float64) []Sparse {
	if r == nil {
		r = learning.NewDense(X)
	}
	out := make([]Sparse, r.Len())
	if sp, ok := r.(*learning.Sparse); ok {
		for i := range out {
			idx, val := sp.NonZeros(i)
			out[i] = Sparse{Index: slices.Clone(idx), Value: slices.Clone(val)}
		}
		return out
	}
	// Two passes over the rows, the first counting their non-zeros, so
	// that all rows' indices and values are two blocks cut to size (a
	// model of thousands of support vectors otherwise grows each row's
	// slices a few times over).
	var buf []float64
	nnz := 0
	for i := range out {
		buf = r.Row(buf, i)
		for _, v := range buf {
			if v != 0 {
				nnz++
			}
		}
	}
	index, value := make([]int32, 0, nnz), make([]float64, 0, nnz)
	for i := range out {
		buf = r.Row(buf, i)
		st := len(index)
		for j, v := range buf {
			if v != 0 {
				index = append(index, int32(j))
				value = append(value, v)
			}
		}
		if len(index) > st {
			out[i] = Sparse{Index: index[st:len(index):len(index)], Value: value[st:len(value):len(value)]}
		}
	}
	return out
}

// FromModel stores a trained model. learner is the learner's name, classes
// and dim describe the training data, sc is the scaling applied to them (or
// nil), gamma LIBSVM's γ where the kernel has one (else nil), and bias the
// linear SVM's bias feature (else nil). It returns an error for a model type
// it cannot store.
func FromModel(learner string, m learning.Model, classes []string, dim int, sc *dataset.Scaler, gamma, bias *float64) (*File, error) {
	f := &File{Format: FormatName, Version: Version, Learner: learner, Classes: slices.Clone(classes), Dim: dim, Scale: sc, Gamma: gamma}
	switch m := m.(type) {
	case *svm.KernelModel:
		if m.Strategy != svm.OneVsOne && len(m.Machines) > 1 {
			return nil, fmt.Errorf("modelfile: a %s SVM cannot be stored (one-vs-one only)", m.Strategy)
		}
		f.Kernel = ptr(m.Kernel.String())
		f.SV = sparseRows(m.SVRows, m.SV)
		for _, mc := range m.Machines {
			f.Machines = append(f.Machines, Machine{Pos: mc.Pos, Neg: ptr(mc.Neg), SV: slices.Clone(mc.SV), Coef: slices.Clone(mc.Coef), Rho: ptr(mc.Rho)})
		}
	case *svm.LinearModel:
		f.Bias = bias
		for k, mc := range m.Machines {
			mf := Machine{Pos: m.Pos[k], W: slices.Clone(mc.W), B: ptr(mc.B)}
			if m.Neg >= 0 {
				mf.Neg = ptr(m.Neg)
			}
			f.Machines = append(f.Machines, mf)
		}
	case *learning.LinearModel:
		for k := range m.W {
			f.Machines = append(f.Machines, linearMachine(k, len(m.W), m.W[k], m.B[k]))
		}
	case *learning.KernelModel:
		f.Kernel = ptr(m.Kernel.String())
		f.KernelBias = ptr(m.Bias)
		for _, sv := range m.SV {
			f.SV = append(f.SV, sparse(sv))
		}
		for k := range m.Coef {
			mc := linearMachine(k, len(m.Coef), nil, 0)
			mc.W, mc.B, mc.Coef = nil, nil, slices.Clone(m.Coef[k])
			f.Machines = append(f.Machines, mc)
		}
	default:
		return nil, fmt.Errorf("modelfile: cannot store a %T", m)
	}
	return f, f.Check()
}

// linearMachine is machine k of the learning package's one-vs-rest models:
// a single machine (class 1 positive, class 0 negative) for two classes.
func linearMachine(k, machines int, w []float64, b float64) Machine {
	if machines == 1 {
		return Machine{Pos: 1, Neg: ptr(0), W: slices.Clone(w), B: ptr(b)}
	}
	return Machine{Pos: k, W: slices.Clone(w), B: ptr(b)}
}

// Read reads a model file and checks it: mark1's own, or one that LIBSVM's
// svm-train or LIBLINEAR's liblinear-train wrote (DecodeLIBSVM,
// DecodeLIBLINEAR), told apart by their first word. Errors name path. Only
// a regular file is read: a named pipe or a device is refused without
// blocking.
func Read(path string) (*File, error) {
	f, _, err := ReadFormat(path)
	return f, err
}

// ReadFormat is Read that also says which format the file was in.
func ReadFormat(path string) (*File, Format, error) { return readFormat(path, nil) }

// ReadCompact is ReadFormat for prediction: the support vectors of a
// float32 block (those of every model fit trains on a data file) are kept
// as the file holds them, 4 bytes a value, not as Sparse vectors (12 bytes
// a non-zero) that Model would copy into float32 rows again. SV is nil
// then; Model and ValueModel read them, and Write and WriteLIBSVM write
// them.
func ReadCompact(path string) (*File, Format, error) { return readFormat(path, &compact{}) }

func readFormat(path string, c *compact) (*File, Format, error) {
	fh, err := atomicfile.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 4096)
	head, _ := br.Peek(512)
	format, ok := sniff(head)
	if !ok {
		return nil, 0, fmt.Errorf("%s: not a model file: want mark1's JSON, LIBSVM's (starting svm_type) or LIBLINEAR's (starting solver_type)", path)
	}
	var f *File
	switch format {
	case LIBSVM:
		f, err = DecodeLIBSVM(br, path)
	case LIBLINEAR:
		f, err = DecodeLIBLINEAR(br, path)
	default:
		if c != nil {
			if st, err := fh.Stat(); err == nil {
				c.size = st.Size()
			}
		}
		f, err = decode(br, path, c)
	}
	return f, format, err
}

// FromValueModel stores a trained one-class SVM or SVR under the learner
// name of its Type ("one-class", "epsilon-svr", "nu-svr"), for inputs of dim
// features scaled by sc (or nil), with LIBSVM's γ where the kernel has one.
func FromValueModel(m *svm.ValueModel, dim int, sc *dataset.Scaler, gamma *float64) (*File, error) {
	learner := ""
	for l, t := range svmTypes {
		if t == m.Type && t != svm.CSVC && t != svm.NuSVC {
			learner = l
		}
	}
	if learner == "" {
		return nil, fmt.Errorf("modelfile: a %v model is not one-class or a regression", m.Type)
	}
	f := &File{Format: FormatName, Version: Version, Learner: learner, Classes: []string{}, Dim: dim, Scale: sc, Gamma: gamma}
	f.Kernel = ptr(m.Kernel.String())
	f.SV = sparseRows(m.SVRows, nil)
	mc := Machine{Pos: 0, SV: make([]int, len(m.Coef)), Coef: slices.Clone(m.Coef), Rho: ptr(m.Rho)}
	for s := range mc.SV {
		mc.SV[s] = s
	}
	f.Machines = []Machine{mc}
	return f, f.Check()
}

// SameLabel reports whether two class labels are the same: equal strings,
// or numbers of equal value ("+1" and "1"), as LIBSVM and LIBLINEAR, which
// keep labels as numbers, compare them.
func SameLabel(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}

// Decode reads a model file from r and checks it (Check); name names it in
// errors. It refuses input longer than MaxFileBytes and fields it does not
// know. It reads as it decodes, one support vector at a time (stream.go).
func Decode(r io.Reader, name string) (*File, error) { return decode(r, name, nil) }

func decode(r io.Reader, name string, c *compact) (*File, error) {
	lr := &io.LimitedReader{R: r, N: MaxFileBytes + 1}
	var f File
	dec := json.NewDecoder(lr)
	dec.DisallowUnknownFields()
	err := decodeFile(dec, &f, c)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("%s: larger than %d bytes, the limit for a model file", name, MaxFileBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a mark1 model file: %w", name, err)
	}
	if err := f.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &f, nil
}

var errBad = errors.New("bad model")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errBad, fmt.Sprintf(format, a...))
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Check reports the first inconsistency in f: a wrong format or version,
// an unknown learner, fewer than two classes, class or feature indices out
// of range, lengths that disagree, numbers that are not finite, fields that
// do not belong to the learner.
func (f *File) Check() error {
	if f.Format != FormatName || f.Version < 1 || f.Version > Version {
		return bad("format %q version %d; want %q version 1 to %d", f.Format, f.Version, FormatName, Version)
	}
	values := f.Values()
	if values {
		if len(f.Classes) != 0 {
			return bad("learner %s predicts values, but the file names %d classes", f.Learner, len(f.Classes))
		}
	} else if len(f.Classes) < 2 {
		return bad("%d classes; a classifier has at least 2", len(f.Classes))
	}
	seen := make(map[string]bool, len(f.Classes))
	for i, c := range f.Classes {
		if seen[c] {
			return bad("class %d: the label %.40q appears twice", i, c)
		}
		seen[c] = true
	}
	if f.Dim < 0 || f.Dim > dataset.DefaultMaxDim {
		return bad("dim %d out of range [0, %d]", f.Dim, dataset.DefaultMaxDim)
	}
	if f.Scale != nil {
		if err := f.Scale.Check(); err != nil {
			return bad("%v", err)
		}
	}
	if f.Schema != nil {
		if err := f.Schema.check(f.Dim); err != nil {
			return err
		}
	}
	if f.Gamma != nil && !(*f.Gamma > 0 && finite(*f.Gamma)) {
		return bad("gamma %v is not a finite number > 0", *f.Gamma)
	}
	if f.Bias != nil && !finite(*f.Bias) {
		return bad("bias is not finite")
	}
	if d := f.dense; d != nil { // a dense row's values are finite (decodeDense)
		if s, ok := d.zeroFrom(f.Dim); !ok {
			return bad("sv %d: a feature index out of order or not below dim %d", s, f.Dim)
		}
	}
	for s, v := range f.SV {
		if len(v.Index) != len(v.Value) || !finite(v.Value...) {
			return bad("sv %d: %d indices, %d values, or values not finite", s, len(v.Index), len(v.Value))
		}
		for k, j := range v.Index {
			if j < 0 || int(j) >= f.Dim || (k > 0 && j <= v.Index[k-1]) {
				return bad("sv %d: feature index %d out of order or not below dim %d", s, j, f.Dim)
			}
		}
	}
	form := f.form()
	if form == learners.NoFile {
		return bad("learner %q: want one of %s", f.Learner, strings.Join(Learners(), ", "))
	}
	if f.Source != "" && f.Source != "libsvm" && f.Source != "liblinear" {
		return bad("source %q: want libsvm, liblinear or none", f.Source)
	}
	if (f.Learner == "liblinear") != (f.Solver != "") {
		return bad("solver %q is for liblinear models only", f.Solver)
	}
	svmForm := form == learners.KernelSVMForm || form == learners.ValueSVMForm
	kernelModel := svmForm || form == learners.KernelExpansionForm
	if kernelModel != (f.Kernel != nil) {
		return bad("learner %s with kernel %v", f.Learner, f.Kernel)
	}
	if f.Kernel != nil {
		if _, err := kernel.ParseKernel(*f.Kernel); err != nil {
			return bad("%v", err)
		}
	}
	if (form == learners.KernelExpansionForm) != (f.KernelBias != nil) {
		return bad("kernel_bias is for the kernel perceptron only")
	}
	if len(f.Machines) == 0 {
		return bad("no machines")
	}
	C := len(f.Classes)
	want := C
	switch {
	case values:
		want = 1
	case form == learners.KernelSVMForm:
		want = C * (C - 1) / 2
	case C == 2 && f.Solver == "MCSVM_CS" && len(f.Machines) == 2:
		want = 2 // LIBLINEAR's Crammer–Singer keeps two machines for two classes
	case C == 2:
		want = 1
	}
	if len(f.Machines) != want {
		return bad("%d machines for %d classes; want %d", len(f.Machines), C, want)
	}
	for m, mc := range f.Machines {
		if values {
			if mc.Pos != 0 || mc.Neg != nil {
				return bad("machine %d: a value model's machine has pos 0 and no neg", m)
			}
		} else if mc.Pos < 0 || mc.Pos >= C || (mc.Neg != nil && (*mc.Neg < 0 || *mc.Neg >= C || *mc.Neg == mc.Pos)) {
			return bad("machine %d: classes out of range", m)
		}
		switch {
		case svmForm:
			if mc.Rho == nil || !finite(*mc.Rho) || (mc.Neg == nil) != values || len(mc.SV) != len(mc.Coef) || mc.W != nil || mc.B != nil || !finite(mc.Coef...) {
				return bad("machine %d: an svm machine needs rho, coef for each sv, and neg for a classifier", m)
			}
			for _, s := range mc.SV {
				if s < 0 || s >= f.numSV() {
					return bad("machine %d: sv %d out of range", m, s)
				}
			}
		case form == learners.KernelExpansionForm:
			if len(mc.Coef) != f.numSV() || mc.SV != nil || mc.Rho != nil || mc.W != nil || mc.B != nil || !finite(mc.Coef...) {
				return bad("machine %d: a kernel perceptron machine needs one coef per stored example", m)
			}
		default:
			if len(mc.W) != f.Dim || mc.B == nil || !finite(*mc.B) || !finite(mc.W...) || mc.SV != nil || mc.Coef != nil || mc.Rho != nil {
				return bad("machine %d: a linear machine needs %d weights and b", m, f.Dim)
			}
		}
	}
	return nil
}

// form is the form of the file's learner's model; NoFile for a learner
// the registry does not know or whose models no file stores.
func (f *File) form() learners.Form {
	if f.Learner == "liblinear" { // a model LIBLINEAR trained (Source)
		return learners.LinearSVMForm
	}
	s, err := learners.Lookup(f.Learner)
	if err != nil {
		return learners.NoFile
	}
	return s.Form
}

// Learners lists the learners whose models a file stores, from the
// registry.
func Learners() []string {
	var n []string
	for _, s := range learners.All() {
		if s.Form != learners.NoFile {
			n = append(n, s.Name)
		}
	}
	return n
}

// Valuer is a model that predicts a number per input: a regression's value,
// or a one-class SVM's +1 (inside) or −1.
type Valuer interface {
	Label(x []float64) float64
}

// linearValue is a LIBLINEAR regression or one-class model: w·x + b, or
// its sign (0 counting as −1) for the one-class SVM.
type linearValue struct {
	w        []float64
	b        float64
	oneClass bool
}

// Label returns w·x + b, or for the one-class SVM +1 when it is > 0 and −1
// otherwise. It panics if x has the wrong length.
func (l linearValue) Label(x []float64) float64 {
	v := kernel.Dot(l.w, x) + l.b
	if !l.oneClass {
		return v
	}
	if v > 0 {
		return 1
	}
	return -1
}

// ValueModel rebuilds a model for which Values is true, for inputs of dim
// features (at least File.Dim). It returns an error for a classifier.
func (f *File) ValueModel(dim int) (Valuer, error) {
	if !f.Values() {
		return nil, fmt.Errorf("modelfile: a %s model predicts classes, not values", f.Learner)
	}
	dim = max(dim, f.Dim)
	mc := f.Machines[0]
	if f.Learner == "liblinear" {
		return linearValue{w: append(slices.Clone(mc.W), make([]float64, dim-len(mc.W))...), b: *mc.B, oneClass: f.OneClass()}, nil
	}
	k, err := kernel.ParseKernel(*f.Kernel)
	if err != nil {
		return nil, err
	}
	rows, err := f.svRows(dim)
	if err != nil {
		return nil, err
	}
	// The machine's SV entries index File.SV: gather them in its order.
	sub := learning.Subset(rows, mc.SV)
	return svm.NewValueModel(svmTypes[f.Learner], k, sub, slices.Clone(mc.Coef), *mc.Rho), nil
}

// svRows returns File.SV as sparse rows of dim features.
func (f *File) svRows(dim int) (*learning.Sparse, error) {
	f = f.full()
	start := make([]int, 1, len(f.SV)+1)
	var idx []int32
	var val []float64
	for _, v := range f.SV {
		idx = append(idx, v.Index...)
		val = append(val, v.Value...)
		start = append(start, len(idx))
	}
	return learning.NewSparse(dim, start, idx, val)
}

// Model rebuilds the trained model for inputs of dim features (at least
// File.Dim; the model ignores features beyond its own unless a kernel sees
// them, as LIBSVM's svm-predict does). An svm keeps its support vectors
// sparse; a kernel perceptron's stored examples are held dense, and Model
// refuses, with an error, when they would take more than
// dataset.DefaultMaxValues numbers.
func (f *File) Model(dim int) (learning.Model, error) { return f.model(dim, false) }

// model is Model; when consume, f's listed support vectors (File.SV) are
// its to let go: a kernel SVM's are dropped one by one as they are copied
// into its rows, so that they and their copy are not all held at once
// (ApplyFile with svm-train's 2,000-row Fashion-MNIST model: the heap's
// peak 13 -> 10 MB), and f.SV is nil afterwards.
func (f *File) model(dim int, consume bool) (learning.Model, error) {
	if consume {
		defer func() { f.SV = nil }()
	}
	dim = max(dim, f.Dim)
	var svRows learning.Rows // the support vectors as float32 rows or bytes, read so
	if f.dense != nil && f.form() == learners.KernelSVMForm {
		svRows = f.dense.rows(dim)
	}
	if svRows == nil {
		f = f.full()
	}
	dense := func() ([][]float64, error) {
		if dim > 0 && len(f.SV) > dataset.DefaultMaxValues/dim {
			return nil, fmt.Errorf("%d stored examples × %d features is over the budget of %d values held dense", len(f.SV), dim, dataset.DefaultMaxValues)
		}
		X := make([][]float64, len(f.SV))
		for s, v := range f.SV {
			X[s] = make([]float64, dim)
			for k, j := range v.Index {
				X[s][j] = v.Value[k]
			}
		}
		return X, nil
	}
	pad := func(w []float64) []float64 { return append(slices.Clone(w), make([]float64, dim-len(w))...) }
	var k kernel.Kernel
	if f.Kernel != nil {
		var err error
		if k, err = kernel.ParseKernel(*f.Kernel); err != nil {
			return nil, err
		}
	}
	if f.Values() {
		return nil, fmt.Errorf("modelfile: a %s model predicts values, not classes (use ValueModel)", f.Learner)
	}
	switch f.form() {
	case learners.KernelSVMForm:
		var ms []svm.Machine
		for _, mc := range f.Machines {
			ms = append(ms, svm.Machine{Pos: mc.Pos, Neg: *mc.Neg, SV: mc.SV, Coef: mc.Coef, Rho: *mc.Rho})
		}
		if svRows != nil {
			return svm.NewKernelModel(k, len(f.Classes), svm.OneVsOne, svRows, ms), nil
		}
		if sv32 := f.float32SV(dim); sv32 != nil {
			return svm.NewKernelModel(k, len(f.Classes), svm.OneVsOne, sv32, ms), nil
		}
		nnz := 0
		for _, v := range f.SV {
			nnz += len(v.Index)
		}
		start := make([]int, 1, len(f.SV)+1)
		idx, val := make([]int32, 0, nnz), make([]float64, 0, nnz)
		for s, v := range f.SV {
			idx = append(idx, v.Index...)
			val = append(val, v.Value...)
			start = append(start, len(idx))
			if consume {
				f.SV[s] = Sparse{}
			}
		}
		rows, err := learning.NewSparse(dim, start, idx, val)
		if err != nil {
			return nil, err
		}
		// The support vectors in the form the training rows had: float32
		// rows when the values are float32s (a model fitted on a data file),
		// bytes, bits, or sparse, as Compact finds them.
		sv := rows.Compact()
		if f32dot.Exact(val) {
			sv = rows.Compact32()
		}
		return svm.NewKernelModel(k, len(f.Classes), svm.OneVsOne, sv, ms), nil
	case learners.KernelExpansionForm:
		X, err := dense()
		if err != nil {
			return nil, err
		}
		km := &learning.KernelModel{Kernel: k, SV: X, Bias: *f.KernelBias, Classes: len(f.Classes)}
		for _, mc := range f.Machines {
			km.Coef = append(km.Coef, mc.Coef)
		}
		return km, nil
	case learners.LinearSVMForm:
		lm := &svm.LinearModel{Classes: len(f.Classes), Neg: -1}
		for _, mc := range f.Machines {
			lm.Pos = append(lm.Pos, mc.Pos)
			if mc.Neg != nil {
				lm.Neg = *mc.Neg
			}
			lm.Machines = append(lm.Machines, &svm.LinearBinary{W: pad(mc.W), B: *mc.B})
		}
		return lm, nil
	}
	lm := &learning.LinearModel{Classes: len(f.Classes)}
	for _, mc := range f.Machines {
		lm.W = append(lm.W, pad(mc.W))
		lm.B = append(lm.B, *mc.B)
	}
	return lm, nil
}

// float32Form reports whether n support vectors with nnz non-zeros in all,
// grey levels or not, are held as float32 rows of dim features: not when
// they are grey levels (bytes hold them; 0/1 values are grey too), nor
// when they are too sparse (learning.ChooseForm).
func float32Form(grey bool, nnz, n, dim int) bool {
	return dim > 0 && !grey && learning.ChooseForm(false, nnz, n, dim) == learning.FormDense
}

// float32SV returns the support vectors as float32 rows of dim features,
// written straight from f.SV, when that is their form: every value a
// float32 (the model was fitted on float32 rows) that is not 0/1 or a grey
// byte, and too many non-zeros to stay sparse (learning.ChooseForm).
// Otherwise it returns nil.
func (f *File) float32SV(dim int) *learning.Float32 {
	nnz, grey := 0, true
	for _, v := range f.SV {
		nnz += len(v.Index)
		if !f32dot.Exact(v.Value) {
			return nil
		}
		grey = grey && bytedot.FromGrey(nil, v.Value)
	}
	if !float32Form(grey, nnz, len(f.SV), dim) {
		return nil
	}
	block := make([]float32, len(f.SV)*dim)
	for s, v := range f.SV {
		row := block[s*dim : (s+1)*dim]
		for k, j := range v.Index {
			row[j] = float32(v.Value[k])
		}
	}
	rows, err := learning.Float32Of(dim, block)
	if err != nil {
		return nil
	}
	return rows
}
