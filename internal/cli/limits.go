package cli

import (
	"context"
	"fmt"
	"strings"

	"mark1/limits"
)

func runCapacity(ctx context.Context, env *Env, args []string) error {
	var d, maxN int
	var asJSON bool
	fs := newFlags(env, "capacity --d D [--max-n N] [--json]", `Cover's count (1965): of the 2^N labelings of N points in general position in d
dimensions, C(N,d) = 2·Σ_{k<d} binom(N−1,k) are realised by a linear threshold unit
with d weights (no separate bias). Prints C(N,d) exactly and its fraction of 2^N for
N = 1…4d: 1 up to N = d, exactly 1/2 at N = 2d, the unit's capacity (docs/limits.md).`)
	fs.IntVar(&d, "d", 10, "the dimension d, 1 to 1000")
	fs.IntVar(&maxN, "max-n", 0, "the largest N (0: 4d)")
	fs.BoolVar(&asJSON, "json", false, "print the table as JSON")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if maxN == 0 {
		maxN = 4 * d
	}
	r, err := limits.Capacity(d, maxN)
	if err != nil {
		return usageError{err}
	}
	if asJSON {
		return writeJSON(env.Stdout, r)
	}
	fmt.Fprintf(env.Stdout, "Cover's count in d = %d dimensions: labelings of N points a threshold unit realises\n\n%6s %12s  %s\n", d, "N", "fraction", "C(N,d) of 2^N")
	for _, p := range r.Points {
		mark := ""
		if p.N == 2*d {
			mark = "   ← N = 2d: exactly 1/2, the capacity"
		}
		fmt.Fprintf(env.Stdout, "%6d %12.6f  %s%s\n", p.N, p.Fraction, p.Count, mark)
	}
	return nil
}

func runLimitsParity(ctx context.Context, env *Env, args []string) error {
	var k int
	var asJSON bool
	fs := newFlags(env, "limits parity --k K [--json]", `The order of parity (Minsky and Papert 1969, Theorem 3.1): the smallest j such that
parity on K points is a linear threshold function of the masks of at most j points. Found by
linear programming (K ≤ 6) and proved both ways: integer coefficients checked on all 2^K inputs,
and a Farkas vector, checked exactly in rationals, that order K − 1 is impossible.`)
	fs.IntVar(&k, "k", 4, "the number of points K, 1 to 8")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if k < 1 || k > 8 {
		return usagef("limits parity: --k %d out of range [1, 8]", k)
	}
	r, err := limits.ParityOrder(k)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Stdout, r)
	}
	var feas []string
	for j, f := range r.Feasible {
		feas = append(feas, fmt.Sprintf("%d: %v", j, f))
	}
	fmt.Fprintf(env.Stdout, "Parity on %d points has order %d (Minsky and Papert, Thm 3.1).\n  masks of at most j points suffice (linear program, j: feasible): %s\n  proved: integer coefficients −(−2)^|S| checked on all %d inputs; a Farkas vector for order %d checked exactly: %v\n",
		k, r.Order, strings.Join(feas, ", "), 1<<k, r.Order-1, r.Checked)
	return nil
}
