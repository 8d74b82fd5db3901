package images

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTasks(t *testing.T) {
	tasks := Tasks()
	if tasks[0].Name != "leftright" {
		t.Errorf("first task %q; want leftright", tasks[0].Name)
	}
	seen := map[string]bool{}
	for _, ti := range tasks {
		if seen[ti.Name] {
			t.Errorf("task %q listed twice", ti.Name)
		}
		seen[ti.Name] = true
		if ti.Description == "" || len(ti.Classes) < 2 {
			t.Errorf("task %q: description %q, classes %q", ti.Name, ti.Description, ti.Classes)
		}
	}
	for _, name := range []string{"leftright", "shapes", "letters", "letters1", "e-f", "square-circle"} {
		if !seen[name] {
			t.Errorf("task %q missing", name)
		}
	}
	// Callers may not change the table through the returned slices.
	tasks[0].Classes[0] = "changed"
	if Tasks()[0].Classes[0] != "left" {
		t.Error("Tasks returned shared class slices")
	}
}

// TestGenerate checks every task: sizes, labels, counts, ink on every card
// and white paper around it, and reproducibility from the seed.
func TestGenerate(t *testing.T) {
	for _, ti := range Tasks() {
		t.Run(ti.Name, func(t *testing.T) {
			const per, size = 5, 20
			d, err := Generate(ti.Name, per, size, 42)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Classes, ti.Classes) {
				t.Errorf("classes %q; want %q", d.Classes, ti.Classes)
			}
			for c, n := range d.Counts() {
				if n != per {
					t.Errorf("class %s: %d samples; want %d", d.Classes[c], n, per)
				}
			}
			for i, s := range d.Samples {
				if s.Label != i%len(d.Classes) {
					t.Errorf("sample %d: label %d; want %d (interleaved)", i, s.Label, i%len(d.Classes))
				}
				if got := s.Image.Rect.Size(); got.X != size || got.Y != size {
					t.Errorf("%s: size %v; want %dx%d", s.Source, got, size, size)
				}
				ink, paper := 0, 0
				for _, v := range s.Image.Pix {
					switch {
					case v < 128:
						ink++
					case v == 255:
						paper++
					}
				}
				if ink < 5 || paper < 2*size {
					t.Errorf("%s: %d dark pixels and %d white; want ink on a white card", s.Source, ink, paper)
				}
				// Corners stay white: the figure lies inside the card.
				if ti.Name != "leftright" && s.Image.Pix[0] != 255 && s.Image.Pix[size*size-1] != 255 {
					t.Errorf("%s: two corners inked", s.Source)
				}
			}
			again, err := Generate(ti.Name, per, size, 42)
			if err != nil {
				t.Fatal(err)
			}
			other, err := Generate(ti.Name, per, size, 43)
			if err != nil {
				t.Fatal(err)
			}
			same, differ := true, false
			for i := range d.Samples {
				same = same && bytes.Equal(d.Samples[i].Image.Pix, again.Samples[i].Image.Pix)
				differ = differ || !bytes.Equal(d.Samples[i].Image.Pix, other.Samples[i].Image.Pix)
			}
			if !same {
				t.Error("same seed gave different pixels")
			}
			if !differ && ti.Name != "letters1" && ti.Name != "mp-four" { // cards without randomness
				t.Error("seeds 42 and 43 gave identical sets")
			}
		})
	}
}

// TestGeneratePrefix checks that asking for more samples adds to the set
// without changing the samples already there.
func TestGeneratePrefix(t *testing.T) {
	small, err := Generate("letters", 2, 16, 5)
	if err != nil {
		t.Fatal(err)
	}
	big, err := Generate("letters", 3, 16, 5)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range small.Samples {
		if !bytes.Equal(s.Image.Pix, big.Samples[i].Image.Pix) {
			t.Fatalf("sample %d differs between perClass 2 and 3", i)
		}
	}
}

