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

// A front end sets a Job by the options' names, from text, as mark1 lab's
// flags do, and loads its data.
func ExampleJobOptions() {
	var job lab.Job
	for _, o := range lab.JobOptions() {
		text := map[string]string{"example": "xor", "format": "auto", "step": "3"}[o.Name]
		if text == "" && o.Default != "" {
			text = fmt.Sprint(o.Default)
		}
		if err := o.Set(&job, text); err != nil {
			fmt.Println(o.Name, err)
		}
	}
	fmt.Println(lab.JobOptions()[2].Set(&job, "yaml") != nil)
	d, err := job.Load(context.Background())
	fmt.Println(job.Example, job.Picture.Step, len(d.Example.X), d.Multi == nil, err)
	// Output:
	// true
	// xor 3 8 true <nil>
}
