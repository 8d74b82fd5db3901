// Package limits computes, exactly where it can, what a single linear threshold unit can and
// cannot do: Cover's (1965) count of the separable labelings of N points in d dimensions, the
// order of parity (Minsky and Papert 1969, Theorem 3.1) proved both ways by linear programming
// with exact certificates, the VC dimension of lines in the plane, the Learning From Data
// perceptron experiment (Abu-Mostafa, Magdon-Ismail and Lin 2012, exercise 1.4 and problem
// 1.7), and the detection of a perceptron's cycle on data it cannot separate.
//
// The mathematics imports only the standard library and gonum; linear programs are solved with
// gonum's optimize/convex/lp, and every exact claim is checked afterwards in math/big.
package limits
