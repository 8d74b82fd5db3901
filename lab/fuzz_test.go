package lab

import (
	"context"
	"encoding/json"
	"math"
	"testing"
)

// FuzzRun feeds arbitrary points and settings (as the lab page sends them)
// to NewExample, Start and Frame: bad input is an error, never a panic, and
// every frame of a run that starts encodes as JSON and decodes to the same
// frame (no NaN or infinity slips through).
func FuzzRun(f *testing.F) {
	f.Add(`[[-1,2,-1],[1,0,1],[1,1,1],[-1,0,-1],[-1,-2,-1],[1,-1,1]]`, `{}`, 3)
	f.Add(`[[1,1,1],[2,2,1],[-1,-1,-1]]`, `{"learner":"svm","hard":true}`, -1)
	f.Add(`[[1,1,1],[-1,1,-1],[1,-1,-1],[-1,-1,1]]`, `{"learner":"kernel-perceptron","kernel":"poly:d=2,gamma=1"}`, 2)
	f.Add(`[[1,1,1],[2,0.5,-1]]`, `{"learner":"batch-gd","bias":true,"line_search":true,"eps":0.3}`, 1)
	f.Add(`[[0,0,1],[0,0,-1]]`, `{"learner":"perceptron","bias":true,"shuffle":true,"seed":7}`, 0)
	f.Fuzz(func(t *testing.T, points, setup string, frame int) {
		var pts [][3]float64
		var s Setup
		if json.Unmarshal([]byte(points), &pts) != nil || json.Unmarshal([]byte(setup), &s) != nil || len(pts) > 50 {
			return
		}
		s.MaxEpochs = min(max(s.MaxEpochs, 0), 20)
		x := make([][]float64, len(pts))
		y := make([]int, len(pts))
		for i, p := range pts {
			if math.Abs(p[0]) > 1e6 || math.Abs(p[1]) > 1e6 {
				return
			}
			x[i] = []float64{p[0], p[1]}
			y[i] = int(p[2])
		}
		e, err := NewExample("fuzz", x, y)
		if err != nil {
			return
		}
		r, err := Start(context.Background(), e, s)
		if err != nil {
			return
		}
		fr, err := r.Frame(min(max(frame, -1), r.Frames()), 16, 0)
		if err != nil {
			t.Fatalf("Frame: %v", err)
		}
		b, err := json.Marshal(fr)
		if err != nil {
			t.Fatalf("frame does not encode: %v", err)
		}
		var back Frame
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(&back)
		if string(again) != string(b) {
			t.Fatalf("frame changes in a JSON round trip")
		}
	})
}
