package learning

// Multi-class problems
//
// Every learner in this package is a binary rule on labels y = ±1, extended to
// Data.Classes > 2 one-vs-rest: machine k learns "class k" (+1) against all
// the others (−1), and the class whose machine gives the largest score wins
// (the lowest index on ties). With Classes == 2 there is a single machine
// whose positive side is class 1. The machines are trained in lockstep: each
// epoch presents each row once, in one order, to all machines, and each
// machine updates only on its own mistakes, so the run is exactly that of M
// independent binary learners sharing a presentation order — and the data
// are read once per epoch, not M times. An epoch's Mistakes is the sum over
// machines, and a run converges when no machine makes a mistake.
//
// Rosenblatt's own machines coded classes differently (one R-unit per class
// or a binary code over several R-units); that belongs to the hardware rules.
