package panel

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mark1/images"
	"mark1/machine"
)

// trainedMachine trains a machine on letters1 to its recipe's epoch limit
// (two epochs) and returns it as mark1 serve --machine would load it.
func trainedMachine(t *testing.T) *machine.Machine {
	t.Helper()
	m := presetMachine(t, taskClasses("letters1"), 3, false)
	r := machine.Recipe{Data: images.Source{Task: "letters1", PerClass: 2, TestSplit: 0.2, Seed: 3}, MaxEpochs: 2}
	train, test, err := r.Load(m.Classes, "test", images.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := machine.NewSession(m, r, m.Fields(train), m.Fields(test))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Run(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	m.Recipe = &r
	// Through a file, as serve --machine loads it.
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	m2, err := machine.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m2
}

// TestDemonstrateTrained checks that a trained machine, loaded as serve
// --machine loads it, answers any card without learning; that Step and
// Run are refused (naming Continue training) until training is continued
// explicitly; that continued training stops by the machine's own rule or
// limit; and that a task with the same classes takes the machine on, its
// training kept, while one with other classes is refused.
func TestDemonstrateTrained(t *testing.T) {
	m := trainedMachine(t)
	_, ts := newPanel(t, Config{Machine: m, Task: "letters1"})
	code, s := post(t, ts.URL+"/api/present", "", nil)
	if code != 200 || !s.Done || !s.Trained || s.Retina == nil || len(s.History) != 2 {
		t.Fatalf("present on a trained machine: %d %+v", code, s)
	}
	pulses, pos := s.Pulses, slices.Clone(s.Positions)
	for i, body := range []string{``, `{"card": 5}`, `{"card": 0}`, ``} {
		code, s = post(t, ts.URL+"/api/present", "application/json", []byte(body))
		if code != 200 || s.Pulses != pulses || !slices.Equal(s.Positions, pos) || !strings.Contains(s.Message, "Nothing was learned") {
			t.Fatalf("present %d (%s): %d, pulses %d → %d, %q", i, body, code, pulses, s.Pulses, s.Message)
		}
	}
	if !strings.Contains(s.Message, "Training card 2 of") {
		t.Errorf("present after card 0 showed %q; want the deck's next, card 2", s.Message)
	}
	if code, s = post(t, ts.URL+"/api/present", "application/json", []byte(`{"card": 9999}`)); code != 400 || !strings.Contains(s.Error, "9999") {
		t.Errorf("present card 9999: %d %q", code, s.Error)
	}
	for _, ctl := range []string{"step", "run"} {
		if code, s = post(t, ts.URL+"/api/"+ctl, "", nil); code != 409 || !strings.Contains(s.Error, "Continue training") {
			t.Errorf("%s on an ended machine: %d %q; want 409 naming Continue training", ctl, code, s.Error)
		}
	}
	// Continue: training runs again, counted from where it stood.
	if code, s = post(t, ts.URL+"/api/continue", "", nil); code != 200 || s.Done || s.Running {
		t.Fatalf("continue: %d %+v", code, s)
	}
	if code, s = post(t, ts.URL+"/api/continue", "", nil); code != 409 {
		t.Errorf("continue while training: %d; want 409", code)
	}
	for range 3 {
		if code, s = post(t, ts.URL+"/api/step", "", nil); code != 200 {
			t.Fatalf("step after continue: %d %s", code, s.Error)
		}
	}
	if s.Pulses == pulses && slices.Equal(s.Positions, pos) {
		t.Logf("three steps moved nothing (all right?)")
	}
	if s.Epoch != 3 {
		t.Errorf("continued training: epoch %d under way; want 3", s.Epoch)
	}
	// The limit counts from where training continued: two more epochs.
	for i := 0; !s.Done && i < 1000; i++ {
		if code, s = post(t, ts.URL+"/api/step", "", nil); code != 200 {
			t.Fatalf("step: %d %s", code, s.Error)
		}
	}
	if !s.Done || len(s.History) > 4 {
		t.Errorf("continued training ended after %d epochs (done %v, %s); want at most 4", len(s.History), s.Done, s.Summary)
	}
	// Another task with the same classes: the machine keeps its training.
	trained := len(s.History)
	if code, s = post(t, ts.URL+"/api/task", "application/json", []byte(`{"task": "letters1960", "keep": true}`)); code != 200 || len(s.History) != trained || s.Done {
		t.Fatalf("keep on letters1960: %d, %d epochs (had %d), done %v: %s", code, len(s.History), trained, s.Done, s.Error)
	}
	if code, s = post(t, ts.URL+"/api/step", "", nil); code != 200 || s.Epoch != trained+1 {
		t.Errorf("step on the new task's cards: %d, epoch %d; want %d", code, s.Epoch, trained+1)
	}
	if code, s = post(t, ts.URL+"/api/task", "application/json", []byte(`{"task": "shapes", "keep": true}`)); code != 400 || !strings.Contains(s.Error, "only a fresh machine") {
		t.Errorf("keep on shapes: %d %q; want 400", code, s.Error)
	}
}
