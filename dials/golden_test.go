package dials

import (
	"flag"
	"mark1/chart"
	"mark1/internal/testtool"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testtool.Golden(t, name, got, *update)
}

// goldenImage compares a drawing with testdata/name, a PNG
// (testtool.GoldenImage).
func goldenImage(t *testing.T, name string, d *chart.Drawing) {
	t.Helper()
	testtool.GoldenImage(t, name, d.Image(), *update)
}
