package modelfile

import (
	"fmt"
	"slices"
	"strings"

	"mark1/dataset"
)

// Schema is how the training data were laid out: their format, and for a
// CSV file the feature columns' names in order and the label column's
// name; for libsvm text whether the indices were 0-based. The number of
// features is File.Dim and the scaling File.Scale.
type Schema struct {
	// Format is the training data's format: "libsvm", "csv", "text" or "idx".
	Format string `json:"format"`
	// Features names the feature columns of a CSV file, in order; null
	// for other formats.
	Features []string `json:"features"`
	// Label is the header name of a CSV file's label column; "" for other
	// formats.
	Label string `json:"label"`
	// ZeroBased is true when libsvm text had 0-based indices.
	ZeroBased bool `json:"zero_based"`
}

// SchemaOf records how s is laid out.
func SchemaOf(s *dataset.Set) *Schema {
	sc := &Schema{Format: s.Format.String(), ZeroBased: s.ZeroBased && s.Format == dataset.LibSVM}
	if s.Format == dataset.CSV {
		sc.Features, sc.Label = slices.Clone(s.Features), s.LabelName
	}
	return sc
}

func (sc *Schema) check(dim int) error {
	f, err := dataset.ParseFormat(sc.Format)
	if err != nil || f == dataset.Auto {
		return bad("schema: format %q; want libsvm, csv, text or idx", sc.Format)
	}
	if sc.Features != nil && len(sc.Features) != dim {
		return bad("schema: %d feature names for dim %d", len(sc.Features), dim)
	}
	if (sc.Features != nil || sc.Label != "") != (f == dataset.CSV) {
		return bad("schema: feature and label names are for CSV data only")
	}
	if sc.ZeroBased && f != dataset.LibSVM {
		return bad("schema: zero_based is for libsvm data only")
	}
	return nil
}

// InputError is CheckInput's error: data whose features are not the
// model's.
type InputError struct {
	Data string // the data's name
	Msg  string // the problem, in words
}

// Error returns the problem, which names the data and the model.
func (e *InputError) Error() string { return e.Msg }

func inputErr(s *dataset.Set, format string, a ...any) error {
	return &InputError{Data: s.Name, Msg: fmt.Sprintf(format, a...)}
}

func same(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// ReadOptions decides how to read new data for the model, given the start
// of the file (dataset.ReadHead) and the caller's options, so that a
// feature is never taken for a label:
//
//   - opt.NoLabels or opt.LabelColumn, when set, are the caller's choice;
//   - a CSV file with a column named as the training data's label column
//     has labels there; one whose header is the training data's feature
//     names, or has no column named label, class, target or y and exactly
//     Dim columns, has none; otherwise the label column is found as for
//     training data;
//   - a text file has its label last (it has no header to tell otherwise);
//   - libsvm text is read with 0-based indices when the training data's
//     were (a file that never uses its first feature has no index 0 to
//     tell); CheckInput refuses 0-based data for a 1-based model.
func (f *File) ReadOptions(h dataset.Head, opt dataset.Options) dataset.Options {
	opt.Format = h.Format
	sc := f.Schema
	if sc == nil {
		sc = &Schema{}
	}
	if h.Format == dataset.LibSVM && opt.Indices == dataset.AutoIndices && sc.ZeroBased {
		opt.Indices = dataset.ZeroBased // even when this file has no index 0
	}
	if opt.NoLabels || opt.LabelColumn != "" {
		return opt
	}
	if h.Format == dataset.CSV {
		if sc.Label != "" && slices.ContainsFunc(h.Header, func(c string) bool { return same(c, sc.Label) }) {
			opt.LabelColumn = strings.TrimSpace(sc.Label)
			return opt
		}
		opt.NoLabels = (sc.Features != nil && slices.EqualFunc(h.Header, sc.Features, same)) ||
			(!dataset.HasLabelName(h.Header) && len(h.Header) == f.Dim)
	}
	return opt
}

// CheckInput refuses data read for the model (ReadOptions) whose features
// are not the model's: a different number of CSV or text columns, a libsvm
// feature index beyond the model's features, CSV feature names other than
// the training data's (scikit-learn refuses these too). A model read from
// LIBSVM's or LIBLINEAR's format (Source) takes libsvm data with any
// indices, as svm-predict and liblinear-predict do. name names the model in
// the error. It returns the labels of s that the model has never seen
// (which can never be predicted right); labels compare as SameLabel.
func (f *File) CheckInput(s *dataset.Set, name string) (unseen []string, err error) {
	what := "was trained on"
	switch {
	case s.Format == dataset.LibSVM && s.Dim > f.Dim && f.Source == "":
		return nil, inputErr(s, "%s has feature %d, but the model %s %s %d features", s.Name, s.Dim, name, what, f.Dim)
	case s.Format != dataset.LibSVM && s.Dim != f.Dim:
		cols := ""
		if s.Features != nil {
			cols = " (" + short(s.Features) + ")"
		}
		lab := "without labels"
		if !s.Unlabelled {
			lab = "and a label"
			if s.LabelName != "" {
				lab = fmt.Sprintf("and the label column %q", s.LabelName)
			}
		}
		want := ""
		if f.Schema != nil && f.Schema.Features != nil {
			want = " (" + short(f.Schema.Features) + ")"
		}
		return nil, inputErr(s, "%s has %d features%s %s, but the model %s %s %d%s", s.Name, s.Dim, cols, lab, name, what, f.Dim, want)
	}
	if f.Schema != nil && f.Schema.Features != nil && s.Features != nil && !slices.EqualFunc(s.Features, f.Schema.Features, same) {
		return nil, inputErr(s, "%s's feature columns (%s) are not the model %s's (%s), in name or order", s.Name, short(s.Features), name, short(f.Schema.Features))
	}
	if f.Schema != nil && f.Schema.Format == "libsvm" && s.Format == dataset.LibSVM && s.ZeroBased != f.Schema.ZeroBased {
		return nil, inputErr(s, "%s has %s libsvm indices, but the model %s's training data had %s ones", s.Name, base(s.ZeroBased), name, base(f.Schema.ZeroBased))
	}
	for _, c := range s.Classes {
		if !slices.ContainsFunc(f.Classes, func(m string) bool { return SameLabel(m, c) }) {
			unseen = append(unseen, c)
		}
	}
	return unseen, nil
}

func base(zero bool) string {
	if zero {
		return "0-based"
	}
	return "1-based"
}

// short lists names for a message, at most 8 of them.
func short(names []string) string {
	const n = 8
	s := strings.Join(names[:min(len(names), n)], ", ")
	if len(names) > n {
		s += fmt.Sprintf(" and %d more", len(names)-n)
	}
	return s
}
