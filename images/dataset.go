package images

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"image"
	"slices"

	"mark1/dataset"
)

// Sample is one labelled picture.
type Sample struct {
	// Image holds the picture's grey levels as they were read: 0 is black,
	// 255 white. It can be any size; the retina fits it onto its grid.
	Image *image.Gray
	// Label indexes the data set's Classes.
	Label int
	// Source names where the sample came from, for messages: a file path,
	// "file.idx[12]" or "file.txt:34" or "task letters #5".
	Source string
}

// Dataset is a labelled set of pictures with the names of its classes.
type Dataset struct {
	// Name says where the set came from: a path or a task name.
	Name string
	// Classes are the class names; a sample's Label indexes this slice.
	Classes []string
	Samples []Sample
}

// Len returns the number of samples.
func (d *Dataset) Len() int { return len(d.Samples) }

// Relabel renumbers d's samples onto the given classes by name, as
// dataset.Set.Relabel does for numeric data, and makes them d's classes.
// It returns an error naming the first class of d that is not among them,
// and leaves d unchanged then.
func (d *Dataset) Relabel(classes []string) error {
	idx := make(map[string]int, len(classes))
	for i, c := range classes {
		idx[c] = i
	}
	to := make([]int, len(d.Classes))
	for i, c := range d.Classes {
		j, ok := idx[c]
		if !ok {
			return fmt.Errorf("%s: class %q is not among %v", d.Name, c, classes)
		}
		to[i] = j
	}
	for i := range d.Samples {
		d.Samples[i].Label = to[d.Samples[i].Label]
	}
	d.Classes = slices.Clone(classes)
	return nil
}

// Counts returns the number of samples in each class. Samples whose label
// is out of range (see Validate) are not counted.
func (d *Dataset) Counts() []int {
	n := make([]int, len(d.Classes))
	for _, s := range d.Samples {
		if s.Label >= 0 && s.Label < len(n) {
			n[s.Label]++
		}
	}
	return n
}

// Validate checks that the set is usable for training: at least one sample,
// every label in range, at least two classes present, and no nil image.
func (d *Dataset) Validate() error {
	if len(d.Samples) == 0 {
		return fmt.Errorf("%s: no samples", d.Name)
	}
	for _, s := range d.Samples {
		if s.Label < 0 || s.Label >= len(d.Classes) {
			return fmt.Errorf("%s: label %d out of range [0, %d)", s.Source, s.Label, len(d.Classes))
		}
		if s.Image == nil || s.Image.Rect.Empty() {
			return fmt.Errorf("%s: empty image", s.Source)
		}
	}
	present := 0
	for _, n := range d.Counts() {
		if n > 0 {
			present++
		}
	}
	if present < 2 {
		return fmt.Errorf("%s: only one class present (%d samples); a classifier needs at least two", d.Name, len(d.Samples))
	}
	return nil
}

// Split divides the set into a training part and a held-out part holding
// about frac of each class (stratified), in an order drawn from seed. Each
// class with at least two samples keeps at least one sample on each side.
// The same seed gives the same split. Both parts keep the samples in the
// order they have in d (presentation order is the learner's business). It
// panics if frac is not in [0, 1) or a label is out of range (see Validate).
func (d *Dataset) Split(frac float64, seed uint64) (train, test *Dataset) {
	if !(frac >= 0 && frac < 1) {
		panic("images: split fraction out of [0, 1)")
	}
	labels := make([]int, len(d.Samples))
	for i, s := range d.Samples {
		if s.Label < 0 || s.Label >= len(d.Classes) {
			panic(fmt.Sprintf("images: Split: %s: label %d out of range [0, %d)", s.Source, s.Label, len(d.Classes)))
		}
		labels[i] = s.Label
	}
	held := dataset.Holdout(labels, len(d.Classes), frac, seed)
	train = &Dataset{Name: d.Name + " (train)", Classes: d.Classes}
	test = &Dataset{Name: d.Name + " (test)", Classes: d.Classes}
	for i, s := range d.Samples {
		if held[i] {
			test.Samples = append(test.Samples, s)
		} else {
			train.Samples = append(train.Samples, s)
		}
	}
	return train, test
}

// CardDigestBytes is the size of one card's digest in CardDigests.
const CardDigestBytes = 4

// MaxCardDigests bounds the cards CardDigests describes: 1,048,576 cards
// take 4 MiB.
const MaxCardDigests = 1 << 20

// CardDigests returns a short digest of each sample, CardDigestBytes
// bytes each in the samples' order: the first bytes of the SHA-256 of its
// label, its picture's size and its grey levels (as Fingerprint reads
// them). It returns nil for a set of more than MaxCardDigests samples.
// The digests do not prove that two sets are the same (Fingerprint does);
// they find which card differs when they are not: FirstDifferent.
// A 60,000-picture folder takes 240 kB.
func (d *Dataset) CardDigests() []byte {
	if len(d.Samples) > MaxCardDigests {
		return nil
	}
	out := make([]byte, 0, len(d.Samples)*CardDigestBytes)
	h := sha256.New()
	var sum [sha256.Size]byte
	for _, s := range d.Samples {
		h.Reset()
		writeSample(h, s)
		out = append(out, h.Sum(sum[:0])[:CardDigestBytes]...)
	}
	return out
}

// FirstDifferent returns the index of the first sample whose digest is not
// the one digests (from CardDigests) records for its place, or -1 if there
// is none or digests does not describe as many samples as d has.
func (d *Dataset) FirstDifferent(digests []byte) int {
	if len(digests) != len(d.Samples)*CardDigestBytes {
		return -1
	}
	h := sha256.New()
	var sum [sha256.Size]byte
	for i, s := range d.Samples {
		h.Reset()
		writeSample(h, s)
		if !bytes.Equal(h.Sum(sum[:0])[:CardDigestBytes], digests[i*CardDigestBytes:(i+1)*CardDigestBytes]) {
			return i
		}
	}
	return -1
}

// writeSample writes a sample's label, its picture's size and its grey
// levels to h, row by row.
func writeSample(h hash.Hash, s Sample) {
	var b [8]byte
	word := func(v int) {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	word(s.Label)
	if s.Image == nil {
		word(-1)
		return
	}
	r := s.Image.Rect
	word(r.Dx())
	word(r.Dy())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := s.Image.PixOffset(r.Min.X, y)
		h.Write(s.Image.Pix[i : i+r.Dx()])
	}
}

// Fingerprint returns "sha256:" and the hex SHA-256 of the set's contents:
// its class names and, for each sample in order, its label and its
// picture's size and grey levels (as decoded, so the same pixels saved in
// another format give the same fingerprint). Names and Sources are left
// out: the same cards read from a moved folder have the same fingerprint.
func (d *Dataset) Fingerprint() string {
	h := sha256.New()
	var b [8]byte
	word := func(v int) {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	word(len(d.Classes))
	for _, c := range d.Classes {
		word(len(c))
		h.Write([]byte(c))
	}
	word(len(d.Samples))
	for _, s := range d.Samples {
		writeSample(h, s)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
