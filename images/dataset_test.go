package images

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"image"
	"slices"
	"strings"
	"testing"
)

// toySet has n[c] samples of class c, each image 1x1 holding its index.
func toySet(n ...int) *Dataset {
	d := &Dataset{Name: "toy"}
	for c, k := range n {
		d.Classes = append(d.Classes, string(rune('a'+c)))
		for range k {
			g := image.NewGray(image.Rect(0, 0, 1, 1))
			g.Pix[0] = uint8(len(d.Samples))
			d.Samples = append(d.Samples, Sample{Image: g, Label: c})
		}
	}
	return d
}

func ids(d *Dataset) []int {
	var out []int
	for _, s := range d.Samples {
		out = append(out, int(s.Image.Pix[0]))
	}
	return out
}

func TestSplit(t *testing.T) {
	tests := []struct {
		counts    []int
		frac      float64
		testCount []int
	}{
		{[]int{10, 20}, 0.2, []int{2, 4}},
		{[]int{10, 20}, 0, []int{0, 0}},
		{[]int{2, 3}, 0.01, []int{1, 1}}, // at least one of each class held out
		{[]int{2, 3}, 0.99, []int{1, 2}}, // and at least one kept for training
		{[]int{1, 5}, 0.5, []int{0, 3}},  // a lone sample stays in training; 2.5 rounds to 3
	}
	for _, tt := range tests {
		d := toySet(tt.counts...)
		train, test := d.Split(tt.frac, 7)
		if got := test.Counts(); !slices.Equal(got, tt.testCount) {
			t.Errorf("counts %v, frac %v: held out %v; want %v", tt.counts, tt.frac, got, tt.testCount)
		}
		if !slices.IsSorted(ids(train)) || !slices.IsSorted(ids(test)) {
			t.Errorf("counts %v: parts not in the original order: %v %v", tt.counts, ids(train), ids(test))
		}
		all := append(ids(train), ids(test)...)
		slices.Sort(all)
		want := ids(d)
		if !slices.Equal(all, want) {
			t.Errorf("counts %v: train ∪ test = %v; want every sample once %v", tt.counts, all, want)
		}
		if !slices.Equal(train.Classes, d.Classes) || !strings.HasSuffix(test.Name, "(test)") {
			t.Errorf("split lost the classes or name: %q %q", train.Classes, test.Name)
		}
		// Reproducible.
		train2, test2 := d.Split(tt.frac, 7)
		if !slices.Equal(ids(train), ids(train2)) || !slices.Equal(ids(test), ids(test2)) {
			t.Errorf("counts %v: same seed, different split", tt.counts)
		}
	}
	d := toySet(50, 50)
	_, a := d.Split(0.3, 1)
	_, b := d.Split(0.3, 2)
	if slices.Equal(ids(a), ids(b)) {
		t.Error("seeds 1 and 2 gave the same split")
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for frac 1")
		}
	}()
	d.Split(1, 1)
}

func TestValidate(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 1, 1))
	tests := []struct {
		name string
		d    *Dataset
		msg  string // "" for valid
	}{
		{"valid", toySet(1, 1), ""},
		{"empty", &Dataset{Name: "e", Classes: []string{"a", "b"}}, "e: no samples"},
		{"one class present", toySet(3, 0), "toy: only one class present (3 samples)"},
		{"label out of range", &Dataset{Name: "x", Classes: []string{"a"}, Samples: []Sample{{Image: gray, Label: 1, Source: "s1"}}}, "s1: label 1 out of range [0, 1)"},
		{"nil image", &Dataset{Name: "x", Classes: []string{"a", "b"}, Samples: []Sample{{Label: 1, Source: "s0"}, {Image: gray}}}, "s0: empty image"},
	}
	for _, tt := range tests {
		err := tt.d.Validate()
		switch {
		case tt.msg == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.msg != "" && (err == nil || !strings.Contains(err.Error(), tt.msg)):
			t.Errorf("%s: got %v; want %q", tt.name, err, tt.msg)
		}
	}
	if got := toySet(2, 0, 3).Counts(); !slices.Equal(got, []int{2, 0, 3}) {
		t.Errorf("Counts = %v; want [2 0 3]", got)
	}
}

// TestRelabel: samples are renumbered onto other classes by name; a class
// that is not among them is refused, naming it, and d is left unchanged.
func TestRelabel(t *testing.T) {
	mk := func() *Dataset {
		return &Dataset{Name: "d", Classes: []string{"b", "a"}, Samples: []Sample{{Label: 0}, {Label: 1}, {Label: 0}}}
	}
	d := mk()
	if err := d.Relabel([]string{"a", "c", "b"}); err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, s := range d.Samples {
		got = append(got, s.Label)
	}
	if !slices.Equal(got, []int{2, 0, 2}) || !slices.Equal(d.Classes, []string{"a", "c", "b"}) {
		t.Errorf("labels %v, classes %v; want [2 0 2], [a c b]", got, d.Classes)
	}
	d = mk()
	err := d.Relabel([]string{"a"})
	if err == nil || err.Error() != `d: class "b" is not among [a]` {
		t.Errorf("error %v", err)
	}
	if !slices.Equal(d.Classes, []string{"b", "a"}) || d.Samples[1].Label != 1 {
		t.Errorf("a refused relabel changed d: %v %+v", d.Classes, d.Samples)
	}
}

