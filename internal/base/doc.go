// Package base holds no code: its sub-packages are the house's foundation,
// imported by every layer above and importing nothing of ours — atomic
// files (atomicfile), typed field errors (param), declared sizes against a
// limit (limit), JSON numbers (jsonnum) and a guard on the live heap
// (memguard). The front end (internal/cli) sits at the other end of the
// one-way flow; keeping the two in different folders lets the layout show
// the layers.
package base
