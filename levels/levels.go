// Package levels measures what the Mark I's motor-driven pots cost in
// generalisation: for each task, P_g of the machine with ideal pots
// (unbounded, continuous, noiseless: the textbook perceptron) against the
// mark1 preset's pots, and, one property at a time, how coarse or noisy
// the pots may be before P_g falls more than a point below the ideal
// machine's: the fewest readable levels (between end stops at ±1), the
// largest relative step noise and the largest backlash. Every machine is
// trained by error correction on the same seeded cards and wiring as its
// ideal twin, so differences are paired, seed by seed.
package levels

import (
	"context"
	"fmt"
	"mark1/internal/base/param"
	"runtime"
	"strconv"
	"sync"

	"mark1/images"
	"mark1/learning"
	"mark1/machine"
	"mark1/motors"
)

// Options say what to measure.
type Options struct {
	Tasks    []string // built-in tasks; nil means DefaultTasks
	Seeds    int      // master seeds 1…Seeds; 0 means 10
	PerClass int      // cards per class (two fifths held out); 0 means 50
	Epochs   int      // epoch limit; 0 means 50
	Threads  int      // machines trained at once; 0 means all cores (the results do not depend on it)
	// Tolerance is how far below the ideal machine's mean P_g a setting
	// may fall and still count as good enough; 0 means 0.01 (one point).
	Tolerance float64
}

// DefaultTasks are the tasks measured by default: the built-in picture
// tasks of two classes and more (letters1 is left out: its held-out cards
// copy its training cards).
func DefaultTasks() []string {
	return []string{"leftright", "shapes", "square-circle", "square-diamond", "e-f", "x-e", "letters", "letters1960"}
}

// Levels, Noises and Backlashes are the settings swept.
func Levels() []int            { return []int{3, 5, 9, 17, 33, 65, 129, 257} }
func Noises() []float64        { return []float64{0.05, 0.1, 0.2, 0.3, 0.5, 0.8} }
func Backlashes() []float64    { return []float64{0.005, 0.01, 0.02, 0.05, 0.1} }
func defaultStep() float64     { return 0.02 }
func defaultLimit() float64    { return 1 }
func (o Options) tol() float64 { return orF(o.Tolerance, 0.01) }

