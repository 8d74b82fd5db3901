// Command gensparse writes seeded sparse libsvm data: rows with ~nnz non-zeros among dim
// features, labelled by the sign of a hidden linear rule.
// Usage: go run ./dataset/testdata/gensparse ROWS FEATURES NONZEROS SEED > FILE.libsvm
// (the README's sparse measurement: 100000 50000 100 1 for training, 10000 50000 100 2 for test).
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	dim, _ := strconv.Atoi(os.Args[2])
	nnz, _ := strconv.Atoi(os.Args[3])
	seed, _ := strconv.ParseUint(os.Args[4], 10, 64)
	wr := rand.New(rand.NewPCG(42, 1))
	w := make([]float64, dim)
	for j := range w {
		w[j] = wr.NormFloat64()
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	idx := make([]int, 0, nnz)
	for range n {
		idx = idx[:0]
		k := nnz/2 + rng.IntN(nnz+1)
		for range k {
			idx = append(idx, rng.IntN(dim))
		}
		slices.Sort(idx)
		idx = slices.Compact(idx)
		vals := make([]float64, len(idx))
		s := 0.0
		for t, j := range idx {
			vals[t] = float64(rng.IntN(5)+1) / 5
			s += w[j] * vals[t]
		}
		lab := "1"
		if s+0.5*rng.NormFloat64() < 0 {
			lab = "-1"
		}
		out.WriteString(lab)
		for t, j := range idx {
			fmt.Fprintf(out, " %d:%g", j+1, vals[t])
		}
		out.WriteByte('\n')
	}
}
