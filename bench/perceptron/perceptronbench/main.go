// Command perceptronbench times the perceptron of package learning on a data
// set in LIBSVM format, for comparison with scikit-learn (see ../run.sh).
//
// Usage:
//
//	perceptronbench --data FILE [--epochs 5] [--repeat 3] [--seed 0] [--eta 1]
//
// It prints one line per measurement: the best of --repeat fits with one
// epoch, the best of --repeat fits with --epochs epochs, and the time per
// further epoch, (T(epochs) − T(1)) / (epochs − 1), which leaves out reading
// and checking the data.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/spf13/pflag"

	"mark1/learning"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "perceptronbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("perceptronbench", pflag.ContinueOnError)
	data := fs.String("data", "", "training data in LIBSVM format (labels 0..k−1)")
	epochs := fs.Int("epochs", 5, "epochs of the full fit")
	repeat := fs.Int("repeat", 3, "fits per measurement; the best time counts")
	seed := fs.Uint64("seed", 0, "seed of the presentation order")
	eta := fs.Float64("eta", 1, "step size ε")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the fits to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *data == "" || *epochs < 2 || *repeat < 1 {
		return errors.New("need --data, --epochs ≥ 2 and --repeat ≥ 1")
	}
	t0 := time.Now()
	d, err := readLibSVM(*data)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "go: read %d × %d, %d classes in %.2fs\n", len(d.X), len(d.X[0]), d.Classes, time.Since(t0).Seconds())
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fit := func(e int) (time.Duration, *learning.Result, error) {
		best := time.Duration(1<<63 - 1)
		var res *learning.Result
		for range *repeat {
			start := time.Now()
			r, err := learning.Perceptron{MaxEpochs: e, Step: *eta, Seed: *seed}.Fit(ctx, d, nil)
			if err != nil {
				return 0, nil, err
			}
			best, res = min(best, time.Since(start)), r
		}
		return best, res, nil
	}
	t1, r1, err := fit(1)
	if err != nil {
		return err
	}
	tn, rn, err := fit(*epochs)
	if err != nil {
		return err
	}
	errs := 0
	for i, x := range d.X {
		if rn.Model.Predict(x) != d.Y[i] {
			errs++
		}
	}
	fmt.Fprintf(stdout, "go: fit 1 epoch %.4fs (%d mistakes)\n", t1.Seconds(), r1.Updates)
	fmt.Fprintf(stdout, "go: fit %d epochs %.4fs, training accuracy %.4f\n", *epochs, tn.Seconds(), 1-float64(errs)/float64(len(d.X)))
	fmt.Fprintf(stdout, "go: per epoch %.4fs\n", (tn-t1).Seconds()/float64(*epochs-1))
	return nil
}

// readLibSVM reads "label index:value ..." lines (indices from 1) into dense
// rows as wide as the largest index; labels must be 0..k−1.
func readLibSVM(path string) (*learning.Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type entry struct {
		j int
		v float64
	}
	var rows [][]entry
	var labels []int
	dim, classes := 0, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		lab, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || lab < 0 || lab != float64(int(lab)) {
			return nil, fmt.Errorf("%s:%d: label %q is not a class index 0, 1, …", path, line, fields[0])
		}
		row := make([]entry, 0, len(fields)-1)
		for _, fv := range fields[1:] {
			js, vs, ok := strings.Cut(fv, ":")
			j, err1 := strconv.Atoi(js)
			v, err2 := strconv.ParseFloat(vs, 64)
			if !ok || err1 != nil || err2 != nil || j < 1 {
				return nil, fmt.Errorf("%s:%d: bad feature %q", path, line, fv)
			}
			row = append(row, entry{j - 1, v})
			dim = max(dim, j)
		}
		rows = append(rows, row)
		labels = append(labels, int(lab))
		classes = max(classes, int(lab)+1)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d := &learning.Data{X: make([][]float64, len(rows)), Y: labels, Classes: classes}
	flat := allocRows(len(rows) * dim)
	for i, row := range rows {
		x := flat[i*dim : (i+1)*dim : (i+1)*dim]
		for _, e := range row {
			x[e.j] = e.v
		}
		d.X[i] = x
	}
	return d, nil
}

// allocRows returns n zero float64s. Large blocks come from an anonymous
// mapping advised to use transparent huge pages, as NumPy does for its arrays
// (madvise(MADV_HUGEPAGE) from 4 MiB on): a perceptron epoch visits the rows
// in random order, and with 4 KiB pages every row costs a TLB miss. Where
// that fails, it falls back to the Go heap.
func allocRows(n int) []float64 {
	const minHuge = 4 << 20
	if n*8 < minHuge {
		return make([]float64, n)
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]float64, n)
	}
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), n)
}
