// Command spontaneous measures the Mark I's spontaneous learning (the
// Operators' Manual's third mode; RT58's Class C and C′ perceptrons): a
// machine with one R-unit per class is shown a task's cards with no labels,
// and the source-set of whatever response it gives gains (monovalent; a tie
// is broken at random from the recorded training noise stream). After the
// run every card, training and held-out, is shown with the pots frozen, and
// the responses are set against the hidden labels:
//
//   - majority: the share of the cards given the commonest response (1 when
//     the machine gives one response to everything: RT58's Class C
//     terminal state);
//   - purity: Σ over responses of the commonest label among the cards given
//     it, over all cards (0.5 for one response to a balanced two-class
//     deck, 1 for responses that follow the hidden classes, either way
//     round); cards that tie (no response) count as a cluster of their own.
//
// Each row is a task, a preset and a decay rate (0 = Class C) over seeds;
// means with Student-t 95% intervals over the seeds.
//
//	go run ./bench/spontaneous [--seeds 10] [--epochs 20] [--n 40]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"mark1/images"
	"mark1/learning"
	"mark1/machine"
	"mark1/response"
)

func main() {
	seeds := flag.Int("seeds", 10, "master seeds 1…N")
	epochs := flag.Int("epochs", 20, "epochs of spontaneous learning (every card once each)")
	n := flag.Int("n", 40, "cards per class (a quarter held out)")
	tasks := flag.String("tasks", "leftright,square-circle", "comma-separated built-in tasks")
	presets := flag.String("presets", "mark1,ideal", "comma-separated machine presets")
	decays := flag.String("decays", "0,0.0005,0.002,0.01,0.05", "comma-separated decay rates")
	values := flag.String("values", "alpha,gamma", "comma-separated value systems")
	flag.Parse()
	if err := run(os.Stdout, *seeds, *epochs, *n, strings.Split(*tasks, ","), strings.Split(*presets, ","), strings.Split(*values, ","), strings.Split(*decays, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "spontaneous:", err)
		os.Exit(1)
	}
}

func run(w *os.File, seeds, epochs, n int, tasks, presets, values, decays []string) error {
	fmt.Fprintf(w, "| task | preset | values | decay | one response to all (seeds) | commonest response's share | cluster purity (95%% CI) | pots at a stop |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|\n")
	for _, task := range tasks {
		for _, preset := range presets {
			for _, vs := range values {
				vsys, err := machine.ParseValueSystem(vs)
				if err != nil {
					return err
				}
				for _, ds := range decays {
					var d float64
					if _, err := fmt.Sscan(ds, &d); err != nil {
						return fmt.Errorf("decay %q: %w", ds, err)
					}
					var major, purity, stops []float64
					collapsed := 0
					for seed := 1; seed <= seeds; seed++ {
						r, err := once(task, preset, vsys, d, uint64(seed), epochs, n)
						if err != nil {
							return err
						}
						major, purity, stops = append(major, r.major), append(purity, r.purity), append(stops, r.atStop)
						if r.major == 1 {
							collapsed++
						}
					}
					mm, _, _ := learning.MeanCI(major)
					pm, plo, phi := learning.MeanCI(purity)
					sm, _, _ := learning.MeanCI(stops)
					fmt.Fprintf(w, "| %s | %s | %s | %g | %d/%d | %.3f | %.3f (%.3f–%.3f) | %.0f%% |\n",
						task, preset, vsys, d, collapsed, seeds, mm, pm, plo, phi, 100*sm)
				}
			}
		}
	}
	return nil
}

type result struct{ major, purity, atStop float64 }

// once runs one machine and measures it.
func once(task, preset string, values machine.ValueSystem, decay float64, seed uint64, epochs, n int) (result, error) {
	cfg, err := machine.Preset(preset)
	if err != nil {
		return result{}, err
	}
	cfg.Response.Code = response.OnePerClass
	seeds := machine.SeedsFrom(seed)
	src := images.Source{Task: task, PerClass: n, TestSplit: 0.25, Seed: seeds.Master}
	train, test, err := src.Load()
	if err != nil {
		return result{}, err
	}
	m, err := machine.New(cfg, train.Classes, seeds, nil)
	if err != nil {
		return result{}, err
	}
	rec := machine.Recipe{Data: src, Rule: machine.Spontaneous, Values: values, Decay: decay, MaxEpochs: epochs}
	tr, te := m.Fields(train), m.Fields(test)
	s, err := machine.NewSession(m, rec, tr, te)
	if err != nil {
		return result{}, err
	}
	if _, err := s.Run(context.Background(), nil); err != nil {
		return result{}, err
	}
	k := len(m.Classes)
	counts := make([][]int, k+1) // [response or k for none][label]
	for i := range counts {
		counts[i] = make([]int, k)
	}
	var r machine.Response
	noise := m.EvalNoise()
	total := 0
	for _, f := range []machine.Fields{tr, te} {
		for i, x := range f.X {
			m.Present(&r, x, noise)
			c := r.Class
			if c < 0 {
				c = k
			}
			counts[c][f.Y[i]]++
			total++
		}
	}
	var res result
	for _, row := range counts {
		sum, best := 0, 0
		for _, v := range row {
			sum += v
			best = max(best, v)
		}
		res.major = max(res.major, float64(sum)/float64(total))
		res.purity += float64(best) / float64(total)
	}
	for i := range m.Bank.Len() {
		if m.Bank.AtStop(i) {
			res.atStop++
		}
	}
	res.atStop /= float64(m.Bank.Len())
	return res, nil
}
