package dials

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/gif"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/internal/base/param"
)

func TestPanelGolden512(t *testing.T) {
	m, _ := trained(t, "worn", "shapes", 0, 5, false)
	// Drive two pots against their stops so the marks show.
	for range 120 {
		m.Bank.Pulse(3, 1)
		m.Bank.Pulse(300, -1)
	}
	if m.Bank.Len() != 512 {
		t.Fatalf("%d pots; want 512", m.Bank.Len())
	}
	goldenImage(t, "panel512.png", Panel(m, PanelOptions{}))
}

func TestPanelGolden4096(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 4,096 dials")
	}
	m, _ := trained(t, "full", "letters", 8, 3, true)
	if got := m.Bank.Len(); got != 4096+8 {
		t.Fatalf("%d pots; want 4,096 and 8 bias pots", got)
	}
	goldenImage(t, "panel4096.png", Panel(m, PanelOptions{}))
}

func TestWeightMapsGolden(t *testing.T) {
	m, _ := trained(t, "mark1", "shapes", 0, 8, false)
	goldenImage(t, "weights.png", WeightMaps(m))
}

func TestRetinaViewGolden(t *testing.T) {
	m, d := trained(t, "mark1", "shapes", 0, 8, false)
	card := d.Samples[1].Image
	goldenImage(t, "retina.png", RetinaView(m, card, present(m, m.Retina.Fit(nil, card))))
}

func TestCurvesGolden(t *testing.T) {
	m, _ := trained(t, "mark1", "shapes", 0, 8, false)
	d, err := Curves(m)
	if err != nil {
		t.Fatal(err)
	}
	goldenImage(t, "curves.png", d)
	m.History = nil
	if _, err := Curves(m); err != ErrNoHistory {
		t.Errorf("Curves of an untrained machine: error %v; want ErrNoHistory", err)
	}
}

func TestTextGolden(t *testing.T) {
	m, _ := trained(t, "worn", "shapes", 0, 3, false)
	for range 120 {
		m.Bank.Pulse(3, 1)
	}
	pots := Pots(m)[:12]
	var b bytes.Buffer
	if err := WriteTable(&b, pots); err != nil {
		t.Fatal(err)
	}
	golden(t, "table.txt", b.Bytes())
	b.Reset()
	if err := WriteCSV(&b, pots); err != nil {
		t.Fatal(err)
	}
	golden(t, "table.csv", b.Bytes())
	b.Reset()
	if err := WriteSummary(&b, Summarize(m, 8)); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary.txt", b.Bytes())
	b.Reset()
	if err := WriteJSON(&b, Summarize(m, 4), pots[:3]); err != nil {
		t.Fatal(err)
	}
	golden(t, "pots.json", b.Bytes())
}

func TestSummarize(t *testing.T) {
	m, _ := trained(t, "mark1", "shapes", 0, 0, false)
	for range 200 {
		m.Bank.Pulse(0, 1)
		m.Bank.Pulse(1, -1)
	}
	m.Bank.SetStuck(5, true)
	s := Summarize(m, 10)
	if s.AtHigh != 1 || s.AtLow != 1 || s.Stuck != 1 || s.Pots != 512 {
		t.Errorf("summary %+v; want 1 pot at each stop, 1 stuck, 512 pots", s)
	}
	total := 0
	for _, c := range s.Histogram.Counts {
		total += c
	}
	if total != 512 || s.Histogram.Counts[0] != 1 || s.Histogram.Counts[9] != 1 {
		t.Errorf("histogram %v; want 512 pots with one in each end bin", s.Histogram.Counts)
	}
	if s.Pulses != 400 {
		t.Errorf("pulses %d; want 400", s.Pulses)
	}
}

func TestSortPots(t *testing.T) {
	m, _ := trained(t, "worn", "shapes", 0, 3, false)
	for _, key := range SortKeys() {
		for _, desc := range []bool{false, true} {
			pots := Pots(m)
			if err := SortPots(pots, key, desc); err != nil {
				t.Fatal(err)
			}
			if len(pots) != 512 {
				t.Fatalf("sort %s lost pots", key)
			}
		}
	}
	pots := Pots(m)
	SortPots(pots, "position", true)
	for i := 1; i < len(pots); i++ {
		if pots[i].Position > pots[i-1].Position {
			t.Fatalf("sort by position, descending: pot %d at %v after %v", i, pots[i].Position, pots[i-1].Position)
		}
	}
	SortPots(pots, "stuck", false)
	if !pots[0].Stuck {
		t.Errorf("sort by stuck: first pot not stuck")
	}
	if err := SortPots(pots, "colour", false); err == nil || !strings.Contains(err.Error(), "position") {
		t.Errorf("unknown key: error %v; want one listing the keys", err)
	}
}

