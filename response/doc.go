// Package response simulates the Mark I's response units (R-units): each sums
// the values of the active A-units wired to it and turns on when the sum is
// positive.
//
// Two layouts of the adaptive values are supported, because the record does
// not say which the Mark I used (mark1-facts.md). SourceSets gives each A-unit
// one value and splits the A-units into disjoint source-sets, one per R-unit,
// as in Rosenblatt's 1958 theory (512 values). Full gives every A→R pair its
// own value (the modern reading: 512 × R values).
//
// Two output codes map classes to R-units: Binary, one bit per R-unit (the
// 1958 paper's coded responses), which needs ⌈log2 classes⌉ R-units; and
// OnePerClass, one R-unit per class, the largest sum winning. R-units the
// code does not need stay dark. In the SourceSets layout Config.Sets says how
// the A-units are divided: UsedSets (the default) shares them among the
// R-units in use, FixedSets wires an equal share (64 of 512) to every
// R-unit, used or not, and the shares of unused R-units take no part.
//
// An optional bias value per R-unit is the lecture notes' fictitious input
// that is always on.
package response
