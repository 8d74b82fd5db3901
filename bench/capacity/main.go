// Command capacity writes, for the default machine on the 1960 letters
// deck, each used R-unit's problem as its source-set sees it: the A-unit
// outputs of every card restricted to the R-unit's source-set, and the
// bit of the card's letter that R-unit must show. capacity.py decides by
// linear programming whether each such dichotomy is linearly separable
// through the origin (the R-unit has no bias: it lights for a positive sum
// of its active A-units' values), which is what the machine's rule needs.
//
//	go run ./bench/capacity --n 6 --seeds 1-5 [--source-sets fixed] | python3 bench/capacity/capacity.py
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"mark1/images"
	"mark1/machine"
	"mark1/response"
)

// problem is one R-unit's dichotomy.
type problem struct {
	Seed  uint64  `json:"seed"`
	RUnit int     `json:"r_unit"`
	Units int     `json:"units"` // A-units in its source-set
	X     [][]int `json:"x"`     // per card: the source-set's A-units that fire (indices within the set)
	Y     []int   `json:"y"`     // per card: +1 if the R-unit should light, −1 if not
}

func main() {
	n := flag.Int("n", 6, "cards per letter")
	from := flag.Uint64("from", 1, "first seed")
	to := flag.Uint64("to", 5, "last seed")
	sets := flag.String("source-sets", "used", "used or fixed")
	flag.Parse()
	if err := run(*n, *from, *to, *sets); err != nil {
		fmt.Fprintln(os.Stderr, "capacity:", err)
		os.Exit(1)
	}
}

func run(n int, from, to uint64, sets string) error {
	enc := json.NewEncoder(os.Stdout)
	for seed := from; seed <= to; seed++ {
		cfg, err := machine.Preset("mark1")
		if err != nil {
			return err
		}
		if cfg.Response.Sets, err = response.ParseSets(sets); err != nil {
			return err
		}
		seeds := machine.SeedsFrom(seed)
		// As mark1 train --task letters1960 --n N --test-split 0 --seed S.
		train, _, err := images.Source{Task: "letters1960", PerClass: n, Seed: seeds.Master}.Load()
		if err != nil {
			return err
		}
		m, err := machine.New(cfg, train.Classes, seeds, nil)
		if err != nil {
			return err
		}
		fields := m.Fit(train)
		var r machine.Response
		for u := range m.Layer.Used() {
			p := problem{Seed: seed, RUnit: u}
			index := map[int]int{}
			for _, in := range m.Layer.Inputs(u) {
				index[in.A] = len(index)
			}
			p.Units = len(index)
			for i, f := range fields {
				m.Present(&r, f, m.EvalNoise())
				x := []int{}
				for _, a := range r.Active {
					if k, ok := index[a]; ok {
						x = append(x, k)
					}
				}
				y := -1
				if m.Layer.Want(u, train.Samples[i].Label) {
					y = 1
				}
				p.X, p.Y = append(p.X, x), append(p.Y, y)
			}
			if err := enc.Encode(p); err != nil {
				return err
			}
		}
	}
	return nil
}
