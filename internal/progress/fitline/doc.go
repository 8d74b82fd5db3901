// Package fitline draws learners' progress on a progress line
// (mark1/internal/progress): a fit's learning.Recorder ([Recorder]) and a
// comparison's several learners on one line ([Compare]), their progress
// entries (learning.Epoch) counted in the units learners.NewMeter names:
// epochs, steps, pairs, machines, SMO iterations or passes.
//
// It sits between the two: package progress counts plain units and
// imports nothing of mark1, and learning/learners, which knows what a
// learner's entries count, is linked by the notes' lab and its
// WebAssembly, which draw no terminal line. fitline links learning and
// its registry, and no simulator.
package fitline
