package lab

import (
	"fmt"
	"path/filepath"
	"strconv"

	"mark1/dataset"
)

// MaxDataRows bounds the rows of a data set the lab takes: a lab trace
// writes every presentation down.
const MaxDataRows = 10000

// FromDataset makes an Example of a two-class data set read by package
// dataset (libsvm, CSV or "x1 x2 ... label" text, any dimension). The +
// class is the one with the larger label when both labels are numbers
// (1 against −1 or 0), else the class that appears first in the file.
func FromDataset(s *dataset.Set) (Example, error) {
	if len(s.Classes) != 2 {
		return Example{}, fmt.Errorf("%s: %d classes; the lab's learners separate two", s.Name, len(s.Classes))
	}
	if s.Rows() > MaxDataRows {
		return Example{}, fmt.Errorf("%s: %d rows; the lab writes every step down and takes at most %d", s.Name, s.Rows(), MaxDataRows)
	}
	plus := 0
	a, errA := strconv.ParseFloat(s.Classes[0], 64)
	b, errB := strconv.ParseFloat(s.Classes[1], 64)
	if errA == nil && errB == nil && b > a {
		plus = 1
	}
	x, err := s.Dense(MaxDataRows * 1000)
	if err != nil {
		return Example{}, err
	}
	y := make([]int, s.Rows())
	for i, c := range s.Y {
		y[i] = -1
		if c == plus {
			y[i] = 1
		}
	}
	e, err := NewExample(filepath.Base(s.Name), x, y)
	if err != nil {
		return Example{}, err
	}
	e.Teaches = fmt.Sprintf("your data: + is class %q, − is class %q", s.Classes[plus], s.Classes[1-plus])
	return e, nil
}