func orF(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

func orI(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// Setting is one pot configuration's result on a task: P_g's mean over
// the seeds, and the paired difference from the ideal machine with its
// 95% interval.
type Setting struct {
	Name      string  `json:"name"`
	Value     float64 `json:"value"`
	Pg        float64 `json:"p_g"`
	PgLow     float64 `json:"p_g_ci_low"`
	PgHigh    float64 `json:"p_g_ci_high"`
	Diff      float64 `json:"diff"` // mean of P_g − ideal P_g over the seeds
	DiffLow   float64 `json:"diff_ci_low"`
	DiffHigh  float64 `json:"diff_ci_high"`
	WithinTol bool    `json:"within_tolerance"` // Diff ≥ −Tolerance
}

// Row is one task.
type Row struct {
	Task    string  `json:"task"`
	Classes int     `json:"classes"`
	Ideal   Setting `json:"ideal"`
	Mark1   Setting `json:"mark1"`
	// Stops is ideal pots with the end stops of the levels sweep alone
	// (±Limit, continuous): what the stops cost before any quantization.
	Stops    Setting   `json:"end_stops"`
	Levels   []Setting `json:"levels"`
	Noise    []Setting `json:"step_noise"`
	Backlash []Setting `json:"backlash"`
	// MinLevels is the fewest levels from which every finer setting swept
	// stays within the tolerance (0 if even the finest does not);
	// MaxNoise and MaxBacklash the largest values up to which every
	// smaller one does (0 if even the smallest does not).
	MinLevels   int     `json:"min_levels"`
	MaxNoise    float64 `json:"max_step_noise"`
	MaxBacklash float64 `json:"max_backlash"`
}

// Report is the whole measurement.
type Report struct {
	Seeds     int     `json:"seeds"`
	PerClass  int     `json:"per_class"`
	Epochs    int     `json:"epochs"`
	Tolerance float64 `json:"tolerance"`
	Step      float64 `json:"step"`
	Limit     float64 `json:"limit"`
	Rows      []Row   `json:"rows"`
}

// config is a named pot configuration applied to the mark1 preset's
// machine.
type config struct {
	kind  string // "ideal", "mark1", "levels", "noise", "backlash"
	value float64
}

func (c config) motors(mark1 motors.Config) motors.Config {
	ideal := motors.Config{Step: mark1.Step, PulseSeconds: mark1.PulseSeconds}
	switch c.kind {
	case "mark1":
		return mark1
	case "stops":
		ideal.Limit = defaultLimit()
	case "levels":
		ideal.Limit, ideal.Levels = defaultLimit(), int(c.value)
	case "noise":
		ideal.StepNoise = c.value
	case "backlash":
		ideal.Backlash = c.value
	}
	return ideal
}

// Validate checks o: a *param.FieldError naming the setting (seeds,
// per_class, epochs, tasks) for one out of range. Zero fields take their
// defaults first.
func (o Options) Validate() error {
	seeds, per, epochs := orI(o.Seeds, 10), orI(o.PerClass, 50), orI(o.Epochs, 50)
	switch {
	case seeds < 2 || seeds > 1000:
		return param.Errorf("seeds", seeds, "[2, 1000]")
	case per < 2 || per > 10000:
		return param.Errorf("per_class", per, "[2, 10000]")
	case epochs < 1 || epochs > 100000:
		return param.Errorf("epochs", epochs, "[1, 100000]")
	}
	for _, t := range o.Tasks {
		if _, ok := images.LookupTask(t); !ok {
			return param.Errorf("tasks", strconv.Quote(t), "built-in tasks (mark1 tasks)")
		}
	}
	return nil
}

// Measure runs every task, setting and seed.
func Measure(ctx context.Context, o Options) (*Report, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	tasks := o.Tasks
	if tasks == nil {
		tasks = DefaultTasks()
	}
	seeds, per, epochs := orI(o.Seeds, 10), orI(o.PerClass, 50), orI(o.Epochs, 50)
	configs := []config{{kind: "ideal"}, {kind: "mark1"}, {kind: "stops"}}
	for _, l := range Levels() {
		configs = append(configs, config{"levels", float64(l)})
	}
	for _, v := range Noises() {
		configs = append(configs, config{"noise", v})
	}
	for _, v := range Backlashes() {
		configs = append(configs, config{"backlash", v})
	}
	type job struct{ task, cfg, seed int }
	var jobs []job
	for t := range tasks {
		for c := range configs {
			for s := range seeds {
				jobs = append(jobs, job{t, c, s})
			}
		}
	}
	pg := make([]float64, len(jobs)) // indexed by job: the same whatever the thread count
	threads := orI(o.Threads, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	errs := make([]error, threads)
	next := make(chan int)
	for w := range threads {
		wg.Go(func() {
			for i := range next {
				j := jobs[i]
				if errs[w] != nil || ctx.Err() != nil {
					continue
				}
				pg[i], errs[w] = once(ctx, tasks[j.task], configs[j.cfg], uint64(j.seed+1), per, epochs)
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	rep := &Report{Seeds: seeds, PerClass: per, Epochs: epochs, Tolerance: o.tol(), Step: defaultStep(), Limit: defaultLimit()}
	at := func(t, c int) []float64 {
		i := (t*len(configs) + c) * seeds
		return pg[i : i+seeds]
	}
	for t, task := range tasks {
		info, _ := images.LookupTask(task)
		row := Row{Task: task, Classes: len(info.Classes)}
		ideal := at(t, 0)
		for c, cfg := range configs {
			v := at(t, c)
			diff := make([]float64, seeds)
			for s := range v {
				diff[s] = v[s] - ideal[s]
			}
			st := Setting{Name: cfg.kind, Value: cfg.value}
			st.Pg, st.PgLow, st.PgHigh = learning.MeanCI(v)
			st.Diff, st.DiffLow, st.DiffHigh = learning.MeanCI(diff)
			st.WithinTol = st.Diff >= -rep.Tolerance
			switch cfg.kind {
			case "ideal":
				st.Diff, st.DiffLow, st.DiffHigh = 0, 0, 0
				row.Ideal = st
			case "mark1":
				row.Mark1 = st
			case "stops":
				row.Stops = st
			case "levels":
				row.Levels = append(row.Levels, st)
			case "noise":
				row.Noise = append(row.Noise, st)
			case "backlash":
				row.Backlash = append(row.Backlash, st)
			}
		}
		// Fewest levels: the coarsest setting from which all finer ones hold.
		for i := len(row.Levels) - 1; i >= 0 && row.Levels[i].WithinTol; i-- {
			row.MinLevels = int(row.Levels[i].Value)
		}
		for _, st := range row.Noise {
			if !st.WithinTol {
				break
			}
			row.MaxNoise = st.Value
		}
		for _, st := range row.Backlash {
			if !st.WithinTol {
				break
			}
			row.MaxBacklash = st.Value
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}

// once trains one machine by error correction and returns its P_g.
func once(ctx context.Context, task string, c config, seed uint64, per, epochs int) (float64, error) {
	cfg, err := machine.Preset("mark1")
	if err != nil {
		return 0, err
	}
	cfg.Motors = c.motors(cfg.Motors)
	seeds := machine.SeedsFrom(seed)
	src := images.Source{Task: task, PerClass: per, TestSplit: 0.4, Seed: seeds.Master}
	train, test, err := src.Load()
	if err != nil {
		return 0, err
	}
	m, err := machine.New(cfg, train.Classes, seeds, nil)
	if err != nil {
		return 0, err
	}
	tr, te := m.Fields(train), m.Fields(test)
	s, err := machine.NewSession(m, machine.Recipe{Data: src, MaxEpochs: epochs}, tr, te)
	if err != nil {
		return 0, fmt.Errorf("levels: %s: %w", task, err)
	}
	if _, err := s.Run(ctx, nil); err != nil {
		return 0, err
	}
	return m.Accuracy(te.X, te.Y), nil
}
