package modelfile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"

	"mark1/dataset"
	"mark1/learning"
	"mark1/learning/svm"
)

// ApplyOptions says how ApplyFile reads a data file.
type ApplyOptions struct {
	// Read is how the file is read (its format, label column, indices,
	// MaxBytes: the budget of the rows held at once).
	Read dataset.Options
	// Name names the model in errors ("model.json").
	Name string
	// BlockRows is the rows read and predicted at a time (0:
	// DefaultBlockRows a core, GOMAXPROCS cores).
	BlockRows int
	// ReadContext, if not nil, is the context the reader looks at (a
	// command's memory guard leaves its reader's own budget to say where
	// a file ran over); ctx otherwise.
	ReadContext context.Context
	// OnData, if not nil, is told the data's description (Set.Describe)
	// when the first block is read.
	OnData func(info *dataset.Set)
}

// DefaultBlockRows is the rows ApplyFile reads and predicts at a time for
// each core: one block of a kernel SVM's PredictRows a core. A row of 400
// features read from 6-digit text takes some 8 KB as text and as read, so
// that on one core apply holds half a megabyte of rows rather than two
// (256 rows, until issue 39: peak RSS with a 2,000-row Fashion-MNIST
// model 21.5 -> 19.7 MB, the same CPU).
const DefaultBlockRows = 64

// Applied is what ApplyFile found on a data file.
type Applied struct {
	// Data describes the file, without its rows (Set.Describe); QueryIDs
	// counts the rows' qid fields, which the model ignores.
	Data *dataset.Set `json:"-"`
	// Rows counts the rows predicted; Right those predicted as labelled
	// (nil for a file without labels).
	Rows  int  `json:"rows"`
	Right *int `json:"right"`
	// Unseen are the labels of the file that the model has no class for,
	// in the order the file's classes are read, with their rows: those
	// rows count as wrong.
	Unseen []UnseenLabel `json:"unseen"`
	// Of a value model (ApplyValues): Preds are its predictions as text,
	// Values the regression's scores against the labels (nil without
	// labels or for the one-class SVM), Inside the one-class SVM's rows
	// predicted +1 (nil for a regression).
	Preds  []string             `json:"-"`
	Values *learning.Regression `json:"-"`
	Inside *int                 `json:"-"`
}

// An UnseenLabel is a label of the data the model has no class for.
type UnseenLabel struct {
	Label string `json:"label"`
	Rows  int    `json:"rows"`
}

// Accuracy returns the fraction of the rows predicted right; NaN without
// labels or rows.
func (a *Applied) Accuracy() float64 {
	if a.Right == nil || a.Rows == 0 {
		return math.NaN()
	}
	return float64(*a.Right) / float64(a.Rows)
}

