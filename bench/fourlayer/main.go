// Command fourlayer writes the moving-square task of docs/four-layer.md:
// 20×20 cards, a filled white square on black, small (3×3, label 0) or
// large (5×5, label 1). Each training sequence is one square stepping
// across the retina one cell a card, left to right, along one row; the
// training rows are the even ones (0, 2, 4, …), and the held-out cards are
// the same squares at every position of the odd rows, none of which a
// training card shows. The sequences follow one another in the file (row
// 0 small, row 0 large, row 2 small, …): mark1 train --layers 4 learns the
// couplings from the cards in that order.
//
//	go run ./bench/fourlayer -out DIR   # writes DIR/train.libsvm, DIR/test.libsvm
//
// With -inspect MACHINE (a four-layer machine file) it writes nothing and
// prints, for DIR's two files, what A_I and A_II make of the cards: the
// units each fires per card, the A_I units consecutive cards share
// (n_j,j+1), and the largest coupled input γ on an A_II unit whose A_I
// partner is off.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"mark1/images"
	"mark1/machine"
)

const side = 20

// card writes one card as a libsvm row: the square of size s with its
// top-left corner at (x, y); pixel (c, r) is feature r*20+c+1, and the last
// feature is always written so that every row has 400 dimensions.
func card(w *bufio.Writer, label, s, x, y int) {
	fmt.Fprintf(w, "%d", label)
	last := false
	for r := y; r < y+s; r++ {
		for c := x; c < x+s; c++ {
			i := r*side + c + 1
			fmt.Fprintf(w, " %d:1", i)
			last = last || i == side*side
		}
	}
	if !last {
		fmt.Fprintf(w, " %d:0", side*side)
	}
	fmt.Fprintln(w)
}

func write(path string, rows func(w *bufio.Writer)) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	rows(w)
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func main() {
	out := flag.String("out", ".", "folder to write train.libsvm and test.libsvm in")
	inspectFile := flag.String("inspect", "", "a four-layer machine file: print what it makes of DIR's cards instead")
	flag.Parse()
	if *inspectFile != "" {
		inspect(*inspectFile, filepath.Join(*out, "train.libsvm"), filepath.Join(*out, "test.libsvm"))
		return
	}
	sizes := []int{3, 5} // label 0: small, label 1: large
	rowsOf := func(odd int) func(w *bufio.Writer) {
		return func(w *bufio.Writer) {
			for y := odd; y+3 <= side; y += 2 {
				for label, s := range sizes {
					if y+s > side {
						continue
					}
					for x := 0; x+s <= side; x++ {
						card(w, label, s, x, y)
					}
				}
			}
		}
	}
	write(filepath.Join(*out, "train.libsvm"), rowsOf(0))
	write(filepath.Join(*out, "test.libsvm"), rowsOf(1))
}

func inspect(file string, paths ...string) {
	m, err := machine.Load(file)
	if err != nil {
		log.Fatal(err)
	}
	if m.Couplings == nil {
		log.Fatalf("%s is a three-layer machine", file)
	}
	for _, path := range paths {
		d, err := images.Load(path, images.Limits{})
		if err != nil {
			log.Fatal(err)
		}
		var r machine.Response
		var sumI, sumII, shared float64
		var prev []int
		largest := 0.0
		for i, x := range m.Fit(d) {
			m.Present(&r, x, nil)
			sumI += float64(len(r.AI))
			sumII += float64(len(r.Active))
			on := map[int]bool{}
			for _, a := range r.AI {
				on[a] = true
			}
			if i > 0 {
				for _, a := range prev {
					if on[a] {
						shared++
					}
				}
			}
			prev = append(prev[:0], r.AI...)
			for nu := range m.Couplings.Units {
				if !on[nu] {
					largest = max(largest, m.Couplings.Gamma(r.AI, nu))
				}
			}
		}
		n := float64(len(d.Samples))
		fmt.Printf("%s: A_I fires %.2f units a card, A_II %.2f; consecutive cards share %.2f A_I units; largest γ on an A_II unit whose partner is off %.2f (θ = %g)\n",
			filepath.Base(path), sumI/n, sumII/n, shared/(n-1), largest, m.Couplings.Theta)
	}
}
