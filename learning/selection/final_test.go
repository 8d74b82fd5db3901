package selection

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestFinalResults runs a final plan's tasks with a stand-in fit, reads
// the results back and refuses those that are not its tasks' machines.
func TestFinalResults(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	d := Data{Path: "d.libsvm", Format: "libsvm", Indices: "1-based", Fingerprint: fp, Rows: 50, Dim: 3, Classes: 3}
	p, err := NewFinalPlan(d, "svm", map[string]string{"scale": "none"}, 2, "scale")
	if err != nil {
		t.Fatal(err)
	}
	g := 0.25
	fit := func(_ context.Context, pair int, c float64, gamma string) (Machine, int, error) {
		if c != 2 || gamma != "scale" {
			t.Errorf("pair %d: C %v gamma %q", pair, c, gamma)
		}
		return Machine{SV: []int{pair, 10 + pair}, Coef: []float64{1, -1}, Rho: 0.5, Gamma: &g}, 7, nil
	}
	if _, err := RunFinal(context.Background(), p, strings.Repeat("cd", 32), 0, fit); !errors.Is(err, ErrData) {
		t.Errorf("other data: %v", err)
	}
	dir := t.TempDir()
	for i := range p.Tasks {
		r, err := RunFinal(context.Background(), p, fp, i, fit)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteResult(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	res, err := ReadResults(p, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if m := Machines(res); len(m) != 3 || m[2].SV[1] != 12 || *m[1].Gamma != g {
		t.Errorf("machines %+v", m)
	}
	bad := res[1]
	bad.Machine = &Machine{SV: []int{3, 50}, Coef: []float64{1, 1}}
	if why := p.foreign(bad, p.ID()); !strings.Contains(why, "row 50") {
		t.Errorf("a row out of range: %q", why)
	}
	bad.Machine = &Machine{SV: []int{3, 3}, Coef: []float64{1, 1}}
	if why := p.foreign(bad, p.ID()); !strings.Contains(why, "twice") {
		t.Errorf("a row twice: %q", why)
	}
	if _, err := Run(context.Background(), p, nil, 0, nil); err == nil {
		t.Error("Run ran a final plan")
	}
	grid := *p
	grid.Final = false
	if why := grid.foreign(res[0], res[0].Plan); why == "" {
		t.Error("a machine accepted as a grid's result")
	}
}
