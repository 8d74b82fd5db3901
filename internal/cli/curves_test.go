package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mark1/images"
)

// TestCurvesRT58: rt58-5's JSON has every curve and the worked point with
// the paper's numbers, the model's (equal to them) and the machine's with
// an interval; the picture is a PNG.
func TestCurvesRT58(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, dir, "curves", "--figure", "rt58-5", "--seeds", "2", "--max-n", "10", "--json", "--png", "f.png")
	if code != 0 {
		t.Fatalf("curves: exit %d: %s", code, errs)
	}
	var f struct {
		Curves []struct {
			Kind, Quantity string
			X, Y           []float64
		}
		WorkedPoint struct {
			Paper, Model struct {
				Pr    float64 `json:"p_r"`
				Pg    float64 `json:"p_g"`
				Limit float64
			}
			Measured struct {
				Pr struct {
					Mean   float64
					CILow  float64 `json:"ci_low"`
					CIHigh float64 `json:"ci_high"`
				} `json:"p_r"`
			}
			Deviation string
		} `json:"worked_point"`
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wp := f.WorkedPoint
	if wp.Paper.Pr != 0.92 || wp.Paper.Pg != 0.85 || wp.Paper.Limit != 0.887 {
		t.Errorf("paper's worked point %+v; want 0.92, 0.85, 0.887", wp.Paper)
	}
	if d := wp.Model.Pr - 0.92; d*d > 1e-6 || wp.Deviation == "" {
		t.Errorf("model P_r %v (want 0.92), deviation %q", wp.Model.Pr, wp.Deviation)
	}
	if m := wp.Measured.Pr; !(m.CILow <= m.Mean && m.Mean <= m.CIHigh) || m.Mean <= 0 {
		t.Errorf("measured P_r %+v", m)
	}
	models, measured := 0, 0
	for _, c := range f.Curves {
		switch c.Kind {
		case "model":
			models++
		case "measured":
			measured++
		}
		if len(c.X) != len(c.Y) || len(c.X) == 0 {
			t.Errorf("curve with %d x and %d y", len(c.X), len(c.Y))
		}
	}
	if models != 6 || measured != 6 {
		t.Errorf("%d model and %d measured curves; want 6 and 6 (P_r, P_g × 3 sizes)", models, measured)
	}
	fh, err := os.Open(filepath.Join(dir, "f.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := png.Decode(fh); err != nil {
		t.Error(err)
	}
	if code, _, errs := run(t, dir, "curves", "--figure", "pr58-12"); code != 2 || errs == "" {
		t.Errorf("pr58-12: exit %d, %q; want a refusal", code, errs)
	}
	// pr58-10 and pr58-11: every curve in the JSON, the measured ones with
	// their seeds, and the values used with their reasons.
	for _, tc := range []struct {
		name             string
		models, measured int
	}{{"pr58-10", 7, 3}, {"pr58-11", 4, 4}} {
		code, out, errs := run(t, dir, "curves", "--figure", tc.name, "--seeds", "2", "--max-n", "3", "--json", "--png", tc.name+".png")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errs)
		}
		var g struct {
			Curves []struct {
				Kind  string
				Seeds int
			}
			Parameters []struct{ Name, Why string }
		}
		if err := json.Unmarshal([]byte(out), &g); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		models, measured := 0, 0
		for _, c := range g.Curves {
			if c.Kind == "model" {
				models++
			} else if c.Seeds == 2 {
				measured++
			}
		}
		if models != tc.models || measured != tc.measured || len(g.Parameters) == 0 || g.Parameters[0].Why == "" {
			t.Errorf("%s: %d model and %d measured curves (want %d and %d), parameters %+v", tc.name, models, measured, tc.models, tc.measured, g.Parameters)
		}
	}
}

