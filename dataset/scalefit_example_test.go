package dataset_test

import (
	"fmt"

	"mark1/dataset"
)

// A scaler fitted on rows given one at a time, as a reader that cannot
// hold them gives them: twice for "std" (the means, then the deviations),
// the same scaler FitScaler fits on the rows held.
func ExampleScalerFit() {
	rows := []struct {
		idx []int32
		val []float64
	}{{[]int32{0, 1}, []float64{1, 4}}, {[]int32{1}, []float64{2}}, {[]int32{0}, []float64{3}}}
	f, err := dataset.NewScalerFit(dataset.ScaleStandard, 2)
	if err != nil {
		panic(err)
	}
	for range f.Passes() {
		for _, r := range rows {
			f.Add(r.idx, r.val)
		}
		f.EndPass()
	}
	sc := f.Scaler()
	fmt.Printf("passes %d, mean %.4g, sd %.4g\n", f.Passes(), sc.Mean, sc.SD)
	fmt.Printf("feature 0: 3 ↦ %.4g\n", sc.Scale(0, 3))
	// Output:
	// passes 2, mean [1.333 2], sd [1.247 1.633]
	// feature 0: 3 ↦ 1.336
}
