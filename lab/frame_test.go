package lab

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestFrame checks the lab page's data for step 5 of the notes' trace
// against the trace and the geometry it is made of.
func TestFrame(t *testing.T) {
	e := mustFind(t, "notes-004")
	r, err := Start(context.Background(), e, Setup{})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := r.Frame(5, 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantPath := [][]float64{{0, 0}, {1, -2}, {2, -1}, {3, 1}}
	if !slices.EqualFunc(fr.Path, wantPath, slices.Equal[[]float64]) || !slices.Equal(fr.W, []float64{3, 1}) {
		t.Errorf("path %v, w %v; want %v", fr.Path, fr.W, wantPath)
	}
	if fr.Mark != 4 || !fr.Mistake || fr.Mistakes != 3 || fr.Frames != 13 || math.Abs(fr.Bound-5) > 1e-9 {
		t.Errorf("mark %d mistake %v, %d mistakes, %d frames, bound %v; want 4, true, 3, 13, 5", fr.Mark, fr.Mistake, fr.Mistakes, fr.Frames, fr.Bound)
	}
	wb := Box{fr.WBox[0], fr.WBox[1], fr.WBox[2], fr.WBox[3]}
	region, _ := FeasibleRegion(e, wb)
	if len(region) != len(fr.Feasible) {
		t.Fatalf("feasible %v; FeasibleRegion %v", fr.Feasible, region)
	}
	for i, p := range region {
		if fr.Feasible[i] != [2]float64{p.X, p.Y} {
			t.Errorf("feasible vertex %d: %v; want %v", i, fr.Feasible[i], p)
		}
	}
	// Grids: cell (c, r) holds the value at its centre.
	n := fr.Risk.N
	for _, cell := range [][2]int{{0, 0}, {7, 13}, {19, 19}, {10, 3}} {
		c, row := cell[0], cell[1]
		w := []float64{wb.X0 + (wb.X1-wb.X0)*(float64(c)+0.5)/float64(n), wb.Y0 + (wb.Y1-wb.Y0)*(float64(row)+0.5)/float64(n)}
		if got, want := fr.Risk.Z[row*n+c], Risk(e, false, w); math.Abs(got-want) > 1e-12 {
			t.Errorf("risk cell %v: %v; R(w) = %v", cell, got, want)
		}
		xb := fr.XBox
		x := []float64{xb[0] + (xb[1]-xb[0])*(float64(c)+0.5)/float64(n), xb[2] + (xb[3]-xb[2])*(float64(row)+0.5)/float64(n)}
		if got, want := fr.Decision.Z[row*n+c], 3*x[0]+x[1]; math.Abs(got-want) > 1e-12 {
			t.Errorf("decision cell %v: %v; w·x = %v", cell, got, want)
		}
	}
	if len(fr.Dual) != 6 || fr.Dual[0].Normal != [2]float64{-1, 2} || fr.Dual[0].Y != -1 {
		t.Errorf("dual lines %v", fr.Dual)
	}
	// The SVM's frame rings its support vectors and draws f = ±1.
	s, err := Start(context.Background(), mustFind(t, "pizza-001"), Setup{Learner: "svm", Hard: true})
	if err != nil {
		t.Fatal(err)
	}
	sf, err := s.Frame(-1, 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !sf.Band || !slices.Equal(sf.Ringed, s.SVM.Support) || sf.W != nil || !sf.Converged {
		t.Errorf("svm frame: band %v ringed %v (support %v) w %v converged %v", sf.Band, sf.Ringed, s.SVM.Support, sf.W, sf.Converged)
	}
}

// TestFrameWindow checks that a long trace reaches the page shortened
// around the frame, with its head and its end.
func TestFrameWindow(t *testing.T) {
	// Shuffled: in the given order the perceptron on overlap meets its
	// weights again and stops, cycling, well before step 400.
	r, err := Start(context.Background(), mustFind(t, "overlap"), Setup{MaxEpochs: 50, Shuffle: true})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := r.Frame(400, 8, 0)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(fr.Text, "\n")
	if len(lines) > 220 || !strings.HasPrefix(lines[0], "perceptron on overlap") || !strings.Contains(fr.Text, "\n  400 ") || strings.Contains(fr.Text, "\n  250 ") {
		t.Errorf("window around step 400: %d lines:\n%s", len(lines), fr.Text)
	}
	if !strings.Contains(lines[len(lines)-2], "no bound") && !strings.Contains(fr.Text, r.Perceptron.Status) {
		t.Errorf("the window lost the status:\n%s", strings.Join(lines[len(lines)-6:], "\n"))
	}
}
