// Package machine assembles the simulated Mark I Perceptron — retina,
// plugboard and A-units, R-units, potentiometer bank — into one value with its
// configuration, seeds and class names, and saves it as one versioned,
// human-readable JSON file, written atomically and checked on loading.
//
// Data flow one way: a picture is fitted by the retina's optics into a field
// (Fit), the photocells expose it (S-units), the plugboard fires A-units, and
// the R-units sum the values of the potentiometers of the active A-units
// (Present). Learning rules (package learning) drive the motors.
//
// Every random choice comes from a seed recorded with the machine: Seeds
// holds one stream each for the wiring, the retina's cells, the retina's
// reading noise, the motors, and the presentation order.
package machine
