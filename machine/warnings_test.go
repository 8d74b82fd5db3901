package machine_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"mark1/machine"
)

func kinds(ws []machine.Warning) []machine.WarningKind {
	var k []machine.WarningKind
	for _, w := range ws {
		k = append(k, w.Kind)
	}
	return k
}

func TestWarnings(t *testing.T) {
	scaled := func(f machine.Fields, by float32) machine.Fields {
		out := machine.Fields{Y: f.Y}
		for _, x := range f.X {
			y := make([]float32, len(x))
			for i, v := range x {
				y[i] = v * by
			}
			out.X = append(out.X, y)
		}
		return out
	}
	t.Run("values up to 16 read as grey levels: refused", func(t *testing.T) {
		m, tr, te := setup(t, "mark1", "shapes", 10, 1)
		_, err := machine.NewSession(m, machine.Recipe{}, scaled(tr, 16.0/255), te)
		var w machine.Warning
		if !errors.As(err, &w) || w.Kind != machine.NoLight {
			t.Fatalf("NewSession on dark data: err = %v; want a NoLight warning", err)
		}
		for _, want := range []string{fmt.Sprintf("none of the %d training cards lights a photocell", tr.Len()), "0.063 of full", "svm-scale -l 0 -u 255"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the reason lacks %q: %s", want, err)
			}
		}
	})
	t.Run("one lit cell per card fires no A-unit", func(t *testing.T) {
		m, tr, te := setup(t, "mark1", "shapes", 10, 1)
		for i, x := range tr.X {
			clear(x)
			x[(i*37)%len(x)] = 1 // θ = 2 needs two excitatory points lit
		}
		s := session(t, m, machine.Recipe{MaxEpochs: 1}, tr, te)
		if ws := s.Warnings(); len(ws) != 1 || ws[0].Kind != machine.FewFire || !strings.Contains(ws[0].Text, fmt.Sprintf("on %d of the %[1]d training cards no A-unit fires", tr.Len())) {
			t.Fatalf("warnings %v", ws)
		}
	})
	t.Run("identical cards get one answer", func(t *testing.T) {
		m, tr, te := setup(t, "mark1", "leftright", 10, 1)
		for i := range tr.X {
			tr.X[i] = tr.X[0]
		}
		s := run(t, m, machine.Recipe{MaxEpochs: 2}, tr, te)
		if k := kinds(s.Warnings()); len(k) != 1 || k[0] != machine.OneAnswer {
			t.Fatalf("warnings %v", s.Warnings())
		}
	})
	t.Run("26 letters on the binary code", func(t *testing.T) {
		m, tr, te := setup(t, "mark1", "letters", 4, 1)
		s := run(t, m, machine.Recipe{MaxEpochs: 3}, tr, te)
		ws := s.Warnings()
		if k := kinds(ws); len(k) != 1 || k[0] != machine.BinaryCode || !strings.Contains(ws[0].Text, "one-per-class code on 26 R-units") ||
			!slices.Equal(ws[0].Settings, []machine.Setting{{Field: "response.code", Value: "one-per-class"}, {Field: "response.units", Value: "26"}, {Field: "preset", Value: "full"}}) {
			t.Fatalf("warnings %v", ws)
		}
	})
	t.Run("a healthy run says nothing", func(t *testing.T) {
		m, tr, te := setup(t, "mark1", "leftright", 20, 1)
		if ws := run(t, m, machine.Recipe{}, tr, te).Warnings(); len(ws) != 0 {
			t.Fatalf("warnings %v", ws)
		}
	})
}
