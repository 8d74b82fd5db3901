// Package motors simulates the Mark I's adaptive weights: rotary
// potentiometers, each turned by its own electric motor, which keep their
// setting with the power off.
//
// A pot's position is bounded by end stops and moved in pulses of a fixed
// step (or by a travel that a pulse length buys at the motor's speed). Its
// readable value can be quantized to a number of levels; reversing direction
// loses some travel to backlash; each pulse's travel has noise; positions
// drift slowly with time; some pots are stuck. Each of these is off in the
// zero Config, which is an ideal, unbounded, continuous, noiseless pot bank.
//
// None of the Mark I's physical constants — turns, motor speed, pulse length,
// step size — is recorded (see mark1-facts.md); the defaults chosen by the
// presets in package machine are documented guesses.
//
// A Bank keeps a clock of simulated physical time: presentations advance it
// by their duration (Advance), and motor moves by the time the motors run
// (Settle). It counts pulses and saturations — pushes against an end stop.
// The bank knows nothing of learning: it is told to move a pot up or down.
package motors
