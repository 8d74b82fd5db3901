package dials_test

import (
	"fmt"
	"os"

	"mark1/dials"
	"mark1/images"
	"mark1/machine"
)

// The table mark1 dials prints: the pots sorted, the first few kept, and
// the summary beside them.
func ExampleTable() {
	sum, pots, err := dials.Table(newMachine(), dials.TableOptions{Sort: "abs", Desc: true, Top: 2, Bins: 4})
	fmt.Println(sum.Pots, len(pots), err)
	dials.WriteTable(os.Stdout, pots)
	_, _, err = dials.Table(newMachine(), dials.TableOptions{Sort: "colour"})
	fmt.Println(err != nil)
	// Output:
	// 512 2 <nil>
	//    pot  A-unit  R-unit   position      value   range   stop
	//      0       0       0    +1.0000    +1.0000  100.0%  high
	//      1       1       0    -0.2141    -0.2141   39.3%
	// true
}

// The cards a view averages over: sensitivity the training cards, means
// the held-out ones when there are any, unless a part is named.
func ExampleCardsFor() {
	train, _ := images.Generate("leftright", 4, 20, 1)
	test, _ := images.Generate("leftright", 1, 20, 2)
	empty := &images.Dataset{}
	fmt.Println(dials.CardsFor("sensitivity", "", train, test).Len())
	fmt.Println(dials.CardsFor("means", "", train, test).Len())
	fmt.Println(dials.CardsFor("means", "", train, empty).Len())
	fmt.Println(dials.CardsFor("sensitivity", "held-out", train, test).Len())
	// Output:
	// 8
	// 2
	// 8
	// 2
}

// A training run records the pots after every epoch through the hook
// Record returns; LoadRecording reads the frames back for Animate.
func ExampleRecord() {
	dir, _ := os.MkdirTemp("", "record")
	defer os.RemoveAll(dir)
	m := newMachine()
	hook, err := dials.Record(dir, m)
	if err != nil {
		fmt.Println(err)
		return
	}
	hook(machine.Epoch{Epoch: 1})
	_, frames, err := dials.LoadRecording(dir, 0)
	fmt.Println(len(frames), frames[1].Epoch, err)
	// Output:
	// 2 1 <nil>
}

// A view's name and the part of the cards it is drawn with are checked
// before any machine is read.
func ExampleCheckView() {
	fmt.Println(dials.CheckView("means", "held-out"))
	fmt.Println(dials.CheckView("dials", ""))
	fmt.Println(dials.CheckView("sensitivity", "test"))
	// Output:
	// <nil>
	// view "dials": want panel, weights, sensitivity, means, retina or curves
	// cards "test": want train or held-out
}

// A front end sets a table's and an animation's options by name, from
// text, as mark1 dials' flags do; 0 bins and 0 delay ask for none, which
// the rules refuse.
func ExampleTableSettings() {
	var table dials.TableOptions
	for _, o := range dials.TableSettings() {
		text := map[string]string{"sort": "abs", "desc": "true", "top": "5", "bins": "0"}[o.Name]
		fmt.Println(o.Name, o.Fields, o.Default, o.Set(&table, text))
	}
	var anim dials.AnimateOptions
	for _, o := range dials.AnimateSettings() {
		o.Set(&anim, fmt.Sprint(o.Default))
	}
	fmt.Println(table, dials.ValidateBins(table.Bins))
	fmt.Println(anim.Delay, anim.Every, anim.Validate())
	// Output:
	// sort [sort] id <nil>
	// desc [desc] false <nil>
	// top [top] 0 <nil>
	// bins [bins] 10 <nil>
	// {abs true 5 -1} bins -1: want a whole number in [1, 1000]
	// 40 1 <nil>
}