// TestFingerprint: the fingerprint follows the contents (classes, labels,
// sizes, grey levels) and nothing else (names, sources, the stride of a
// sub-image).
func TestFingerprint(t *testing.T) {
	pic := func(v uint8) *image.Gray {
		g := image.NewGray(image.Rect(0, 0, 3, 2))
		for i := range g.Pix {
			g.Pix[i] = v + uint8(i)
		}
		return g
	}
	base := func() *Dataset {
		return &Dataset{Name: "a", Classes: []string{"x", "y"}, Samples: []Sample{{Image: pic(1), Label: 0, Source: "p1"}, {Image: pic(9), Label: 1, Source: "p2"}}}
	}
	want := base().Fingerprint()
	if !strings.HasPrefix(want, "sha256:") || len(want) != 7+64 {
		t.Fatalf("Fingerprint() = %q", want)
	}
	renamed := base()
	renamed.Name, renamed.Samples[0].Source = "b", "elsewhere"
	big := image.NewGray(image.Rect(0, 0, 5, 4)) // the same pixels inside a larger picture
	for y := range 2 {
		for x := range 3 {
			big.SetGray(x+1, y+1, pic(1).GrayAt(x, y))
		}
	}
	renamed.Samples[0].Image = big.SubImage(image.Rect(1, 1, 4, 3)).(*image.Gray)
	if got := renamed.Fingerprint(); got != want {
		t.Errorf("same contents, other names and stride: %s; want %s", got, want)
	}
	for name, edit := range map[string]func(d *Dataset){
		"a pixel":    func(d *Dataset) { d.Samples[1].Image.Pix[5]++ },
		"a label":    func(d *Dataset) { d.Samples[1].Label = 0 },
		"a class":    func(d *Dataset) { d.Classes[1] = "z" },
		"a size":     func(d *Dataset) { d.Samples[0].Image = image.NewGray(image.Rect(0, 0, 2, 3)) },
		"the order":  func(d *Dataset) { d.Samples[0], d.Samples[1] = d.Samples[1], d.Samples[0] },
		"one sample": func(d *Dataset) { d.Samples = d.Samples[:1] },
	} {
		d := base()
		edit(d)
		if d.Fingerprint() == want {
			t.Errorf("%s changed: the fingerprint did not", name)
		}
	}
}

// TestCardDigests: each card's digest is the first 4 bytes of the SHA-256
// of its label, width, height (64-bit little-endian words) and grey
// levels, and FirstDifferent names the first card that changed.
func TestCardDigests(t *testing.T) {
	d := &Dataset{Name: "a", Classes: []string{"x", "y"}}
	for i := range 5 {
		g := image.NewGray(image.Rect(0, 0, 3, 2))
		for j := range g.Pix {
			g.Pix[j] = uint8(10*i + j)
		}
		d.Samples = append(d.Samples, Sample{Image: g, Label: i % 2, Source: fmt.Sprintf("p%d", i)})
	}
	got := d.CardDigests()
	if len(got) != 5*CardDigestBytes {
		t.Fatalf("%d bytes of digests; want %d", len(got), 5*CardDigestBytes)
	}
	// Card 3 by hand.
	var buf []byte
	for _, v := range []uint64{1, 3, 2} {
		buf = binary.LittleEndian.AppendUint64(buf, v)
	}
	buf = append(buf, 30, 31, 32, 33, 34, 35)
	sum := sha256.Sum256(buf)
	if !bytes.Equal(got[3*CardDigestBytes:4*CardDigestBytes], sum[:CardDigestBytes]) {
		t.Errorf("card 3: digest %x; want %x", got[3*CardDigestBytes:4*CardDigestBytes], sum[:CardDigestBytes])
	}
	if i := d.FirstDifferent(got); i != -1 {
		t.Errorf("unchanged: FirstDifferent = %d; want -1", i)
	}
	d.Samples[4].Image.Pix[0]++
	d.Samples[2].Label = 1
	if i := d.FirstDifferent(got); i != 2 {
		t.Errorf("cards 2 and 4 changed: FirstDifferent = %d; want 2", i)
	}
	if i := d.FirstDifferent(got[:4*CardDigestBytes]); i != -1 {
		t.Errorf("digests of 4 cards for 5: FirstDifferent = %d; want -1", i)
	}
}
