//go:build !race

package images

// raceEnabled is true when the tests run under the race detector, whose
// build takes more heap for the same decode (TestTIFFBomb measured 172 MB
// where the ordinary build takes 122 MB): heap bounds hold for the
// ordinary build only.
const raceEnabled = false
