package dials_test

import (
	"fmt"
	"os"

	"mark1/compare"
	"mark1/dials"
	"mark1/images"
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

func ExampleSensitivity() {
	m := newMachine() // pot 0 (A-unit 0, R0) at +1, pot 1 at −0.21, the rest near 0
	d, err := images.Generate("leftright", 20, 20, 1)
	if err != nil {
		panic(err)
	}
	sens := dials.Sensitivity(m, m.Fit(d))
	u := m.Plugboard.Units[0]
	fmt.Printf("%d R-unit, %d photocells; at A-unit 0's first excitatory point %+.3f, first inhibitory point %+.3f\n",
		len(sens), len(sens[0]), sens[0][u.Excitatory[0]], sens[0][u.Inhibitory[0]])
	// Output:
	// 1 R-unit, 400 photocells; at A-unit 0's first excitatory point +0.200, first inhibitory point -0.075
}

func ExampleClassMeans() {
	m := newMachine()
	d, err := images.Generate("leftright", 20, 20, 1)
	if err != nil {
		panic(err)
	}
	for _, c := range dials.ClassMeans(m, m.Fit(d), machine.Labels(d)) {
		fmt.Printf("%s: %d cards, %d answered wrongly (untrained); lit at row 10: %.0f%% at column 4, %.0f%% at column 15\n",
			c.Class, c.Cards, c.Wrong, 100*c.Mean[10*20+4], 100*c.Mean[10*20+15])
	}
	// Output:
	// left: 20 cards, 20 answered wrongly (untrained); lit at row 10: 35% at column 4, 0% at column 15
	// right: 20 cards, 20 answered wrongly (untrained); lit at row 10: 0% at column 4, 40% at column 15
}

func ExampleNotDrawn() {
	runs := []dials.CompareRun{
		{Learner: "perceptron", Features: "pixels", Mistakes: []int{12, 3, 0}},
		{Learner: "svm", Features: "pixels", Why: "no objective per pass was recorded"},
		{Learner: "svm", Features: "association", Why: "no objective per pass was recorded"},
	}
	for _, s := range dials.NotDrawn(runs) {
		fmt.Println(s)
	}
	// Output:
	// svm (pixels, association): no objective per pass was recorded
}

// A comparison's learning curves: CompareReport draws each row's curve and
// names what it could not draw, here the SVM that recorded no objective
// and the P_g per epoch that only the hardware measures.
func ExampleCompareReport() {
	rep := &compare.Report{Data: "leftright", Train: 30, Test: 10, Rows: []compare.Row{
		{Learner: "hardware", Features: "association", Curve: []int{4, 1, 0}, PgCurve: []float64{0.6, 0.8, 0.9}},
		{Learner: "perceptron", Features: "pixels", Curve: []int{6, 2, 0}},
		{Learner: "svm", Features: "pixels"},
	}}
	d, notDrawn, err := dials.CompareReport(rep)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d != nil)
	for _, line := range notDrawn {
		fmt.Println(line)
	}
	// Output:
	// true
	// svm (pixels): its solver recorded no objective
	// P_g per epoch of perceptron, svm: not measured during training (P_g after training is in the table)
}
