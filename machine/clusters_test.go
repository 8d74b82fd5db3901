package machine

import (
	"context"
	"testing"

	"mark1/images"
	"mark1/response"
)

// TestClustersSpontaneous trains the Operators' Manual's third mode on
// left/right and measures the split against the hidden labels; a machine
// whose responses are the labels swapped has purity 1 and P_r 0.
func TestClustersSpontaneous(t *testing.T) {
	cfg, _ := Preset("mark1")
	cfg.Response.Code = response.OnePerClass
	d, _ := images.Generate("leftright", 20, 20, 1)
	m, err := New(cfg, d.Classes, SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := m.Fields(d)
	// By hand: response 0 for every right card and 1 for every left one.
	swapped := make([]int, len(f.Y))
	for i, y := range f.Y {
		swapped[i] = 1 - y
	}
	c := clustersFrom([][]int{{0, 20, 0}, {20, 0, 0}}, swapped)
	if c.Purity != 1 || c.Responses != 2 || c.Collapsed || c.Class[0] != 1 || c.Class[1] != 0 {
		t.Errorf("swapped labels: %+v; want purity 1, two responses, each the other's class", c)
	}
	if c := clustersFrom([][]int{{20, 0, 0}, {20, 0, 0}}, f.Y); !c.Collapsed || c.Purity != 0.5 || c.Responses != 1 {
		t.Errorf("one response for all: %+v; want collapsed, purity 0.5 (chance)", c)
	}
	s, err := NewSession(m, Recipe{Rule: Spontaneous, Pulses: 1, MaxEpochs: 10}, f, Fields{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	got := m.ClustersOf(f.X, f.Y)
	// By hand: each card presented, its response tallied against its label.
	tally := map[int]map[int]int{}
	var r Response
	for i, x := range f.X {
		m.Present(&r, x, m.EvalNoise())
		if tally[r.Class] == nil {
			tally[r.Class] = map[int]int{}
		}
		tally[r.Class][f.Y[i]]++
	}
	most, used := 0, 0
	for resp, by := range tally {
		if resp < 0 {
			continue
		}
		used++
		best := 0
		for _, n := range by {
			best = max(best, n)
		}
		most += best
	}
	if want := float64(most) / float64(len(f.Y)); got.Purity != want || got.Responses != used {
		t.Errorf("ClustersOf %+v; by hand purity %v with %d responses", got, want, used)
	}
	t.Logf("spontaneous on leftright: purity %.3f, %d responses, collapsed %v", got.Purity, got.Responses, got.Collapsed)
}
