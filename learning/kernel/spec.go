package kernel

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"mark1/internal/base/param"
)

// Names lists the kernel families Parse reads, in LIBSVM's order, then the
// notes' own: "gaussian" is rbf written with σ.
func Names() []string {
	return []string{"linear", "poly", "rbf", "sigmoid", "gaussian", "laplace"}
}

// GammaRule says how γ is chosen.
type GammaRule int

const (
	// GammaValue is a γ given as a number.
	GammaValue GammaRule = iota
	// GammaScale is scikit-learn's default, 1/(features × variance of the
	// training values) (1/features when the variance is 0).
	GammaScale
	// GammaAuto is LIBSVM's default, 1/features.
	GammaAuto
)

// Gamma is γ as a user gives it: a number, or a rule that the training data
// turn into one. The zero value is the number 0 (invalid); DefaultGamma is
// scale.
type Gamma struct {
	Rule  GammaRule
	Value float64 // with GammaValue
}

// DefaultGamma is γ when none is given: scale.
var DefaultGamma = Gamma{Rule: GammaScale}

// ParseGamma reads "scale", "auto" or a finite number > 0.
func ParseGamma(s string) (Gamma, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "scale":
		return Gamma{Rule: GammaScale}, nil
	case "auto":
		return Gamma{Rule: GammaAuto}, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return Gamma{}, &param.FieldError{Field: "gamma", Value: s, Range: "scale, auto or a finite number > 0"}
	}
	return Gamma{Value: v}, nil
}

// String returns "scale", "auto" or the number.
func (g Gamma) String() string {
	switch g.Rule {
	case GammaScale:
		return "scale"
	case GammaAuto:
		return "auto"
	}
	return ftoa(g.Value)
}

// Resolve returns γ for data of dim features (at least 1) whose values have
// the given variance.
func (g Gamma) Resolve(dim int, variance float64) float64 {
	dim = max(dim, 1)
	switch g.Rule {
	case GammaScale:
		if !(variance > 0) {
			variance = 1
		}
		return 1 / (float64(dim) * variance)
	case GammaAuto:
		return 1 / float64(dim)
	}
	return g.Value
}

// Params are the numbers of a kernel family that a learner's options also
// carry (fit's --gamma, --degree and --coef0): what a Spec takes for a
// parameter its word does not write.
type Params struct {
	Gamma  Gamma
	Degree int
	Coef0  float64
}

// DefaultParams are LIBSVM's and scikit-learn's: γ = scale, degree 3,
// coef0 0.
func DefaultParams() Params { return Params{Gamma: DefaultGamma, Degree: 3} }

// DefaultLaplaceSigma is the Laplace kernel's σ when none is given.
const DefaultLaplaceSigma = 1

// Spec is a kernel as written, before the training data give a γ of scale
// or auto its value. Build it with Parse; Kernel makes the Kernel.
type Spec struct {
	// Name is the family: linear, poly, rbf, sigmoid, gaussian or laplace
	// (gaussian is rbf written with Sigma instead of Gamma).
	Name string
	// Gamma is γ of poly, rbf and sigmoid.
	Gamma Gamma
	// Degree is poly's degree.
	Degree int
	// Coef0 is poly's and sigmoid's constant.
	Coef0 float64
	// Sigma is gaussian's and laplace's width σ.
	Sigma float64
}

// Parse reads a kernel word with DefaultParams for the parameters it does
// not write; see ParseWith.
func Parse(word string) (Spec, error) { return ParseWith(word, DefaultParams()) }

