package response

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

func TestLayer(t *testing.T) {
	tests := []struct {
		cfg        Config
		classes    int
		used, pots int
		wantErr    bool
	}{
		{cfg: Config{}, classes: 2, used: 1, pots: 512},
		{cfg: Config{}, classes: 26, used: 5, pots: 512},
		{cfg: Config{Bias: true}, classes: 4, used: 2, pots: 514},
		{cfg: Config{Layout: Full, Code: OnePerClass}, classes: 8, used: 8, pots: 4096},
		{cfg: Config{Layout: Full, Code: OnePerClass, Bias: true}, classes: 3, used: 3, pots: 1539},
		{cfg: Config{Code: OnePerClass}, classes: 26, wantErr: true},
		{cfg: Config{}, classes: 1, wantErr: true},
		{cfg: Config{}, classes: 300, wantErr: true},
	}
	for _, tt := range tests {
		l, err := New(tt.cfg, 512, tt.classes)
		if tt.wantErr {
			if err == nil {
				t.Errorf("New(%+v, %d classes) succeeded; want an error", tt.cfg, tt.classes)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.Used() != tt.used || l.Pots() != tt.pots {
			t.Errorf("%+v, %d classes: used %d pots %d; want %d, %d", tt.cfg, tt.classes, l.Used(), l.Pots(), tt.used, tt.pots)
		}
		// Every A-unit reaches exactly one R-unit (source-sets) or all (full).
		for a := range 512 {
			n := 0
			for r := range l.Used() {
				if l.Pot(a, r) >= 0 {
					n++
				}
			}
			if want := map[Layout]int{SourceSets: 1, Full: l.Used()}[tt.cfg.Layout]; n != want {
				t.Fatalf("A-unit %d reaches %d R-units; want %d", a, n, want)
			}
		}
	}
}

func TestSumsAndDecode(t *testing.T) {
	l, _ := New(Config{Layout: Full, Bias: true}, 3, 4) // binary, 2 R-units
	// pots: R0: a0 a1 a2, R1: a0 a1 a2, bias R0, bias R1
	values := []float64{1, -2, 3, -1, 0.5, 0.25, -0.5, 0.125}
	got := l.Sums(nil, []int{0, 2}, values)
	if got[0] != 3.5 || got[1] != -0.625 {
		t.Errorf("Sums = %v; want [3.5 -0.625]", got)
	}
	if c := l.Decode(got); c != 1 {
		t.Errorf("Decode(%v) = %d; want 1", got, c)
	}
	if c := l.Decode([]float64{1, 1}); c != 3 {
		t.Errorf("Decode([1 1]) = %d; want 3", c)
	}
	l3, _ := New(Config{}, 10, 3)
	if c := l3.Decode([]float64{1, 1}); c != -1 {
		t.Errorf("binary code 3 with 3 classes decoded as %d; want -1", c)
	}
	w, _ := New(Config{Code: OnePerClass}, 9, 3)
	if c := w.Decode([]float64{-1, 2, 0.5}); c != 1 {
		t.Errorf("winner take all chose %d; want 1", c)
	}
	if c := w.Decode([]float64{2, 2, 0.5}); c != -1 {
		t.Errorf("a tie for the largest sum decoded as %d; want -1", c)
	}
	if c := l.Decode([]float64{1, 0}); c != -1 {
		t.Errorf("a zero sum decoded as %d; want -1 (no lamp lit)", c)
	}
	if !w.Want(2, 2) || w.Want(1, 2) || !l.Want(0, 3) || l.Want(1, 1) {
		t.Error("Want gives the wrong targets")
	}
}

// TestSourceSets checks both ways of dividing 512 A-units: fixed
// source-sets wire exactly 64 A-units to each of the 8 R-units, used or not,
// and only the sets of R-units in use count; used source-sets share all 512
// among the R-units the code uses.
func TestSourceSets(t *testing.T) {
	tests := []struct {
		sets    Sets
		classes int
		sizes   []int // A-units per R-unit, all 8
	}{
		{FixedSets, 2, []int{64, 64, 64, 64, 64, 64, 64, 64}},
		{FixedSets, 26, []int{64, 64, 64, 64, 64, 64, 64, 64}},
		{UsedSets, 2, []int{512, 0, 0, 0, 0, 0, 0, 0}},
		{UsedSets, 4, []int{256, 256, 0, 0, 0, 0, 0, 0}},
		{UsedSets, 26, []int{103, 102, 103, 102, 102, 0, 0, 0}}, // a·5/512, contiguous
	}
	for _, tt := range tests {
		l, err := New(Config{Sets: tt.sets}, 512, tt.classes)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s source-sets, %d classes", tt.sets, tt.classes)
		if got := l.SourceSetSizes(); !slices.Equal(got, tt.sizes) {
			t.Errorf("%s: sizes %v, want %v", name, got, tt.sizes)
		}
		// Count by Pot too, and sum every value with every A-unit active.
		values := make([]float64, l.Pots())
		for i := range values {
			values[i] = 1
		}
		all := make([]int, 512)
		for a := range all {
			all[a] = a
		}
		sums := l.Sums(nil, all, values)
		for r := range l.Used() {
			n := 0
			for a := range 512 {
				if p := l.Pot(a, r); p >= 0 {
					n++
					if l.SourceSet(a) != r {
						t.Errorf("%s: A-unit %d has a pot to R-unit %d but feeds %d", name, a, r, l.SourceSet(a))
					}
				}
			}
			if n != tt.sizes[r] || sums[r] != float64(tt.sizes[r]) {
				t.Errorf("%s: R-unit %d: %d pots, sum %v; want %d", name, r, n, sums[r], tt.sizes[r])
			}
		}
	}
	if _, err := New(Config{Sets: FixedSets}, 7, 2); err == nil {
		t.Error("7 A-units in 8 fixed source-sets: no error")
	}
}

func TestSetsJSON(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{Units: 8}, `{"units":8,"layout":"source-sets","code":"binary","bias":false}`},
		{Config{Units: 8, Sets: FixedSets}, `{"units":8,"layout":"source-sets","code":"binary","bias":false,"source_sets":"fixed"}`},
	} {
		b, err := json.Marshal(tt.cfg)
		if err != nil || string(b) != tt.want {
			t.Errorf("%+v: %s, %v; want %s", tt.cfg, b, err, tt.want)
		}
		var back Config
		if err := json.Unmarshal(b, &back); err != nil || back != tt.cfg {
			t.Errorf("%s read back as %+v, %v", b, back, err)
		}
	}
	var c Config
	if err := json.Unmarshal([]byte(`{"source_sets":"some"}`), &c); err == nil {
		t.Error(`source_sets "some" accepted`)
	}
}

