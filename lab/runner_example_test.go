package lab_test

import (
	"context"
	"fmt"

	"mark1/lab"
)

// A front end starts a run on data of two classes or more alike (Data.Start),
// and draws it as a Picture: the run's default view at its last step.
func ExampleData_Start() {
	e, _ := lab.Find("notes-004")
	run, err := lab.Data{Example: e}.Start(context.Background(), lab.Setup{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pic := lab.Picture{Step: -1, Delay: 80, MaxFrames: 200}
	fmt.Println(run.Frames(), "steps; default view", run.DefaultView(), pic.Validate())
	d, err := pic.Draw(context.Background(), run)
	fmt.Println(d != nil, err)
	// Output:
	// 13 steps; default view notes <nil>
	// true <nil>
}

// A picture's numbers are checked whatever run they draw, in the lab's
// own words.
func ExamplePicture_Validate() {
	fmt.Println(lab.Picture{Step: -1, Delay: 0, MaxFrames: 200}.Validate())
	fmt.Println(lab.Picture{Step: -2, Delay: 80, MaxFrames: 200}.Validate())
	// Output:
	// delay 0: want [1, 6000]
	// step -2: want at least -1
}

// An example runs as the notes run it unless told otherwise: the options
// the notes set otherwise than the registry's defaults.
func ExampleNotesSettings() {
	s := lab.NotesSettings()
	fmt.Println(s["bias"], s["order"], s["kernel"])
	// Output:
	// -1 given linear
}
