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
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
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
	flag.Parse()
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
