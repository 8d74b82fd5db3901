package associator

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestWireReproducible(t *testing.T) {
	a, err := Wire(Config{}, 20, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Wire(Config{}, 20, 20, 7)
	c, _ := Wire(Config{}, 20, 20, 8)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed gave different plugboards")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("different seeds gave the same plugboard")
	}
	if len(a.Units) != 512 {
		t.Errorf("%d units; want 512", len(a.Units))
	}
	for u, unit := range a.Units {
		seen := map[int]bool{}
		for _, s := range append(append([]int{}, unit.Excitatory...), unit.Inhibitory...) {
			if seen[s] {
				t.Fatalf("unit %d uses origin point %d twice", u, s)
			}
			seen[s] = true
		}
		if len(unit.Excitatory) != 5 || len(unit.Inhibitory) != 5 || unit.Threshold != 2 {
			t.Fatalf("unit %d: x=%d y=%d θ=%v; want 5, 5, 2", u, len(unit.Excitatory), len(unit.Inhibitory), unit.Threshold)
		}
	}
}

func TestActive(t *testing.T) {
	p := &Plugboard{Width: 2, Height: 2, Units: []Unit{
		{Excitatory: []int{0, 1}, Threshold: 2},
		{Excitatory: []int{0}, Inhibitory: []int{3}, Threshold: 1},
		{Excitatory: []int{2}, Threshold: 0},
	}}
	tests := []struct {
		s    []float64
		want []int
	}{
		{[]float64{1, 1, 0, 0}, []int{0, 1, 2}},
		{[]float64{1, 0, 0, 1}, []int{2}},
		{[]float64{0, 0, 0, 0}, []int{2}},
	}
	for _, tt := range tests {
		if got := p.Active(nil, tt.s); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Active(%v) = %v; want %v", tt.s, got, tt.want)
		}
	}
}

func TestListingRoundTrip(t *testing.T) {
	p, _ := Wire(Config{Units: 40}, 20, 20, 3)
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := Read(&buf, "test.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Error("plugboard changed in a write/read round trip")
	}
}

func TestReadBad(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", "incomplete"},
		{"magic", "hello\n", "not a plugboard listing"},
		{"version", "mark1-plugboard 9\n", "not supported"},
		{"size", "mark1-plugboard 1\nretina 0x5\n", "bad retina size"},
		{"order", "mark1-plugboard 1\nretina 2x2\na1 theta 1 exc 0,0\n", "want A-unit a0"},
		{"off", "mark1-plugboard 1\nretina 2x2\na0 theta 1 exc 5,0\n", "off the 2x2 retina"},
		{"twice", "mark1-plugboard 1\nretina 2x2\na0 theta 1 exc 0,0 inh 0,0\n", "appears twice"},
		{"point", "mark1-plugboard 1\nretina 2x2\na0 theta 1 exc x\n", "bad origin point"},
		{"theta", "mark1-plugboard 1\nretina 2x2\na0 theta NaN exc 0,0\n", "bad threshold"},
		{"none", "mark1-plugboard 1\nretina 2x2\na0 theta 1 exc\n", "no origin points"},
		{"nounits", "mark1-plugboard 1\nretina 2x2\n", "no A-units"},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.text), "wires.txt")
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "wires.txt") {
			t.Errorf("%s: error %v; want one naming wires.txt and containing %q", tt.name, err, tt.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	p, _ := Wire(Config{Units: 3}, 4, 4, 1)
	var buf bytes.Buffer
	p.WriteTo(&buf)
	f.Add(buf.String())
	if b, err := os.ReadFile("testdata/plugboard.txt"); err == nil {
		f.Add(string(b))
	}
	f.Add("mark1-plugboard 1\nretina 2x2\na0 theta 1 exc 0,0 inh 1,1\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Read(strings.NewReader(s), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := p.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		q, err := Read(&out, "again")
		if err != nil {
			t.Fatalf("re-reading a written listing: %v", err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatal("round trip changed the plugboard")
		}
	})
}

func TestFaultyPlugboard(t *testing.T) {
	p, err := Wire(Config{Units: 20}, 4, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	every3 := func() bool { k++; return k%3 == 0 }
	removed := 0
	for u := range p.Units {
		removed += p.BreakWires(u, every3)
	}
	if removed != 20*10/3 {
		t.Errorf("BreakWires removed %d origin points; want %d", removed, 20*10/3)
	}
	p.BreakWires(0, func() bool { return true })
	p.Kill(5)
	if !p.Units[0].Dead || !p.Units[5].Dead || p.Dead() != 2 {
		t.Fatalf("dead units: %d; want a0 (no wires left) and a5", p.Dead())
	}
	all := make([]float64, 16)
	for i := range all {
		all[i] = 1
	}
	p.Units[5].Threshold = -100 // would always fire if alive
	for _, a := range p.Active(nil, all) {
		if a == 0 || a == 5 {
			t.Errorf("dead A-unit a%d fired", a)
		}
	}
	var b bytes.Buffer
	if _, err := p.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "a0 theta 2 exc dead\n") {
		t.Errorf("listing of a unit with no wires left:\n%.300s", b.String())
	}
	back, err := Read(&b, "faulty.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Units[5], p.Units[5]) || !back.Units[0].Dead || back.Dead() != 2 {
		t.Errorf("listing round trip lost the faults: %+v", back.Units[:6])
	}
	if !reflect.DeepEqual(p.Clone(), p) {
		t.Error("Clone lost the faults")
	}
}
