package images

import (
	"image"
	"testing"
)

// components counts the 4-connected pieces of ink (pixels darker than mid
// grey) on g, by flood fill.
func components(g *image.Gray) int {
	b := g.Bounds()
	seen := make([]bool, b.Dx()*b.Dy())
	ink := func(x, y int) bool { return g.GrayAt(x, y).Y < 128 }
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !ink(x, y) || seen[y*b.Dx()+x] {
				continue
			}
			n++
			stack := [][2]int{{x, y}}
			seen[y*b.Dx()+x] = true
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					q := [2]int{p[0] + d[0], p[1] + d[1]}
					if q[0] < b.Min.X || q[1] < b.Min.Y || q[0] >= b.Max.X || q[1] >= b.Max.Y || !ink(q[0], q[1]) || seen[q[1]*b.Dx()+q[0]] {
						continue
					}
					seen[q[1]*b.Dx()+q[0]] = true
					stack = append(stack, q)
				}
			}
		}
	}
	return n
}

// TestFourFigures: X01 and X10 are one piece, X00 and X11 two, on every
// length and on cards larger than the grid; on the 20-cell grid the four
// differ only in the two switch columns FourSpan names.
func TestFourFigures(t *testing.T) {
	for _, size := range []int{20, 60} {
		for length := FourMinLength; length <= FourMaxLength; length++ {
			d, err := FourFigures(length, size)
			if err != nil {
				t.Fatal(err)
			}
			for k, s := range d.Samples {
				want := 2
				if s.Label == 1 {
					want = 1
				}
				if got := components(s.Image); got != want {
					t.Errorf("size %d length %d %s: %d pieces, want %d", size, length, FourNames()[k], got, want)
				}
			}
			if size != 20 {
				continue
			}
			left, right := FourSpan(length)
			if right-left+1 != length+2 || left < 0 || right > 19 {
				t.Fatalf("length %d: span %d..%d", length, left, right)
			}
			for x := range 20 {
				for y := range 20 {
					v := d.Samples[0].Image.GrayAt(x, y).Y
					for _, s := range d.Samples[1:] {
						if s.Image.GrayAt(x, y).Y != v && x != left && x != right {
							t.Fatalf("length %d: figures differ at column %d, not a switch column", length, x)
						}
					}
				}
			}
		}
	}
	if _, err := FourFigures(19, 20); err == nil {
		t.Error("length 19 accepted")
	}
}

// TestTaskFour: the task mp-four gives the four figures of the default
// length, class by class.
func TestTaskFour(t *testing.T) {
	task, err := Generate("mp-four", 2, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	four, _ := FourFigures(FourDefaultLength, 20)
	// task order: (j=0: class 0, class 1), (j=1: class 0, class 1) = X00, X01, X11, X10
	for i, k := range []int{0, 1, 3, 2} {
		if string(task.Samples[i].Image.Pix) != string(four.Samples[k].Image.Pix) {
			t.Errorf("task card %d is not %s", i, FourNames()[k])
		}
	}
}

// TestParityCards: card b lights exactly the cells of its bits, and is odd
// when b has an odd number of them.
func TestParityCards(t *testing.T) {
	d, err := ParityCards(5, 20)
	if err != nil {
		t.Fatal(err)
	}
	cells := ParityCells(5)
	for b, s := range d.Samples {
		bits := 0
		for i, c := range cells {
			lit := s.Image.Pix[c] < 128
			if lit != (b>>i&1 == 1) {
				t.Fatalf("card %b: cell %d lit %v", b, c, lit)
			}
			if lit {
				bits++
			}
		}
		dark := 0
		for _, p := range s.Image.Pix {
			if p >= 128 {
				dark++
			}
		}
		if dark != 400-bits || s.Label != bits%2 {
			t.Fatalf("card %b: %d dark cells, label %d", b, dark, s.Label)
		}
	}
	if _, err := ParityCards(13, 20); err == nil {
		t.Error("K=13 accepted")
	}
}
