package cli

import (
	"fmt"
	"strconv"

	"mark1/images"
	"mark1/learning"
	"mark1/machine"
)

// The machine file's "training" member records how the data were made and
// how the machine was trained, so that train --resume and ablate can make
// the same data again. These are its keys.
const (
	recTask      = "task"       // built-in task name
	recN         = "n"          // cards per class of a task
	recCardSize  = "card_size"  // card side of a task
	recDataPath  = "data_path"  // --data as given
	recTestPath  = "test_path"  // --test as given
	recTestSplit = "test_split" // fraction held out when no --test
	recSeed      = "seed"       // master seed (cards and split)
	recMaxPixels = "max_pixels" // --max-pixels
	recRule      = "rule"
	recValues    = "values"
	recPulses    = "pulses"
	recMaxEpochs = "max_epochs"
	recTrainSize = "train_size"
	recTestSize  = "test_size"
)

// record adds to rec what load needs to make the same data again.
func (d *dataFlags) record(rec map[string]string, seed uint64) {
	if d.data != "" {
		rec[recDataPath] = d.data
		rec[recMaxPixels] = strconv.Itoa(d.maxPixels)
	} else {
		task := d.task
		if task == "" {
			task = defaultTask
		}
		rec[recTask] = task
		rec[recN] = strconv.Itoa(d.perClass)
		rec[recCardSize] = strconv.Itoa(d.size)
	}
	if d.test != "" {
		rec[recTestPath] = d.test
		if d.data == "" {
			rec[recMaxPixels] = strconv.Itoa(d.maxPixels)
		}
	} else {
		rec[recTestSplit] = strconv.FormatFloat(d.testSplit, 'g', -1, 64)
	}
	rec[recSeed] = strconv.FormatUint(seed, 10)
}

// recordedData returns the data flags a machine file records, and the seed
// its data were drawn with. file names the machine file in errors.
func recordedData(m *machine.Machine, file string) (dataFlags, uint64, error) {
	rec := m.Training
	d := dataFlags{perClass: 50, size: 20, maxPixels: 1 << 24}
	missing := func(key string) error {
		return fmt.Errorf("%s: the machine file does not record %q in \"training\" (saved by an older mark1?), so its data cannot be made again", file, key)
	}
	bad := func(key string) error {
		return fmt.Errorf("%s: \"training\" has a bad %q: %q", file, key, rec[key])
	}
	integer := func(key string, dst *int) error {
		v, ok := rec[key]
		if !ok {
			return missing(key)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return bad(key)
		}
		*dst = n
		return nil
	}
	if rec == nil {
		return d, 0, missing(recSeed)
	}
	seedText, ok := rec[recSeed]
	if !ok {
		return d, 0, missing(recSeed)
	}
	seed, err := strconv.ParseUint(seedText, 10, 64)
	if err != nil {
		return d, 0, bad(recSeed)
	}
	switch {
	case rec[recDataPath] != "":
		d.data = rec[recDataPath]
	case rec[recTask] != "":
		d.task = rec[recTask]
		if err := integer(recN, &d.perClass); err != nil {
			return d, 0, err
		}
		if err := integer(recCardSize, &d.size); err != nil {
			return d, 0, err
		}
	default:
		return d, 0, missing(recTask + "\" or \"" + recDataPath)
	}
	if d.data != "" || rec[recTestPath] != "" {
		if err := integer(recMaxPixels, &d.maxPixels); err != nil {
			return d, 0, err
		}
	}
	if t := rec[recTestPath]; t != "" {
		d.test = t
	} else {
		v, ok := rec[recTestSplit]
		if !ok {
			return d, 0, missing(recTestSplit)
		}
		if d.testSplit, err = strconv.ParseFloat(v, 64); err != nil {
			return d, 0, bad(recTestSplit)
		}
	}
	return d, seed, nil
}

// loadRecorded makes the data a machine was trained on again and checks
// that it matches what the file says: the classes and the set sizes.
func loadRecorded(m *machine.Machine, file string) (train, test *images.Dataset, err error) {
	d, seed, err := recordedData(m, file)
	if err != nil {
		return nil, nil, err
	}
	train, test, err = d.load(seed)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: making its training data again: %w", file, err)
	}
	if err := sameClasses(&images.Dataset{Name: file, Classes: m.Classes}, train); err != nil {
		return nil, nil, fmt.Errorf("%s: the data changed since training: %w", file, err)
	}
	for _, c := range []struct {
		key string
		n   int
	}{{recTrainSize, train.Len()}, {recTestSize, test.Len()}} {
		if v, ok := m.Training[c.key]; ok && v != strconv.Itoa(c.n) {
			return nil, nil, fmt.Errorf("%s: the data changed since training: %s was %s cards, now %d", file, c.key, v, c.n)
		}
	}
	return train, test, nil
}

// recordedHardware returns the hardware rule a machine file records.
func recordedHardware(m *machine.Machine, file string) (learning.Hardware, error) {
	var h learning.Hardware
	var err error
	rec := m.Training
	for _, key := range []string{recRule, recValues, recPulses, recMaxEpochs} {
		if _, ok := rec[key]; !ok {
			return h, fmt.Errorf("%s: the machine file does not record %q in \"training\" (saved by an older mark1?)", file, key)
		}
	}
	if h.Rule, err = learning.ParseRule(rec[recRule]); err != nil {
		return h, fmt.Errorf("%s: %w", file, err)
	}
	if h.Values, err = learning.ParseValueSystem(rec[recValues]); err != nil {
		return h, fmt.Errorf("%s: %w", file, err)
	}
	if h.Pulses, err = strconv.Atoi(rec[recPulses]); err != nil || h.Pulses < 1 || h.Pulses > 1000 {
		return h, fmt.Errorf("%s: \"training\" has a bad %q: %q", file, recPulses, rec[recPulses])
	}
	if h.MaxEpochs, err = strconv.Atoi(rec[recMaxEpochs]); err != nil || h.MaxEpochs < 1 || h.MaxEpochs > 1_000_000 {
		return h, fmt.Errorf("%s: \"training\" has a bad %q: %q", file, recMaxEpochs, rec[recMaxEpochs])
	}
	return h, nil
}

// finished reports whether training m with h has nothing left to do: the
// last epoch converged, or the epoch limit is reached.
func finished(m *machine.Machine, h learning.Hardware) bool {
	n := len(m.History)
	if n == 0 {
		return false
	}
	last := m.History[n-1]
	switch {
	case n >= h.MaxEpochs:
		return true
	case h.Rule == learning.ErrorCorrection:
		return last.Mistakes == 0
	default:
		return last.Pr == 1
	}
}
