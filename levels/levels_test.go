package levels

import (
	"reflect"
	"testing"

	"mark1/machine"
	"mark1/motors"
)

// TestReproducible: the same seeds give the same report, whatever the
// number of threads; the ideal machine's paired difference is zero; a
// setting's P_g and its difference agree.
func TestReproducible(t *testing.T) {
	o := Options{Tasks: []string{"leftright", "square-diamond"}, Seeds: 2, PerClass: 6, Epochs: 5, Threads: 1}
	a, err := Measure(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Threads = 3
	b, err := Measure(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("one thread and three give different reports:\n%+v\n%+v", a, b)
	}
	for _, row := range a.Rows {
		if row.Ideal.Diff != 0 {
			t.Errorf("%s: the ideal machine differs from itself by %v", row.Task, row.Ideal.Diff)
		}
		for _, st := range append(append(row.Levels, row.Noise...), row.Backlash...) {
			if d := st.Pg - row.Ideal.Pg - st.Diff; d*d > 1e-20 {
				t.Errorf("%s %s %v: P_g %v, ideal %v, difference %v", row.Task, st.Name, st.Value, st.Pg, row.Ideal.Pg, st.Diff)
			}
			if st.WithinTol != (st.Diff >= -a.Tolerance) {
				t.Errorf("%s %s %v: within %v with difference %v", row.Task, st.Name, st.Value, st.WithinTol, st.Diff)
			}
		}
	}
	if _, err := Measure(t.Context(), Options{Tasks: []string{"nope"}}); err == nil {
		t.Error("an unknown task was measured")
	}
}

// TestConfigs: the mark1 setting is the preset's own pots, the ideal one
// ideal, and a swept setting changes one property of ideal pots (levels
// with the preset's end stops).
func TestConfigs(t *testing.T) {
	m := config{kind: "mark1"}
	base := config{kind: "ideal"}
	mc := m.motors(markOne())
	if mc != markOne() {
		t.Errorf("mark1 setting %+v; want the preset's %+v", mc, markOne())
	}
	if ic := base.motors(markOne()); !ic.Ideal() {
		t.Errorf("ideal setting %+v is not ideal", ic)
	}
	if lc := (config{"levels", 9}).motors(markOne()); lc.Levels != 9 || lc.Limit != 1 || lc.StepNoise != 0 || lc.Backlash != 0 {
		t.Errorf("levels setting %+v", lc)
	}
}

func markOne() motors.Config {
	c, err := machine.Preset("mark1")
	if err != nil {
		panic(err)
	}
	return c.Motors
}