// TestWeightMapOnePot checks the projection against a hand computation:
// with one non-zero value, the map is +v on the A-unit's excitatory origin
// points and −v on its inhibitory ones.
func TestWeightMapOnePot(t *testing.T) {
	m, _ := trained(t, "ideal", "shapes", 0, 0, false)
	a := 7
	r := m.Layer.SourceSet(a)
	m.Bank.Pulse(m.Layer.Pot(a, r), 3)
	v := m.Bank.Values()[m.Layer.Pot(a, r)]
	want := make([]float64, m.Plugboard.Cells())
	for _, s := range m.Plugboard.Units[a].Excitatory {
		want[s] += v
	}
	for _, s := range m.Plugboard.Units[a].Inhibitory {
		want[s] -= v
	}
	got := WeightMap(m, r)
	for s := range want {
		if math.Abs(got[s]-want[s]) > 1e-12 {
			t.Fatalf("w[%d] = %v; want %v", s, got[s], want[s])
		}
	}
}

func TestRecordAnimate(t *testing.T) {
	m, d := trained(t, "mark1", "shapes", 0, 0, false)
	dir := filepath.Join(t.TempDir(), "rec")
	rec, err := NewRecorder(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewRecorder(dir, m); err == nil {
		t.Errorf("a second recorder in the same folder: no error")
	}
	m2, _ := trained(t, "mark1", "shapes", 0, 0, false)
	_ = d
	for e := 1; e <= 3; e++ {
		for i := range 50 {
			m2.Bank.Pulse(i, e)
		}
		if err := rec.Snapshot(m2, epochRecord(e)); err != nil {
			t.Fatal(err)
		}
	}
	mm, frames, err := LoadRecording(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 4 || frames[3].Epoch != 3 || frames[0].Record != nil {
		t.Fatalf("%d frames, last epoch %d; want epochs 0 to 3", len(frames), frames[len(frames)-1].Epoch)
	}
	if got, want := float64(frames[3].Positions[0]), m2.Bank.Position(0); math.Abs(got-want) > 1e-6 {
		t.Errorf("recorded position %v; want %v", got, want)
	}
	g, err := Animate(context.Background(), mm, frames, AnimateOptions{Panel: PanelOptions{Width: 700, Height: 500}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	back, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Image) != 4 {
		t.Errorf("%d GIF frames; want 4", len(back.Image))
	}
	if _, _, err := LoadRecording(t.TempDir(), 0); err == nil || !strings.Contains(err.Error(), "not a recording") {
		t.Errorf("empty folder: error %v; want \"not a recording\"", err)
	}

	// Memory bounds, checked before the frames are drawn: 4 frames of
	// the panel take at most 4 × w × h bytes.
	w, h := g.Image[0].Bounds().Dx(), g.Image[0].Bounds().Dy()
	need := int64(4 * w * h)
	opt := AnimateOptions{Panel: PanelOptions{Width: 700, Height: 500}, MaxBytes: need - 1}
	if _, err := Animate(context.Background(), mm, frames, opt); !errors.Is(err, dataset.ErrTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf("4 frames of %d×%d pixels", w, h)) {
		t.Errorf("animation over its bound: error %v; want dataset.ErrTooLarge with the numbers", err)
	}
	opt.MaxBytes = need
	if _, err := Animate(context.Background(), mm, frames, opt); err != nil {
		t.Errorf("animation at its bound: %v", err)
	}
	// Every: the first frame, every n-th after it, and the last; the
	// bound counts the frames kept.
	for _, c := range []struct {
		every int
		want  []int // epochs
	}{{0, []int{0, 1, 2, 3}}, {1, []int{0, 1, 2, 3}}, {2, []int{0, 2, 3}}, {3, []int{0, 3}}, {4, []int{0, 3}}, {10, []int{0, 3}}} {
		opt := AnimateOptions{Panel: PanelOptions{Width: 700, Height: 500}, Every: c.every, MaxBytes: int64(len(c.want) * w * h)}
		g, err := Animate(context.Background(), mm, frames, opt)
		if err != nil {
			t.Errorf("every %d: %v", c.every, err)
			continue
		}
		if len(g.Image) != len(c.want) {
			t.Errorf("every %d: %d frames; want %d (epochs %v)", c.every, len(g.Image), len(c.want), c.want)
		}
		var got []int
		for _, f := range everyNth(frames, max(c.every, 1)) {
			got = append(got, f.Epoch)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("every %d: epochs %v; want %v", c.every, got, c.want)
		}
	}
	// ... and before the frames are read: 100 epoch files of 512 pots
	// hold 204,800 bytes of positions (the machine file, about 70 kB, fits
	// either bound).
	for e := 4; e < 100; e++ {
		if err := rec.Snapshot(m2, epochRecord(e)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := LoadRecording(dir, 204_799); !errors.Is(err, dataset.ErrTooLarge) || !strings.Contains(err.Error(), "100 epoch files of 512 pots would take about 204800 bytes") {
		t.Errorf("recording over its bound: error %v; want dataset.ErrTooLarge with the numbers", err)
	}
	if _, fr, err := LoadRecording(dir, 204_800); err != nil || len(fr) != 100 {
		t.Errorf("recording at its bound: %d frames, error %v", len(fr), err)
	}
}

// TestAnimateOptionsValidate holds AnimateOptions' range for Every in its
// own words: 0 and 1 keep every frame, MaxEvery is the most, and Animate
// refuses what Validate refuses.
func TestAnimateOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		every int
		ok    bool
	}{{0, true}, {1, true}, {MaxEvery, true}, {-1, false}, {MaxEvery + 1, false}} {
		err := AnimateOptions{Every: c.every}.Validate()
		var f *param.FieldError
		switch {
		case c.ok && err != nil:
			t.Errorf("Every %d: %v", c.every, err)
		case !c.ok && (!errors.As(err, &f) || f.Field != "every" || f.Value != fmt.Sprint(c.every)):
			t.Errorf("Every %d: %v; want the field error of every", c.every, err)
		}
	}
	if _, err := Animate(context.Background(), nil, nil, AnimateOptions{Every: -1}); param.As(err) == nil {
		t.Errorf("Animate with Every -1: %v; want the field error", err)
	}
}

// TestAnimateOptionsValidateRanges holds the other ranges of
// AnimateOptions (its panel's size and the delay) and the histogram's bins
// in their own words, at and just past each bound; Animate refuses what
// Validate refuses, and Panel and Summarize draw at the bound.
func TestAnimateOptionsValidateRanges(t *testing.T) {
	for _, c := range []struct {
		opt   AnimateOptions
		field string // "" when valid
		value int
	}{
		{AnimateOptions{}, "", 0},
		{AnimateOptions{Delay: 1}, "", 0},
		{AnimateOptions{Delay: MaxDelay}, "", 0},
		{AnimateOptions{Delay: -1}, "delay", -1},
		{AnimateOptions{Delay: MaxDelay + 1}, "delay", MaxDelay + 1},
		{AnimateOptions{Panel: PanelOptions{Width: MaxPanelSize, Height: MaxPanelSize}}, "", 0},
		{AnimateOptions{Panel: PanelOptions{Width: -1}}, "panel.width", -1},
		{AnimateOptions{Panel: PanelOptions{Height: MaxPanelSize + 1}}, "panel.height", MaxPanelSize + 1},
	} {
		err := c.opt.Validate()
		f := param.As(err)
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v: %v", c.opt, err)
		case c.field != "" && (f == nil || f.FieldName() != c.field || f.FieldValue() != fmt.Sprint(c.value)):
			t.Errorf("%+v: %v; want the field error of %s", c.opt, err, c.field)
		}
		if c.field != "" {
			if _, err := Animate(context.Background(), nil, nil, c.opt); param.As(err) == nil {
				t.Errorf("Animate with %+v: %v; want the field error", c.opt, err)
			}
		}
	}
	for _, c := range []struct {
		bins int
		ok   bool
	}{{0, true}, {1, true}, {MaxBins, true}, {-1, false}, {MaxBins + 1, false}} {
		err := ValidateBins(c.bins)
		f := param.As(err)
		if c.ok != (err == nil) || !c.ok && (f == nil || f.FieldName() != "bins" || f.FieldValue() != fmt.Sprint(c.bins)) {
			t.Errorf("ValidateBins(%d): %v", c.bins, err)
		}
	}
	m, _ := trained(t, "mark1", "shapes", 0, 0, false)
	if n := len(Summarize(m, MaxBins+5).Histogram.Counts); n != MaxBins {
		t.Errorf("Summarize with %d bins: %d bins, want %d", MaxBins+5, n, MaxBins)
	}
	if w, h := (PanelOptions{Width: 3 * MaxPanelSize, Height: 3 * MaxPanelSize}).size(10); w != MaxPanelSize || h != MaxPanelSize {
		t.Errorf("panel size over the bound: %dx%d, want %dx%d", w, h, MaxPanelSize, MaxPanelSize)
	}
}
