// Package machine assembles the simulated Mark I Perceptron — retina,
// plugboard and A-units, R-units, potentiometer bank — into one value with its
// configuration, seeds and class names, trains it, and saves it as one
// versioned, human-readable JSON file, written atomically and checked on
// loading.
//
// Data flow one way: a picture is fitted by the retina's optics into a field
// (Fit), the photocells expose it (S-units), the plugboard fires A-units, and
// the R-units sum the values of the potentiometers of the active A-units
// (Present). MeasurePa sets each card's P_a beside Rosenblatt's 1958 model
// (associator.Model) at the card's lit area; MeasurePaCards measures a card
// set on a fresh machine (P_a by lit area, P_c, PR58's criterion).
//
// A configuration's settings are a registry, ConfigOptions: each setting's
// name, the fields it sets, its default, its meaning and how text sets it,
// from which a front end (mark1's machine flags) offers them. DecodeConfig
// reads one written as JSON.
//
// There is one way to train a machine: a Recipe (the data and how they were
// split, the rule — error correction or forced —, the value system α or γ,
// the pulses per correction, the epoch limit and the stopping rule), saved
// with the machine, and a Session built from a machine and a recipe, which
// orders the cards, presents them with the rule (driving the motors), closes
// each epoch and applies the stopping rule. The command line, the web panel,
// ablation and the comparison with software learners all drive a Session.
// Session.RunSaved runs one to its end saving the machine as a SavePlan
// says (checkpoints; when interrupted, the machine as of its last complete
// epoch, beside an earlier machine it must not replace), and
// SeedExperiment trains a fresh machine per master seed (ForSeeds runs any
// per-seed job in parallel, its results in seed order).
// On a retina without reading noise a card lights the same photocells and
// fires the same A-units every time, so a Session works them out once per
// card and then presents by the R-unit sums and the motors alone.
//
// A machine keeps its healthy Wiring apart from the Plugboard it runs on (the
// wiring with the faults of Config.Faults drawn from the fault seed), so that
// rebuilding it never draws the faults twice.
//
// Every random choice comes from a seed recorded with the machine: Seeds
// holds one stream each for the wiring, the retina's cells, the retina's
// reading noise, the motors, the presentation order and the faults.
package machine
