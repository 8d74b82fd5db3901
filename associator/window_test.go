package associator

import (
	"strings"
	"testing"
)

// TestWireWindow: with a Window every A-unit's origin points fit in one
// D × D square, the windows are spread over the whole retina, and the
// origin points within a unit are distinct.
func TestWireWindow(t *testing.T) {
	for _, d := range []int{4, 7, 20} {
		p, err := Wire(Config{Window: d}, 20, 20, 3)
		if err != nil {
			t.Fatal(err)
		}
		var minLeft, maxLeft = 20, 0
		for u, unit := range p.Units {
			pts := append(append([]int(nil), unit.Excitatory...), unit.Inhibitory...)
			r0, r1, c0, c1 := 20, -1, 20, -1
			seen := map[int]bool{}
			for _, s := range pts {
				if seen[s] {
					t.Fatalf("D=%d unit %d: origin point %d twice", d, u, s)
				}
				seen[s] = true
				r, c := s/20, s%20
				r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
			}
			if r1-r0 >= d || c1-c0 >= d {
				t.Fatalf("D=%d unit %d spans %dx%d cells", d, u, r1-r0+1, c1-c0+1)
			}
			minLeft, maxLeft = min(minLeft, c0), max(maxLeft, c1)
		}
		if minLeft > 1 || maxLeft < 18 {
			t.Errorf("D=%d: units cover columns %d..%d only", d, minLeft, maxLeft)
		}
	}
}

func TestWindowValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string // "" valid
	}{
		{Config{Window: 3}, "at least 10 cells"}, // 9 cells cannot hold x + y = 10
		{Config{Window: 4}, ""},                  // 16 can
		{Config{Window: 21}, "1 to 20"},
		{Config{Window: -2}, "1 to 20"},
		{Config{Window: 2, Excitatory: 2, Inhibitory: -1, Threshold: 1}, ""},
	} {
		err := tc.cfg.Validate(20, 20)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.cfg, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: got %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestParseWiring(t *testing.T) {
	for _, s := range []string{"random", "local:1", "local:12"} {
		d, err := ParseWiring(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := (Config{Window: d}).Wiring(); got != s {
			t.Errorf("%s → %d → %s", s, d, got)
		}
	}
	for _, s := range []string{"", "local", "local:0", "local:-3", "local:x", "Random"} {
		if _, err := ParseWiring(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

// FuzzParseWiring: whatever it accepts names itself back.
func FuzzParseWiring(f *testing.F) {
	for _, s := range []string{"random", "local:5", "local:0", "local:+5", "local:05"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseWiring(s)
		if err != nil {
			return
		}
		if d2, err := ParseWiring(Config{Window: d}.Wiring()); err != nil || d2 != d {
			t.Fatalf("%q → %d → %q → %d, %v", s, d, Config{Window: d}.Wiring(), d2, err)
		}
	})
}
