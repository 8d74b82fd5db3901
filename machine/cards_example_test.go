package machine_test

import (
	"context"
	"errors"
	"fmt"

	"mark1/images"
	"mark1/machine"
)

// A loaded machine is looked at with the cards of a task named for it,
// labelled as its classes, else with those its recipe records.
func ExampleMachine_Cards() {
	cfg, _ := machine.Preset("mark1")
	m, _ := machine.New(cfg, []string{"left", "right"}, machine.SeedsFrom(1), nil)
	src := images.Source{Task: "leftright", PerClass: 5, TestSplit: 0.2, Seed: 1}
	train, test, err := m.Cards(context.Background(), &src, "m.json", images.Limits{})
	fmt.Println(train.Len(), test.Len(), err)
	_, _, err = m.Cards(context.Background(), nil, "m.json", images.Limits{})
	fmt.Println(errors.Is(err, machine.ErrNoRecipe), err)
	other := images.Source{Task: "shapes", PerClass: 2, Seed: 1}
	_, _, err = m.Cards(context.Background(), &other, "m.json", images.Limits{})
	fmt.Println(err != nil)
	// Output:
	// 8 2 <nil>
	// true m.json: the machine file does not record its data (no recipe)
	// true
}
