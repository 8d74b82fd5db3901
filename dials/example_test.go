package dials_test

import (
	"fmt"
	"os"

	"mark1/dials"
	"mark1/machine"
)

// newMachine builds an untrained Mark I for two classes and turns a few
// pots by hand.
func newMachine() *machine.Machine {
	cfg, _ := machine.Preset("mark1")
	m, err := machine.New(cfg, []string{"left", "right"}, machine.SeedsFrom(1), nil)
	if err != nil {
		panic(err)
	}
	for range 60 {
		m.Bank.Pulse(0, 1) // up against the upper stop
	}
	m.Bank.Pulse(1, -10)
	return m
}

func ExamplePots() {
	m := newMachine()
	pots := dials.Pots(m)
	dials.SortPots(pots, "abs", true)
	dials.WriteTable(os.Stdout, pots[:2])
	// Output:
	//    pot  A-unit  R-unit   position      value   range   stop
	//      0       0       0    +1.0000    +1.0000  100.0%  high
	//      1       1       0    -0.2141    -0.2141   39.3%
}

func ExampleSummarize() {
	s := dials.Summarize(newMachine(), 4)
	fmt.Printf("%d pots, %d saturated, histogram %v, %d pulses\n", s.Pots, s.Saturated(), s.Histogram.Counts, s.Pulses)
	// Output:
	// 512 pots, 1 saturated, histogram [0 1 510 1], 70 pulses
}

func ExamplePanel() {
	d := dials.Panel(newMachine(), dials.PanelOptions{})
	w, h := d.Size()
	fmt.Println(w, h)
	// d.WritePNG(f) or d.WriteSVG(f) writes it out.
	// Output:
	// 1382 866
}

func ExampleWeightMap() {
	m := newMachine()
	w := dials.WeightMap(m, 0)
	u := m.Plugboard.Units[0]
	fmt.Printf("%d S-units; at A-unit 0's first excitatory point: %+.2f\n", len(w), w[u.Excitatory[0]])
	// Output:
	// 400 S-units; at A-unit 0's first excitatory point: +1.00
}