// ApplyFile predicts every row of the data file at path with f's model,
// reading the file a block of rows at a time (dataset.ReadBlocks): each
// block is checked against the model (File.CheckInput), scaled as the
// training data were, and predicted, and its predictions written to out,
// one class a line, so that the file's rows are never all in memory. It
// stops with ctx's error once ctx is cancelled, writing nothing more. It
// lets f's listed support vectors go once the model holds its own. On an
// error the Applied returned still describes the data read (Data), for
// the caller's advice.
func ApplyFile(ctx context.Context, f *File, path string, o ApplyOptions, out io.Writer) (*Applied, error) {
	a := &Applied{}
	right := 0
	var m learning.Model
	// PredictRows of m, block after block
	var predict func(r learning.Rows, first int) ([]int, error)
	var labels []string        // the file's labels, in order of first appearance
	counts := map[string]int{} // rows of each
	block := o.BlockRows
	if block <= 0 {
		block = DefaultBlockRows * runtime.GOMAXPROCS(0)
	}
	rctx := o.ReadContext
	if rctx == nil {
		rctx = ctx
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	err := dataset.ReadBlocks(rctx, path, o.Read, block, func(test *dataset.Set, first int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if a.Data == nil {
			a.Data = test.Describe()
			if o.OnData != nil {
				o.OnData(a.Data)
			}
		}
		a.Data.QueryIDs += test.QueryIDs
		if _, err := f.CheckInput(test, o.Name); err != nil {
			return err
		}
		if f.Scale != nil {
			var err error
			if test, err = f.Scale.Apply(test, 0); err != nil {
				return err
			}
		}
		dim := max(f.Dim, test.Dim)
		if m == nil {
			var err error
			// The model holds its support vectors in its own form (bytes,
			// bits, sparse rows; float32 rows are the file's own, read
			// compact): the file's listed copy goes as they are copied.
			if m, err = f.model(dim, true); err != nil {
				return err
			}
			predict = blockPredictor(m)
		}
		rows, err := learning.NewSparse(dim, test.RowStart, test.Index, test.Value)
		if err != nil {
			return err
		}
		preds, err := predict(rows, first)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", o.Name, test.Name, err)
		}
		for i, c := range preds {
			p := f.Classes[c]
			a.Rows++
			bw.WriteString(p)
			bw.WriteByte('\n')
			if test.Unlabelled {
				continue
			}
			l := test.Label(i)
			if SameLabel(p, l) {
				right++
			}
			if counts[l] == 0 {
				labels = append(labels, l)
			}
			counts[l]++
		}
		return nil
	})
	if err != nil {
		return a, err
	}
	if err := ctx.Err(); err != nil { // nothing is written once interrupted
		return a, err
	}
	if err := bw.Flush(); err != nil {
		return a, err
	}
	// The whole file's classes, as dataset.Read orders them (LIBSVM's two
	// classes -1 and 1 as 1, -1): the labels the model never saw.
	if len(labels) == 2 && labels[0] == "-1" && labels[1] == "1" {
		labels[0], labels[1] = "1", "-1"
	}
	for _, l := range labels {
		if !slices.ContainsFunc(f.Classes, func(c string) bool { return SameLabel(c, l) }) {
			a.Unseen = append(a.Unseen, UnseenLabel{l, counts[l]})
		}
	}
	if a.Data != nil && !a.Data.Unlabelled {
		a.Right = &right
	}
	return a, nil
}

// PredictRows returns m's class for every row of r, which are a file's
// rows from row first on (0-based; errors count from it): a kernel SVM's
// PredictRows (blocks of rows on every core, the kernel values of a block
// computed together, every decision value checked), otherwise Predict row
// by row in one reused buffer. A model that gives scores has them
// checked, row by row: the first decision value that is not a finite
// number (weights and values whose products overflow) is an error naming
// the row, not a class picked from NaN.
func PredictRows(m learning.Model, r learning.Rows, first int) ([]int, error) {
	if km, ok := m.(*svm.KernelModel); ok {
		out, err := km.PredictRowsChecked(nil, r, 0)
		return out, fromRow(err, first)
	}
	out := make([]int, r.Len())
	sc, _ := m.(learning.Scorer)
	var x, scores []float64
	for i := range out {
		x = r.Row(x, i)
		if sc != nil {
			scores = sc.Scores(scores, x)
			for _, v := range scores {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("row %d: a decision value is %v, not a finite number: the model's weights and the data's values overflow", first+i+1, v)
				}
			}
		}
		out[i] = m.Predict(x)
	}
	return out, nil
}

// fromRow returns err with the row a kernel SVM's *svm.NonFiniteError
// names counted from row first of a file.
func fromRow(err error, first int) error {
	if nf, ok := err.(*svm.NonFiniteError); ok {
		nf.Row += first
	}
	return err
}

// blockPredictor returns PredictRows for m called on a file's blocks in
// turn: a kernel SVM's through one svm.Predictor, which keeps its
// goroutines' working memory from one block to the next.
func blockPredictor(m learning.Model) func(r learning.Rows, first int) ([]int, error) {
	km, ok := m.(*svm.KernelModel)
	if !ok {
		return func(r learning.Rows, first int) ([]int, error) { return PredictRows(m, r, first) }
	}
	p := km.Predictor()
	return func(r learning.Rows, first int) ([]int, error) {
		out, err := p.PredictRowsChecked(nil, r, 0)
		return out, fromRow(err, first)
	}
}
