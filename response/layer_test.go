package response

import "testing"

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
