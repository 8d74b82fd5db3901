//go:build race

package panel

// raceEnabled is true when the tests run under the race detector, which
// slows decoding about tenfold: heavy tests then do less.
const raceEnabled = true
