package limits

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func formatPoints(p [][]float64) string {
	var pts []string
	for _, q := range p {
		var fs []string
		for _, v := range q {
			fs = append(fs, strconv.FormatFloat(v, 'g', -1, 64))
		}
		pts = append(pts, strings.Join(fs, ","))
	}
	return strings.Join(pts, ";")
}

func TestParsePoints(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want [][]float64
		err  string
	}{
		{"0,0;1,0;0,1;1,1", [][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, ""},
		{" 2 , -1.5 ", [][]float64{{2, -1.5}}, ""},
		{"0,0;1", nil, "point 2 has 1 coordinates"},
		{"0,x", nil, "not a number"},
		{"1e7,0", nil, "not a number"},
		{"NaN,0", nil, "not a number"},
		{"0;0;0;0;0;0;0", nil, "more than 6"},
	} {
		got, err := ParsePoints(tc.in, 6)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %v, %v", tc.in, got, err)
		}
	}
}

// FuzzParsePoints: whatever it accepts formats and parses back to the
// same values.
func FuzzParsePoints(f *testing.F) {
	for _, s := range []string{"0,0;1,0;0,1;1,1", "1e-300,-0", "3", ";", "1,2,3;4,5,6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePoints(s, 6)
		if err != nil {
			return
		}
		q, err := ParsePoints(formatPoints(p), 6)
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("%q → %v → %q → %v, %v", s, p, formatPoints(p), q, err)
		}
	})
}

// TestPanels: the sheet's panels carry each labeling's points, labels and
// line, and the line found separates them.
func TestPanels(t *testing.T) {
	r, err := CountSeparable([][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := r.Panels()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 16 || r.Count != 14 || strings.Join(r.Inseparable(), " ") != "0110 1001" {
		t.Fatalf("%d panels, %d separable, %v", len(ps), r.Count, r.Inseparable())
	}
	for lab, p := range ps {
		if (p.Line != nil) != r.Separable[lab] {
			t.Fatalf("labeling %d: line %v", lab, p.Line)
		}
		for i, q := range p.Points {
			if p.Line != nil && (p.Line[0]*q[0]+p.Line[1]*q[1]+p.Line[2] > 0) != p.Positive[i] {
				t.Errorf("labeling %04b: the line puts point %d on the wrong side", lab, i)
			}
		}
	}
}
