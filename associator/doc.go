// Package associator simulates the Mark I's association units (A-units) and
// the plugboard that wires them to the retina.
//
// Each A-unit has x excitatory and y inhibitory origin points — S-units chosen
// at random, on the Mark I "from a table of random numbers", and fixed for a
// whole experiment — and a threshold θ. It fires, all or nothing, when the
// excitatory input minus the inhibitory input reaches θ (Rosenblatt 1958).
// The S→A connections never learn. The fraction of A-units a stimulus turns
// on is P_a, the key statistic of the 1958 theory.
//
// Model is the 1958 probability model of one A-unit: P_a, the chance that
// it fires for a stimulus lighting a given fraction of the retina, and P_c,
// the chance that a unit firing for one stimulus fires for another that
// overlaps it — exact sums, in the binomial form of the paper and in the
// finite (hypergeometric) form that Wire's distinct origin points realise.
//
// A Plugboard can be written as a plain-text listing (WriteTo) that people can
// read and edit, and read back (Read).
package associator
