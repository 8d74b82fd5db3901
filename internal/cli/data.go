package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"mark1/images"
)

// defaultTask is what train and compare use when given no data.
const defaultTask = "shapes"

// dataFlags choose the pictures a command works on.
type dataFlags struct {
	task      string
	data      string
	perClass  int
	size      int
	test      string
	testSplit float64
	maxPixels int
}

func (d *dataFlags) register(fs *pflag.FlagSet, split bool) {
	fs.StringVar(&d.task, "task", "", "built-in task (see mark1 tasks); default "+defaultTask+" when no --data")
	fs.StringVar(&d.data, "data", "", "your data: a folder of class sub-folders of images, an IDX images file\n(labels beside it, or IMAGES,LABELS), or a libsvm text file")
	fs.IntVar(&d.perClass, "n", 50, "cards per class for a built-in task")
	fs.IntVar(&d.size, "card-size", 20, "side in pixels of a built-in task's cards")
	fs.IntVar(&d.maxPixels, "max-pixels", images.DefaultMaxPixels, "refuse pictures larger than this many pixels (checked before decoding)")
	if split {
		fs.StringVar(&d.test, "test", "", "held-out data (same forms as --data) for P_g")
		fs.Float64Var(&d.testSplit, "test-split", 0.2, "fraction of the data held out for P_g when no --test (seeded, stratified)")
	}
}

func (d *dataFlags) limits() images.Limits { return images.Limits{MaxPixels: d.maxPixels} }

// load reads the data set and splits off the held-out part (which may be
// empty). seed draws built-in cards and the split.
func (d *dataFlags) load(seed uint64) (train, test *images.Dataset, err error) {
	if d.task != "" && d.data != "" {
		return nil, nil, usagef("give --task or --data, not both")
	}
	if d.perClass < 1 || d.perClass > 1_000_000 {
		return nil, nil, usagef("--n %d out of range [1, 1000000]", d.perClass)
	}
	if d.size < 4 || d.size > 4096 {
		return nil, nil, usagef("--card-size %d out of range [4, 4096]", d.size)
	}
	if !(d.testSplit >= 0 && d.testSplit < 1) {
		return nil, nil, usagef("--test-split %v out of range [0, 1)", d.testSplit)
	}
	if d.maxPixels < 1 {
		return nil, nil, usagef("--max-pixels must be positive")
	}
	var all *images.Dataset
	if d.data != "" {
		all, err = images.Load(d.data, d.limits())
	} else {
		task := d.task
		if task == "" {
			task = defaultTask
		}
		all, err = images.Generate(task, d.perClass, d.size, seed)
		if err != nil {
			err = usageError{err}
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if err := all.Validate(); err != nil {
		return nil, nil, err
	}
	if d.test != "" {
		test, err = images.Load(d.test, d.limits())
		if err != nil {
			return nil, nil, err
		}
		if err := sameClasses(all, test); err != nil {
			return nil, nil, err
		}
		return all, test, nil
	}
	if d.testSplit == 0 {
		return all, &images.Dataset{Name: all.Name + " (none held out)", Classes: all.Classes}, nil
	}
	train, test = all.Split(d.testSplit, seed)
	return train, test, nil
}

func sameClasses(a, b *images.Dataset) error {
	if len(a.Classes) != len(b.Classes) {
		return fmt.Errorf("%s has %d classes but %s has %d", b.Name, len(b.Classes), a.Name, len(a.Classes))
	}
	for i := range a.Classes {
		if a.Classes[i] != b.Classes[i] {
			return fmt.Errorf("%s: class %d is %q, but %q in %s", b.Name, i, b.Classes[i], a.Classes[i], a.Name)
		}
	}
	return nil
}

// relabel maps a data set's classes onto a machine's by name, for eval.
func relabel(d *images.Dataset, classes []string) error {
	idx := map[string]int{}
	for i, c := range classes {
		idx[c] = i
	}
	m := make([]int, len(d.Classes))
	for i, c := range d.Classes {
		j, ok := idx[c]
		if !ok {
			return fmt.Errorf("%s: class %q is not one the machine was trained on (%v)", d.Name, c, classes)
		}
		m[i] = j
	}
	for i := range d.Samples {
		d.Samples[i].Label = m[d.Samples[i].Label]
	}
	d.Classes = classes
	return nil
}
