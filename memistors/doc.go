// Package memistors simulates the adaptive weights of Widrow and Hoff's
// ADALINE (1960): memistors, Widrow's plated resistors whose conductance
// is the time integral of a plating current, or, in rheostat mode, the
// knobs of the first ADALINE, set by hand.
//
// A weight is a continuous value bounded to [−Max, Max]. An adaptation
// (Bank.Adapt) commands every weight to change at once, as one plating
// pulse: plating is slow, so a weight moves by at most Rate times the
// pulse's time toward its change; the charge plated is noisy (a
// multiplicative noise on each move); between presentations (Bank.Advance)
// the weights leak slowly toward 0. In rheostat mode each weight is a knob
// with settings a Step apart. Each of these is off in the zero Config,
// which is an ideal, unbounded, continuous, noiseless bank: a software
// weight vector. Defaults gives the 1960 memistors, Rheostats the knobs;
// every figure is a source or a guess, named in Config's fields and in
// docs/record.md ("ADALINE's weights (1960)").
//
// A Bank keeps a clock of simulated time and counts adaptations and
// saturations (moves a bound cut short). The bank knows nothing of
// learning: it is told how much each weight should change. It is the
// ADALINE's counterpart of package motors, the Mark I's pots.
package memistors
