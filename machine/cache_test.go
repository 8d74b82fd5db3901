package machine_test

import (
	"bytes"
	"slices"
	"testing"

	"mark1/images"
	"mark1/machine"
)

// A session that keeps what each card lights and fires answers, corrects
// and records exactly as one that presents every fitted field through the
// retina and the plugboard: the same response to every card, the same
// pots, the same machine file.
func TestSeenCardsSameAsPresented(t *testing.T) {
	cases := []struct {
		name, preset, task string
		change             func(*machine.Config)
	}{
		{"mark1 letters", "mark1", "letters", nil},
		{"ideal shapes", "ideal", "shapes", nil},
		{"full with bias, gamma", "full", "e-f", nil},
		{"faulty retina and plugboard", "mark1", "shapes", func(c *machine.Config) {
			c.Faults = machine.Faults{DeadCells: 0.1, StuckCells: 0.05, BrokenWires: 0.1, DeadA: 0.1, StuckPots: 0.05}
		}},
		{"adaptive threshold", "mark1", "x-e", func(c *machine.Config) { c.Retina.Adaptive = true }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := images.Generate(tc.task, 12, 20, 3)
			if err != nil {
				t.Fatal(err)
			}
			tr, te := d.Split(0.25, 3)
			recipe := machine.Recipe{Stop: machine.EpochLimit, MaxEpochs: 4}
			if tc.preset == "full" {
				recipe.Values = machine.Gamma
			}
			var ms [2]*machine.Machine
			var ss [2]*machine.Session
			for k := range ms {
				cfg, err := machine.Preset(tc.preset)
				if err != nil {
					t.Fatal(err)
				}
				if tc.change != nil {
					tc.change(&cfg)
				}
				if ms[k], err = machine.New(cfg, d.Classes, machine.SeedsFrom(7), nil); err != nil {
					t.Fatal(err)
				}
				ss[k] = session(t, ms[k], recipe, ms[k].Fields(tr), ms[k].Fields(te))
			}
			if !machine.Cached(ss[0]) {
				t.Fatal("the session on a noiseless retina keeps nothing")
			}
			machine.ForgetSeen(ss[1])
			var rs [2]machine.Response
			cards := 0
			for !ss[0].Done() {
				var ps [2]machine.Presentation
				for k := range ss {
					if ps[k], err = ss[k].Step(&rs[k]); err != nil {
						t.Fatal(err)
					}
				}
				cards++
				if !samePresentation(ps[0], ps[1]) {
					t.Fatalf("card %d: cached %+v, presented %+v", cards, ps[0], ps[1])
				}
				if !slices.Equal(rs[0].S, rs[1].S) || !slices.Equal(rs[0].Active, rs[1].Active) ||
					!slices.Equal(rs[0].Sums, rs[1].Sums) || rs[0].Class != rs[1].Class {
					t.Fatalf("card %d: cached response %+v, presented %+v", cards, rs[0], rs[1])
				}
				if cards == 30 { // the trainer forces a card in between
					for k := range ss {
						ss[k].Force(&rs[k], ms[k].Fields(te).X[0], 1)
					}
				}
			}
			if ss[1].Done() != ss[0].Done() {
				t.Fatal("the sessions ended apart")
			}
			var files [2]bytes.Buffer
			for k := range ms {
				if err := ms[k].Encode(&files[k]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(files[0].Bytes(), files[1].Bytes()) {
				t.Errorf("after %d cards the machine files differ", cards)
			}
			if h := ms[0].History; len(h) != 4 || h[3].Pg == nil {
				t.Errorf("history %+v: want 4 epochs with P_g", h)
			}
		})
	}
}

// A retina with reading noise gives a card a different field at each
// presentation: nothing is kept.
func TestNoisyRetinaNotCached(t *testing.T) {
	m, tr, te := setup(t, "worn", "shapes", 10, 1)
	if machine.Cached(session(t, m, machine.Recipe{}, tr, te)) {
		t.Error("the worn machine's noisy retina was cached")
	}
}

func samePresentation(a, b machine.Presentation) bool {
	ga, gb := a.Record.Pg, b.Record.Pg
	a.Record.Pg, b.Record.Pg = nil, nil
	return a == b && (ga == nil) == (gb == nil) && (ga == nil || *ga == *gb)
}