// TestLevels: a small levels run prints its table as JSON, twice the same,
// and refuses an unknown task with a usage error.
func TestLevels(t *testing.T) {
	dir := t.TempDir()
	args := []string{"levels", "--tasks", "leftright", "--seeds", "2", "--n", "4", "--epochs", "2", "--json"}
	code, a, errs := run(t, dir, args...)
	if code != 0 {
		t.Fatalf("levels: exit %d: %s", code, errs)
	}
	_, b, _ := run(t, dir, append(args, "--threads", "1")...)
	if a != b {
		t.Error("the same seeds gave different reports with one thread")
	}
	var rep struct {
		Rows []struct {
			Task  string
			Ideal struct {
				Pg float64 `json:"p_g"`
			}
		}
	}
	if err := json.Unmarshal([]byte(a), &rep); err != nil || len(rep.Rows) != 1 || rep.Rows[0].Task != "leftright" {
		t.Errorf("report %+v (%v)", rep, err)
	}
	if code, _, errs := run(t, dir, "levels", "--tasks", "nope", "--seeds", "2"); code != 2 || errs == "" {
		t.Errorf("unknown task: exit %d, %q", code, errs)
	}
}

// TestCurvesOfCards: curves --task draws pr58-11 for one task — the same
// points and constants pr58-11 gives for it — and curves --data the same
// for a folder of pictures, its learning series limited by the fresh cards
// it keeps; the limit printed is Φ(c1/√c3) of the parameters printed,
// computed again here. --figure with a card set, --n with a task and
// neither are refused.
func TestCurvesOfCards(t *testing.T) {
	dir := t.TempDir()
	type figure struct {
		Curves []struct {
			Name, Kind, Quantity string
			X, Y                 []float64
		}
		Parameters []struct {
			Name  string
			Value float64
		}
	}
	read := func(args ...string) figure {
		t.Helper()
		code, out, errs := run(t, dir, append([]string{"curves", "--seeds", "3", "--max-n", "10", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("curves %v: exit %d: %s", args, code, errs)
		}
		var f figure
		if err := json.Unmarshal([]byte(out), &f); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return f
	}
	param := func(f figure, prefix string) float64 {
		t.Helper()
		for _, p := range f.Parameters {
			if strings.HasPrefix(p.Name, prefix) {
				return p.Value
			}
		}
		t.Fatalf("no parameter %q in %+v", prefix, f.Parameters)
		return 0
	}
	task := read("--task", "square-circle")
	fig := read("--figure", "pr58-11")
	for _, c := range task.Curves {
		found := false
		for _, d := range fig.Curves {
			if d.Name == c.Name {
				found = slices.Equal(c.X, d.X) && slices.Equal(c.Y, d.Y)
			}
		}
		if !found {
			t.Errorf("--task square-circle's curve %q is not pr58-11's", c.Name)
		}
	}
	if len(task.Curves) != 4 {
		t.Errorf("--task: %d curves; want the measured and Eq. 11's P_r and P_g", len(task.Curves))
	}
	// A folder of pictures: 30 square-circle cards per class.
	d, err := images.Generate("square-circle", 30, 20, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range d.Samples {
		folder := filepath.Join(dir, "cards", d.Classes[s.Label])
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := png.Encode(&b, s.Image); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(folder, fmt.Sprintf("%03d.png", i)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := read("--data", "cards")
	for _, c := range data.Curves {
		if c.Kind == "measured" && !slices.Equal(c.X, []float64{1, 3, 10}) {
			t.Errorf("--data: %s measured at %v; want 1, 3, 10 (15 of each class's 30 cards kept fresh)", c.Name, c.X)
		}
	}
	pa, p11, p12 := param(data, "P_a, "), param(data, "P_c11, "), param(data, "P_c12, ")
	vs, va := param(data, "σ_s²"), param(data, "σ_a²")
	c3 := vs + va/(pa*256)
	if want := math.Erfc(-(p11-p12)/math.Sqrt(c3)/math.Sqrt2) / 2; math.Abs(param(data, "limit")-want) > 1e-6 {
		t.Errorf("--data: limit %.6f; Φ(c1/√c3) of the printed parameters is %.6f", param(data, "limit"), want)
	}
	if want := math.Erfc(-(p11-p12)/math.Sqrt(vs)/math.Sqrt2) / 2; math.Abs(param(data, "ceiling")-want) > 1e-6 {
		t.Errorf("--data: ceiling %.6f; Φ(c1/√σ_s²) of the printed parameters is %.6f", param(data, "ceiling"), want)
	}
	for _, bad := range [][]string{
		{"curves", "--figure", "pr58-11", "--task", "leftright"},
		{"curves", "--task", "leftright", "--n", "10"},
		{"curves"},
	} {
		if code, _, errs := run(t, dir, bad...); code != 2 {
			t.Errorf("%v: exit %d (%s); want 2", bad, code, errs)
		}
	}
}