// ParseWith reads a kernel word: a family name, then optionally ":" and
// key=value pairs separated by commas.
//
//	linear
//	poly      degree (d), gamma (g), coef0 (c, r)   (x·z·γ + coef0)^degree
//	rbf       gamma (g), or sigma                   exp(−γ‖x−z‖²)
//	gaussian  sigma, or gamma                       exp(−‖x−z‖²/(2σ²)), γ = 1/(2σ²)
//	sigmoid   gamma (g), coef0 (c, r)               tanh(γ x·z + coef0)
//	laplace   sigma                                 exp(−‖x−z‖/σ)
//
// gamma is a number, scale or auto. A parameter the word does not write is
// taken from p (a learner's options); a word that writes a parameter p
// also sets to something other than its default is refused, so that a
// value is never given twice. A gaussian without sigma is rbf with p's γ; a
// laplace without sigma has σ = 1. Errors are *param.FieldError values
// naming "kernel" or the parameter.
func ParseWith(word string, p Params) (Spec, error) {
	bad := func(format string, args ...any) (Spec, error) {
		return Spec{}, param.Errorf("kernel", strconv.Quote(word), format, args...)
	}
	name, args, _ := strings.Cut(strings.TrimSpace(word), ":")
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "polynomial" {
		name = "poly"
	}
	keys := map[string][]string{
		"linear":   nil,
		"poly":     {"degree", "gamma", "coef0"},
		"rbf":      {"gamma", "sigma"},
		"gaussian": {"sigma", "gamma"},
		"sigmoid":  {"gamma", "coef0"},
		"laplace":  {"sigma"},
	}
	allowed, ok := keys[name]
	if !ok {
		return bad("one of %s", strings.Join(Names(), ", "))
	}
	alias := map[string]string{"d": "degree", "g": "gamma", "c": "coef0", "r": "coef0"}
	vals := map[string]string{}
	if args != "" {
		for _, kv := range strings.Split(args, ",") {
			key, val, ok := strings.Cut(kv, "=")
			key = strings.ToLower(strings.TrimSpace(key))
			if a, ok := alias[key]; ok {
				key = a
			}
			if !ok {
				return bad("key=value parameters; %q is not", kv)
			}
			if !slices.Contains(allowed, key) {
				if len(allowed) == 0 {
					return bad("no parameters for %s", name)
				}
				return bad("parameters of %s: %s (not %q)", name, strings.Join(allowed, ", "), key)
			}
			if _, twice := vals[key]; twice {
				return bad("%s once", key)
			}
			vals[key] = strings.TrimSpace(val)
		}
	}
	if _, g := vals["gamma"]; g {
		if _, s := vals["sigma"]; s {
			return bad("gamma or sigma, not both (γ = 1/(2σ²))")
		}
	}
	s, err := parseParams(word, name, vals, p)
	if err != nil {
		// A parameter written in the word is the word's: kernel.degree.
		if f := param.As(err); f != nil && f.FieldName() != "kernel" {
			return Spec{}, &param.FieldError{Field: "kernel." + f.FieldName(), Value: f.FieldValue(), Range: f.FieldRange() + " (in the kernel " + strconv.Quote(word) + ")"}
		}
		return Spec{}, err
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// parseParams reads the parameters vals written in the kernel word, p
// filling the others.
func parseParams(word, name string, vals map[string]string, p Params) (Spec, error) {
	num := func(key string) (float64, error) {
		v, err := strconv.ParseFloat(vals[key], 64)
		if err != nil || !finite(v) {
			return 0, &param.FieldError{Field: key, Value: vals[key], Range: "a finite number"}
		}
		return v, nil
	}
	def := DefaultParams()
	twice := func(key string) error {
		return &param.FieldError{Field: key, Value: vals[key], Range: "one value: the kernel " + strconv.Quote(word) + " writes " + key + " and the learner's options set it too"}
	}
	s := Spec{Name: name, Gamma: p.Gamma, Degree: p.Degree, Coef0: p.Coef0}
	if v, ok := vals["gamma"]; ok {
		g, err := ParseGamma(v)
		if err != nil {
			return Spec{}, err
		}
		if p.Gamma != def.Gamma && p.Gamma != g {
			return Spec{}, twice("gamma")
		}
		if g.Rule == GammaValue {
			if err := checkGamma(strings.Replace(name, "gaussian", "rbf", 1), g.Value, ""); err != nil {
				return Spec{}, err
			}
		}
		s.Gamma = g
	}
	if _, ok := vals["degree"]; ok {
		d, err := num("degree")
		if err != nil || d != math.Trunc(d) || d < MinDegree || d > MaxDegree {
			return Spec{}, param.Errorf("degree", vals["degree"], "a whole number in [%d, %d]", MinDegree, MaxDegree)
		}
		if p.Degree != def.Degree && p.Degree != int(d) {
			return Spec{}, twice("degree")
		}
		s.Degree = int(d)
	}
	if _, ok := vals["coef0"]; ok {
		c, err := num("coef0")
		if err != nil {
			return Spec{}, err
		}
		if p.Coef0 != def.Coef0 && p.Coef0 != c {
			return Spec{}, twice("coef0")
		}
		s.Coef0 = c
	}
	if _, ok := vals["sigma"]; ok {
		v, err := num("sigma")
		if err != nil {
			return Spec{}, err
		}
		if err := checkSigma(v); err != nil {
			return Spec{}, err
		}
		s.Sigma = v
		if name == "rbf" {
			s.Name = "gaussian"
		}
	} else if name == "laplace" {
		s.Sigma = DefaultLaplaceSigma
	}
	if name == "gaussian" && s.Sigma == 0 {
		s.Name = "rbf"
	}
	return s, nil
}

// uses reports which of gamma, degree and coef0 the family reads.
func (s Spec) uses() (gamma, degree, coef0 bool) {
	switch s.Name {
	case "poly":
		return true, true, true
	case "rbf":
		return true, false, false
	case "sigmoid":
		return true, false, true
	}
	return false, false, false
}

// Validate checks the parameters the family uses, in their own names
// (*param.FieldError): a γ rule is checked once the data give it a value
// (Kernel).
func (s Spec) Validate() error {
	gamma, degree, coef0 := s.uses()
	if degree && (s.Degree < MinDegree || s.Degree > MaxDegree) {
		return param.Errorf("degree", s.Degree, "a whole number in [%d, %d]", MinDegree, MaxDegree)
	}
	if coef0 && !finite(s.Coef0) {
		return param.Errorf("coef0", s.Coef0, "a finite number")
	}
	if gamma && s.Gamma.Rule == GammaValue {
		if err := checkGamma(s.Name, s.Gamma.Value, ""); err != nil {
			return err
		}
	}
	switch s.Name {
	case "gaussian", "laplace":
		return checkSigma(s.Sigma)
	case "linear", "poly", "rbf", "sigmoid":
		return nil
	}
	return param.Errorf("kernel", strconv.Quote(s.Name), "one of %s", strings.Join(Names(), ", "))
}

// checkGamma checks a γ of the family; how says where a rule's value came
// from ("" for a number).
func checkGamma(family string, g float64, how string) error {
	lo, hi := 0.0, math.MaxFloat64
	if family == "rbf" {
		lo, hi = minGamma, maxGamma
	}
	if !(g > lo) || g > hi || !finite(g) {
		v := ftoa(g)
		if how != "" {
			v = how + " (= " + v + " on these data)"
		}
		if family == "rbf" {
			return &param.FieldError{Field: "gamma", Value: v, Range: "scale, auto or a number in [" + strconv.FormatFloat(lo, 'g', 3, 64) + ", " + strconv.FormatFloat(hi, 'g', 3, 64) + "] (σ = 1/√(2γ) within [1e-150, 1e150])"}
		}
		return &param.FieldError{Field: "gamma", Value: v, Range: "scale, auto or a finite number > 0"}
	}
	return nil
}

// NeedsData reports whether the kernel's γ is a rule (scale or auto) that
// the training data turn into a number.
func (s Spec) NeedsData() bool {
	gamma, _, _ := s.uses()
	return gamma && s.Gamma.Rule != GammaValue
}

// Kernel returns the kernel for training data of dim features whose values
// have the given variance (they matter only for a γ of scale or auto), and
// the γ it uses in LIBSVM's terms (0 when the family has none or was
// written with σ). The rbf kernel is a Gaussian with σ = 1/√(2γ).
func (s Spec) Kernel(dim int, variance float64) (Kernel, float64, error) {
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	gamma, _, _ := s.uses()
	g := 0.0
	if gamma {
		g = s.Gamma.Resolve(dim, variance)
		how := ""
		if s.Gamma.Rule != GammaValue {
			how = s.Gamma.String()
		}
		if err := checkGamma(s.Name, g, how); err != nil {
			return nil, 0, err
		}
	}
	var k Kernel
	switch s.Name {
	case "linear":
		k = Linear{}
	case "poly":
		k = Polynomial{Degree: s.Degree, Gamma: g, Coef0: s.Coef0}
	case "rbf":
		k = Gaussian{Sigma: 1 / math.Sqrt(2*g)}
	case "sigmoid":
		k = Sigmoid{Gamma: g, Coef0: s.Coef0}
	case "gaussian":
		k = Gaussian{Sigma: s.Sigma}
	case "laplace":
		k = Laplace{Sigma: s.Sigma}
	}
	if err := Validate(k); err != nil {
		return nil, 0, err
	}
	return k, g, nil
}

// Fixed returns the kernel of a Spec that needs no data (NeedsData is
// false), such as a kernel read back from a model file.
func (s Spec) Fixed() (Kernel, error) {
	if s.NeedsData() {
		return nil, &param.FieldError{Field: "gamma", Value: s.Gamma.String(), Range: "a number: this kernel is used without training data"}
	}
	k, _, err := s.Kernel(1, 1)
	return k, err
}

// ParseKernel reads a kernel word that needs no data, as model files store
// them (every γ a number): Parse, then Fixed.
func ParseKernel(word string) (Kernel, error) {
	s, err := Parse(word)
	if err != nil {
		return nil, err
	}
	return s.Fixed()
}

// String returns the word Parse reads back to s, every parameter the
// family uses written out.
func (s Spec) String() string {
	switch s.Name {
	case "poly":
		return "poly:degree=" + strconv.Itoa(s.Degree) + ",gamma=" + s.Gamma.String() + ",coef0=" + ftoa(s.Coef0)
	case "rbf":
		return "rbf:gamma=" + s.Gamma.String()
	case "sigmoid":
		return "sigmoid:gamma=" + s.Gamma.String() + ",coef0=" + ftoa(s.Coef0)
	case "gaussian", "laplace":
		return s.Name + ":sigma=" + ftoa(s.Sigma)
	}
	return s.Name
}

// Uses reports whether the kernel family reads the learner option param
// ("gamma", "degree" or "coef0"; LIBSVM's -g, -d and -r): poly reads all
// three, rbf γ, sigmoid γ and coef0, the others none.
func (s Spec) Uses(param string) bool {
	g, d, c := s.uses()
	switch param {
	case "gamma":
		return g
	case "degree":
		return d
	case "coef0":
		return c
	}
	return false
}

// UsesGamma reports whether the kernel family reads γ (poly, rbf and
// sigmoid), so that a front end knows whether a γ means anything to it.
func (s Spec) UsesGamma() bool {
	g, _, _ := s.uses()
	return g
}