// TestPotsWithoutLayer: Pots counts the pots New's layer has, for every
// layout, code and bias, without making the layer; and refuses as New does.
func TestPotsWithoutLayer(t *testing.T) {
	for _, layout := range []Layout{SourceSets, Full} {
		for _, code := range []Code{Binary, OnePerClass} {
			for _, bias := range []bool{false, true} {
				for _, classes := range []int{2, 3, 8, 26} {
					cfg := Config{Units: 32, Layout: layout, Code: code, Bias: bias}
					l, err := New(cfg, 100, classes)
					n, perr := Pots(cfg, 100, classes)
					if (err == nil) != (perr == nil) {
						t.Errorf("%+v, %d classes: New error %v, Pots error %v", cfg, classes, err, perr)
						continue
					}
					if err == nil && n != l.Pots() {
						t.Errorf("%+v, %d classes: Pots %d, the layer has %d", cfg, classes, n, l.Pots())
					}
				}
			}
		}
	}
	if _, err := Pots(Config{Units: 4, Code: OnePerClass}, 100, 26); err == nil {
		t.Error("26 classes on 4 R-units, one per class: no error")
	}
}

// TestScoreByHand: four classes on two R-units in the binary code, sums 1
// and −2 (R0 on, R1 off: class 1). Class c's score adds the sums of the
// R-units c wants on and subtracts the others: c=0 (off, off) −1+2 = 1,
// c=1 (on, off) 1+2 = 3, c=2 (off, on) −1−2 = −3, c=3 (on, on) 1−2 = −1.
// One R-unit per class: the score is the class's own sum.
func TestScoreByHand(t *testing.T) {
	l, err := New(Config{Units: 8}, 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	sums := []float64{1, -2}
	for c, want := range []float64{1, 3, -3, -1} {
		if got := l.Score(sums, c); got != want {
			t.Errorf("binary: Score(class %d) = %v; want %v", c, got, want)
		}
	}
	if c := l.Decode(sums); c != 1 {
		t.Errorf("decoded class %d; want 1, the highest score", c)
	}
	one, err := New(Config{Units: 8, Code: OnePerClass}, 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	four := []float64{0.5, -1, 2, 0}
	for c, v := range four {
		if got := one.Score(four, c); got != v {
			t.Errorf("one-per-class: Score(class %d) = %v; want %v", c, got, v)
		}
	}
}

// TestOmegaByHand: eight A-units, four source-sets of two (fixed sets,
// one R-unit per class), ω = 1/2: each A-unit feeds its own set and the
// next, cyclically — A0, A1 feed R0 and R1; A2, A3 R1 and R2; A4, A5 R2 and
// R3; A6, A7 R3 and R0. R0's source-set is {A0, A1, A6, A7}; of them A6
// and A7 do not feed R1, so N_e(R0, R1) = 2; one value per A-unit.
func TestOmegaByHand(t *testing.T) {
	l, err := New(Config{Units: 4, Code: OnePerClass, Sets: FixedSets, Omega: 0.5}, 8, 4)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, in := range l.Inputs(0) {
		got = append(got, in.A)
		if in.Pot != in.A {
			t.Errorf("A-unit %d feeds R0 through pot %d; want its one value, pot %d", in.A, in.Pot, in.A)
		}
	}
	if fmt.Sprint(got) != "[0 1 6 7]" {
		t.Errorf("R0's source-set %v; want [0 1 6 7]", got)
	}
	if n := l.Effective(0, 1); n != 2 {
		t.Errorf("N_e(R0, R1) = %d; want 2", n)
	}
	if n := l.Effective(0, 2); n != 4 {
		t.Errorf("N_e(R0, R2) = %d; want 4 (no unit feeds both)", n)
	}
	if w := l.Omega(); w != 0.5 {
		t.Errorf("ω = %v; want 0.5", w)
	}
	values := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	sums := l.Sums(nil, []int{0, 2, 7}, values)
	// R0: A0 + A7 = 9; R1: A0 + A2 = 4; R2: A2 = 3; R3: A7 = 8.
	if fmt.Sprint(sums) != "[9 4 3 8]" {
		t.Errorf("sums %v; want [9 4 3 8]", sums)
	}
	if sizes := l.SourceSetSizes(); fmt.Sprint(sizes) != "[4 4 4 4]" {
		t.Errorf("source-set sizes %v; want 4 each", sizes)
	}
	for _, bad := range []Config{{Omega: 1.5}, {Omega: -0.1}, {Layout: Full, Omega: 0.5}} {
		if _, err := New(bad, 8, 2); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
