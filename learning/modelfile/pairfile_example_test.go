package modelfile_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"mark1/learning/modelfile"
	"mark1/learning/selection"
)

// A grid split by pair: each task reads the file for its labels, then
// keeps only the rows of its binary problem and of its fold; merged, the
// votes give the table of the grid whose tasks held all the data (that of
// ExampleRunSweepTask).
func ExampleSetup_RunPairFile() {
	dir := files(map[string]string{"abc.libsvm": abc})
	defer os.RemoveAll(dir)
	ctx := context.Background()
	l := svmSetup("none")
	g, err := l.Grid(modelfile.GridText{C: "1,100", Gamma: "1"})
	if err != nil {
		panic(err)
	}
	p, _, err := l.PlanGrid(ctx, filepath.Join(dir, "abc.libsvm"), g, modelfile.GridOptions{Folds: 3, Seed: 1, Warm: true})
	if err == nil {
		err = p.ByPair()
	}
	if err != nil {
		panic(err)
	}
	var results []selection.Result
	for i := range p.Tasks {
		r, classes, err := l.RunPairFile(ctx, p, "abc.plan", "", 0, i, 1)
		if err != nil {
			panic(err)
		}
		if i < 3 {
			r.WriteText(os.Stdout, p, classes)
		}
		results = append(results, r)
	}
	t := selection.Merge(p, results)
	fmt.Printf("%d tasks: accuracy %.1f%% with C = 1, %.1f%% with C = 100\n", p.Tasks, t.Accuracy(0, 0), t.Accuracy(1, 0))
	// Output:
	// task 0 of 9 (gamma 1, fold 0, classes 1 vs 2): votes on 3 rows for C = 1,100
	// task 1 of 9 (gamma 1, fold 0, classes 1 vs 3): votes on 3 rows for C = 1,100
	// task 2 of 9 (gamma 1, fold 0, classes 2 vs 3): votes on 3 rows for C = 1,100
	// 9 tasks: accuracy 91.7% with C = 1, 83.3% with C = 100
}