// TestLeftRight checks the one fact the 1958 task rests on: the ink of a
// "left" card lies in the left half, and of a "right" card in the right.
func TestLeftRight(t *testing.T) {
	for _, size := range []int{8, 20, 21, 64} {
		d, err := Generate("leftright", 50, size, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Samples {
			right := d.Classes[s.Label] == "right"
			for y := range size {
				for x := range size {
					if s.Image.GrayAt(x, y).Y == 255 {
						continue
					}
					if right && x < size-size/2 || !right && x >= size/2 {
						t.Fatalf("size %d, %s (%s): ink at (%d,%d)", size, s.Source, d.Classes[s.Label], x, y)
					}
				}
			}
		}
	}
}

// TestLetters1 checks that letters1 repeats one card per letter.
func TestLetters1(t *testing.T) {
	d, err := Generate("letters1", 3, 20, 9)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range d.Samples[26:] {
		if !bytes.Equal(s.Image.Pix, d.Samples[i].Image.Pix) {
			t.Fatalf("%s differs from %s", s.Source, d.Samples[i].Source)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	tests := []struct {
		task           string
		perClass, size int
		msg            string
	}{
		{"nope", 1, 20, `unknown task "nope"; the tasks are leftright, shapes,`},
		{"letters", 0, 20, "0 samples per class; want at least 1"},
		{"letters", 1, 7, "card size 7; want 8 to 4096 pixels"},
		{"letters", 1, 5000, "card size 5000"},
		{"shapes", 1 << 40, 20, "exceeds the limit"},
		{"shapes", 100000, 1000, "exceed the limit"},
	}
	for _, tt := range tests {
		_, err := Generate(tt.task, tt.perClass, tt.size, 1)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Generate(%q, %d, %d): %v; want an error saying %q", tt.task, tt.perClass, tt.size, err, tt.msg)
		}
	}
}

func TestContactSheet(t *testing.T) {
	d, err := Generate("e-f", 3, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	sheet := ContactSheet(d, 2, 3)
	// 2 columns, 3 rows of 10×3 = 30-pixel cells with 3-pixel gaps.
	if got, want := sheet.Rect.Size(), (struct{ X, Y int }{2*33 + 3, 3*33 + 3}); got.X != want.X || got.Y != want.Y {
		t.Errorf("sheet %v; want %v", got, want)
	}
	if got := sheet.GrayAt(0, 0).Y; got != 128 {
		t.Errorf("gap grey %d; want 128", got)
	}
	// The cell of sample 1 (row 0, column 1) starts at (36, 3).
	if got, want := sheet.GrayAt(36+3*4, 3+3*5).Y, d.Samples[1].Image.GrayAt(4, 5).Y; got != want {
		t.Errorf("magnified pixel %d; want %d", got, want)
	}
	if ContactSheet(&Dataset{}, 0, 1) != nil {
		t.Error("sheet of an empty set is not nil")
	}
}

func BenchmarkGenerate(b *testing.B) {
	for _, task := range []string{"leftright", "shapes", "letters"} {
		b.Run(task, func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(task, 10, 20, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLetters1960Distinct checks that the 1960 deck's cards are genuinely
// different cards: no two cards of letters1960 (nor of its one-typeface
// decks, nor across them) are pixel copies, so however the deck is split,
// no held-out card is a copy of a training card — unlike letters1, whose
// cards of a letter are all one card (TestLetters1).
func TestLetters1960Distinct(t *testing.T) {
	seen := map[string]string{}
	for _, task := range []string{"letters1960", "letters1960-regular", "letters1960-mono"} {
		d, err := Generate(task, 40, 20, 1960)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Samples {
			// letters1960's even cards are Go Regular and its odd ones Go
			// Mono, drawn from different streams than the one-typeface
			// decks: all 3 × 1,040 cards must differ.
			k := string(s.Image.Pix)
			if prev, ok := seen[k]; ok {
				t.Fatalf("%s is a pixel copy of %s", s.Source, prev)
			}
			seen[k] = s.Source
		}
		train, test := d.Split(0.25, 7)
		inTrain := map[string]bool{}
		for _, s := range train.Samples {
			inTrain[string(s.Image.Pix)] = true
		}
		for _, s := range test.Samples {
			if inTrain[string(s.Image.Pix)] {
				t.Fatalf("%s: held-out %s is a copy of a training card", task, s.Source)
			}
		}
	}
}

// TestLetters1960Holder checks the holder's placement against the centred
// card (letters1) of the same letter: a Go Regular card of the deck differs
// from it by at most 95% of the letter's ink (a shift under a pixel and a
// 2° tilt; 42% on average), whereas the jittered letters task, shifted two
// pixels and scaled ±15%, goes beyond that.
func TestLetters1960Holder(t *testing.T) {
	const size, bound = 20, 0.95
	centred, err := Generate("letters1", 1, size, 3)
	if err != nil {
		t.Fatal(err)
	}
	// worst returns the largest relative ink difference from the centred
	// card over the Go Regular cards (even card numbers) of a task.
	worst := func(task string) float64 {
		d, err := Generate(task, 20, size, 3)
		if err != nil {
			t.Fatal(err)
		}
		w := 0.0
		for i, s := range d.Samples {
			if (i/26)%2 == 1 && task != "letters1960-regular" {
				continue
			}
			c := centred.Samples[s.Label].Image.Pix
			var diff, ink float64
			for p := range c {
				diff += math.Abs(float64(s.Image.Pix[p])-float64(c[p])) / 255
				ink += float64(255-c[p]) / 255
			}
			if diff == 0 {
				t.Errorf("%s: %s is the centred card itself", task, s.Source)
			}
			w = max(w, diff/ink)
		}
		return w
	}
	for _, task := range []string{"letters1960", "letters1960-regular"} {
		if w := worst(task); w > bound {
			t.Errorf("%s: a card differs from the centred letter by %.0f%% of its ink; the holder allows %.0f%%", task, 100*w, 100*bound)
		}
	}
	if w := worst("letters"); w <= bound {
		t.Errorf("jittered letters stay within %.0f%% of the centred card; the test cannot tell the holder from the jitter", 100*w)
	}
}
