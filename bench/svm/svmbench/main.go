// Command svmbench generates retina-like data sets in LIBSVM's text format
// and trains mark1's SVMs on such files, printing what the comparison with
// LIBSVM's svm-train and LIBLINEAR's train needs: seconds, dual objective,
// support vectors and accuracy. bench/svm/run.sh drives it.
//
//	svmbench gen -n 10000 -classes 2 -seed 1 -o train.libsvm
//	svmbench train -solver smo -kernel gaussian:sigma=4 -c 1 -test test.libsvm train.libsvm
//	svmbench train -solver linear -loss hinge -c 1 -eps 0.1 train.libsvm
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"mark1/learning"
	"mark1/learning/kernel"
	"mark1/learning/svm"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "svmbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: svmbench gen|train [flags]")
	}
	switch args[0] {
	case "gen":
		return gen(args[1:], stdout, stderr)
	case "train":
		return train(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown command %q (want gen or train)", args[0])
}

// gen writes a retina-like data set: 20×20 binary pictures of shapes, each
// class a few prototypes made of filled rectangles, shown shifted by up to
// three cells and with photocells flipped at random.
func gen(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("gen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 10000, "number of pictures")
	classes := fs.Int("classes", 2, "number of classes")
	side := fs.Int("side", 20, "retina side (features = side²)")
	protos := fs.Int("protos", 4, "prototypes per class")
	noise := fs.Float64("noise", 0.15, "probability of flipping a photocell")
	shift := fs.Int("shift", 3, "largest shift in cells")
	seed := fs.Uint64("seed", 1, "seed of the prototypes")
	sample := fs.Uint64("sample-seed", 0, "seed of the samples (default: seed+1)")
	grey := fs.Bool("grey", false, "grey levels: lit photocells read a value in (0.5, 1] instead of 1")
	out := fs.StringP("output", "o", "", "output file (default stdout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *classes < 2 || *side < 4 || *protos < 1 {
		return errors.New("gen: need n ≥ 1, classes ≥ 2, side ≥ 4, protos ≥ 1")
	}
	if *sample == 0 {
		*sample = *seed + 1
	}
	S := *side
	prng := rand.New(rand.NewPCG(*seed, 7))
	proto := make([][][]bool, *classes)
	for c := range proto {
		for range *protos {
			p := make([]bool, S*S)
			for range 3 {
				w, h := 2+prng.IntN(S/3), 2+prng.IntN(S/3)
				x0, y0 := prng.IntN(S-w), prng.IntN(S-h)
				for y := y0; y < y0+h; y++ {
					for x := x0; x < x0+w; x++ {
						p[y*S+x] = true
					}
				}
			}
			proto[c] = append(proto[c], p)
		}
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	rng := rand.New(rand.NewPCG(*sample, 11))
	for i := range *n {
		c := i % *classes
		p := proto[c][rng.IntN(*protos)]
		dx, dy := rng.IntN(2**shift+1)-*shift, rng.IntN(2**shift+1)-*shift
		label := c
		if *classes == 2 {
			label = 1 - 2*c // +1, −1 with +1 first, as LIBSVM likes
		}
		bw.WriteString(strconv.Itoa(label))
		for y := range S {
			for x := range S {
				sx, sy := x-dx, y-dy
				on := sx >= 0 && sx < S && sy >= 0 && sy < S && p[sy*S+sx]
				if rng.Float64() < *noise {
					on = !on
				}
				if on {
					bw.WriteString(" ")
					bw.WriteString(strconv.Itoa(y*S + x + 1))
					if *grey {
						bw.WriteString(":" + strconv.FormatFloat(1-rng.Float64()/2, 'f', 3, 64))
					} else {
						bw.WriteString(":1")
					}
				}
			}
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && *out != "" {
		return f.Close()
	}
	return nil
}

// data is a file read in LIBSVM's format: its non-zeros in CSR arrays,
// never written out densely (a file may have 50,000 features).
type data struct {
	start  []int
	idx    []int32
	val    []float64
	labels []int
}

// rows returns the data as learning rows of dim features: sparse, or with
// compact, in their most compact form (bit sets, grey bytes or dense rows
// when those are smaller).
func (d *data) rows(dim int, compact bool) (learning.Rows, error) {
	s, err := learning.NewSparse(dim, d.start, d.idx, d.val)
	if err != nil || !compact {
		return s, err
	}
	return s.Compact32(), nil
}

func readLibsvm(path string) (*data, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	// A first pass counts the lines and the features (colons), so that the
	// flat arrays are allocated once at their size; the second reads one
	// line at a time, so that the file is never held in memory whole.
	lines, colons := 0, 0
	chunk := make([]byte, 1<<20)
	for {
		n, err := f.Read(chunk)
		lines += bytes.Count(chunk[:n], []byte{'\n'})
		colons += bytes.Count(chunk[:n], []byte{':'})
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %v", path, err)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, 0, fmt.Errorf("%s: %v", path, err)
	}
	br := bufio.NewReaderSize(f, 1<<20)
	idx := make([]int32, 0, colons)
	val := make([]float64, 0, colons)
	start := make([]int, 0, lines+2)
	labels := make([]int, 0, lines+1)
	dim := 0
	var long []byte
	for line := 1; ; line++ {
		l, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line longer than the buffer
			long = append(long[:0], l...)
			for err == bufio.ErrBufferFull {
				l, err = br.ReadSlice('\n')
				long = append(long, l...)
			}
			l = long
		}
		if err != nil && err != io.EOF {
			return nil, 0, fmt.Errorf("%s: %v", path, err)
		}
		if len(l) == 0 && err == io.EOF {
			break
		}
		l = bytes.TrimRight(l, "\r\n")
		tok := func() []byte { // the next space-separated token of l
			for len(l) > 0 && (l[0] == ' ' || l[0] == '\t' || l[0] == '\r') {
				l = l[1:]
			}
			k := 0
			for k < len(l) && l[k] != ' ' && l[k] != '\t' && l[k] != '\r' {
				k++
			}
			t := l[:k]
			l = l[k:]
			return t
		}
		t := tok()
		if len(t) == 0 {
			continue
		}
		lab, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return nil, 0, fmt.Errorf("%s:%d: label %q: %v", path, line, t, err)
		}
		labels = append(labels, int(lab))
		start = append(start, len(idx))
		for t = tok(); len(t) > 0; t = tok() {
			c := bytes.IndexByte(t, ':')
			j := 0
			for _, ch := range t[:max(c, 0)] {
				if ch < '0' || ch > '9' || j > 1<<30 {
					j = -1
					break
				}
				j = 10*j + int(ch-'0')
			}
			if c <= 0 || j < 1 {
				return nil, 0, fmt.Errorf("%s:%d: bad feature %q", path, line, t)
			}
			x := 1.0
			if v := t[c+1:]; len(v) != 1 || v[0] != '1' {
				if x, err = strconv.ParseFloat(string(v), 64); err != nil {
					return nil, 0, fmt.Errorf("%s:%d: bad feature %q", path, line, t)
				}
			}
			idx = append(idx, int32(j-1))
			val = append(val, x)
			dim = max(dim, j)
		}
	}
	start = append(start, len(idx))
	return &data{start: start, idx: idx, val: val, labels: labels}, dim, nil
}

func train(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	start := time.Now()
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	solver := fs.String("solver", "smo", "smo (kernel SVM) or linear (dual coordinate descent)")
	kspec := fs.String("kernel", "gaussian:sigma=1", "kernel for smo, in kernel.Parse form")
	c := fs.Float64("c", 1, "C")
	eps := fs.Float64("eps", 0, "tolerance (default: 1e-3 smo, 0.1 linear)")
	cache := fs.Float64("m", 100, "kernel cache in MB (smo)")
	noShrink := fs.Bool("no-shrinking", false, "turn shrinking off")
	loss := fs.String("loss", "hinge", "linear loss: hinge or squared-hinge")
	bias := fs.Float64("B", 1, "bias feature value (linear; < 0: none)")
	seed := fs.Uint64("seed", 1, "seed of the linear solver's permutations")
	test := fs.String("test", "", "test file for accuracy")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the training to this file")
	gamma := fs.Float64("gamma", 0, "RBF kernel exp(−gamma‖x−z‖²) for smo (overrides --kernel)")
	maxIter := fs.Int("max-iter", 0, "iteration limit of each SMO problem (0: LIBSVM's)")
	epochs := fs.Int("epochs", 100, "epochs of the perceptron")
	threads := fs.Int("threads", 0, "threads (0: all cores)")
	trainAcc := fs.Bool("train-acc", true, "also measure the accuracy on the training rows")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("train: want one training file")
	}
	tr, dim, err := readLibsvm(fs.Arg(0))
	if err != nil {
		return err
	}
	if _, err := tr.rows(dim, false); err != nil {
		return fmt.Errorf("%s: %v", fs.Arg(0), err)
	}
	// Classes in order of first appearance, as LIBSVM.
	class := map[int]int{}
	var order []int
	toData := func(d *data, add bool) *learning.Data {
		r, err := d.rows(dim, true)
		if err != nil {
			panic(err) // readLibsvm made them
		}
		ld := &learning.Data{Rows: r, Y: make([]int, len(d.labels))}
		for i, l := range d.labels {
			cl, ok := class[l]
			if !ok {
				if !add {
					cl = -1
				} else {
					cl = len(order)
					class[l] = cl
					order = append(order, l)
				}
			}
			ld.Y[i] = cl
		}
		return ld
	}
	trd := toData(tr, true)
	trd.Classes = len(order)
	tr = nil
	debug.FreeOSMemory() // the parser's garbage is not the learner's memory
	parsed := time.Now()
	cpuParsed := cpuSeconds()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer f.Close()
	}

	var res *learning.Result
	var objs []string
	switch *solver {
	case "smo":
		k, err := kernel.ParseKernel(*kspec)
		if err != nil {
			return err
		}
		if *gamma > 0 {
			k = kernel.Gaussian{Sigma: math.Sqrt(1 / (2 * *gamma))}
		}
		l := svm.Kernel{Kernel: k, Settings: svm.Settings{C: *c, Eps: *eps, CacheMB: *cache, NoShrinking: *noShrink, MaxIter: *maxIter, Threads: *threads}}
		if res, err = l.Fit(ctx, trd, nil); err != nil {
			return err
		}
		for _, m := range res.Model.(*svm.KernelModel).Machines {
			objs = append(objs, strconv.FormatFloat(m.Obj, 'f', 6, 64))
		}
	case "linear":
		s := svm.LinearSettings{C: *c, Eps: *eps, Bias: *bias, Seed: *seed, NoShrinking: *noShrink}
		if *bias == 0 {
			s.Bias = -1
		}
		switch *loss {
		case "hinge":
		case "squared-hinge":
			s.Loss = svm.SquaredHinge
		default:
			return fmt.Errorf("unknown loss %q", *loss)
		}
		l := svm.Linear{Settings: s}
		if res, err = l.Fit(ctx, trd, nil); err != nil {
			return err
		}
		for _, m := range res.Model.(*svm.LinearModel).Machines {
			objs = append(objs, strconv.FormatFloat(m.Obj, 'f', 6, 64))
		}
	case "kernel-perceptron":
		if *gamma <= 0 {
			return errors.New("kernel-perceptron: give --gamma")
		}
		l := learning.KernelPerceptron{Kernel: kernel.Gaussian{Sigma: math.Sqrt(1 / (2 * *gamma))}, MaxEpochs: *epochs, Seed: *seed}
		if res, err = l.Fit(ctx, trd, nil); err != nil {
			return err
		}
	case "perceptron":
		l := learning.Perceptron{MaxEpochs: *epochs, Seed: *seed}
		if res, err = l.Fit(ctx, trd, nil); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown solver %q", *solver)
	}
	trained := time.Now()
	cpu := cpuSeconds()
	if *cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	acc := func(d *learning.Data) float64 {
		n := 0
		if km, ok := res.Model.(*svm.KernelModel); ok {
			for i, c := range km.PredictRows(nil, d.Rows, *threads) {
				if c == d.Y[i] {
					n++
				}
			}
			return 100 * float64(n) / float64(d.Len())
		}
		var x []float64
		for i := range d.Len() {
			x = d.Rows.Row(x, i)
			if res.Model.Predict(x) == d.Y[i] {
				n++
			}
		}
		return 100 * float64(n) / float64(d.Len())
	}
	trAcc := -1.0
	if *trainAcc {
		trAcc = acc(trd)
	}
	teAcc, predS, predCPU := -1.0, 0.0, 0.0
	if *test != "" { // read after the fit, so that its memory is not the fit's
		if !*trainAcc {
			trd = nil
		}
		te, tdim, err := readLibsvm(*test)
		if err != nil {
			return err
		}
		if tdim > dim {
			return fmt.Errorf("%s: feature %d, but the training file has %d features", *test, tdim, dim)
		}
		if _, err := te.rows(dim, false); err != nil {
			return fmt.Errorf("%s: %v", *test, err)
		}
		ted := toData(te, false)
		predStart, cpuPred := time.Now(), cpuSeconds()
		teAcc = acc(ted)
		predS, predCPU = time.Since(predStart).Seconds(), cpuSeconds()-cpuPred
	}

	var nsv, nbsv int
	if m, ok := res.Model.(learning.SupportVectored); ok {
		nsv, nbsv = m.SupportVectors()
	}
	fmt.Fprintf(stdout, "train_cpu=%.3f predict_cpu=%.3f predict_s=%.3f read_s=%.3f train_s=%.3f total_s=%.3f cpu_s=%.3f obj=%s nSV=%d nBSV=%d iter=%d train_acc=%.2f test_acc=%.2f status=%q\n",
		cpu-cpuParsed, predCPU, predS, parsed.Sub(start).Seconds(), trained.Sub(parsed).Seconds(), trained.Sub(start).Seconds(), cpu,
		strings.Join(objs, ","), nsv, nbsv, res.Epochs, trAcc, teAcc, res.Status)
	return nil
}

// cpuSeconds returns the user and system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
