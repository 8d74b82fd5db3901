package machine

import (
	"context"
	"errors"
	"testing"

	"mark1/images"
)

// TestMeasureCardsStops: a cancelled context stops MeasureCards between
// blocks of cards, and an uncancelled one measures every card, its bins
// adding up to them.
func TestMeasureCardsStops(t *testing.T) {
	cfg, _ := Preset("mark1")
	d, err := images.Generate("leftright", 20, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(cfg, d.Classes, SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	fields := m.Fit(d)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := MeasureCards(ctx, m, fields, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v; want context.Canceled", err)
	}
	r, err := MeasureCards(context.Background(), m, fields, 2)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range r.Bins {
		n += b.Cards
	}
	if len(r.Cards) != 40 || n != 40 || r.Same == nil || r.Other == nil || r.Criterion == nil {
		t.Errorf("%d cards, %d in bins, P_c %v %v", len(r.Cards), n, r.Same, r.Other)
	}
}
