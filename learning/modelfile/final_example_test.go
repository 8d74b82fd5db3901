package modelfile_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"mark1/dataset"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
)

// The final model of a three-class SVM trained a binary problem at a time,
// as a sweep's tasks train it (each could run in a process of its own,
// reading the data afresh), and joined: fit's model file, byte for byte.
func ExampleJoinPairs() {
	const text = "1 1:0.1 2:0.9\n1 1:0.2 2:0.8\n2 1:0.9 2:0.1\n2 1:0.8 2:0.3\n3 1:0.5 2:0.5\n3 1:0.6 2:0.4\n1 1:0.3 2:0.7\n2 1:0.7 2:0.2\n3 1:0.4 2:0.6\n"
	read := func() *dataset.Set {
		s, err := dataset.Read(strings.NewReader(text), "abc.libsvm", dataset.Options{Format: dataset.LibSVM})
		if err != nil {
			panic(err)
		}
		return s
	}
	spec, _ := learners.Lookup("svm")
	opts := learners.Defaults()
	opts.C = 10
	ctx := context.Background()
	fitted, err := modelfile.Fit(ctx, spec, opts, read(), nil, modelfile.FitOptions{})
	if err != nil {
		panic(err)
	}
	var pairs []modelfile.PairModel
	for q := range 3 { // classes (1, 2), (1, 3), (2, 3)
		pm, err := modelfile.FitPair(ctx, spec, opts, read(), nil, modelfile.FitOptions{}, q)
		if err != nil {
			panic(err)
		}
		fmt.Printf("pair %d: classes %d and %d, support vectors at rows %v\n", q, pm.Pos, pm.Neg, pm.SV)
		pairs = append(pairs, *pm)
	}
	joined, err := modelfile.JoinPairs(ctx, spec, opts, read(), nil, modelfile.FitOptions{}, pairs)
	if err != nil {
		panic(err)
	}
	var a, b bytes.Buffer
	fitted.File.Write(&a)
	joined.Write(&b)
	fmt.Println("fit's model file:", bytes.Equal(a.Bytes(), b.Bytes()))
	// Output:
	// pair 0: classes 0 and 1, support vectors at rows [0 6 2 3 7]
	// pair 1: classes 0 and 2, support vectors at rows [6 8]
	// pair 2: classes 1 and 2, support vectors at rows [3 7 5]
	// fit's model file: true
}
