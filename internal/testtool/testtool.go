// Package testtool holds what tests share when they compare mark1 with
// other programs (LIBSVM's and LIBLINEAR's tools, scikit-learn): finding
// the program, which fails the test in CI (where .ci/run installs it) and
// skips it elsewhere, and reading the numbers those programs write; and
// the golden files that tests compare their output with (Golden).
package testtool

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Need skips t when the command name is not installed, and fails it when
// the environment variable CI is set: CI installs the Debian package pkg.
func Need(t testing.TB, name, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s not installed (Debian package %s): CI must install it", name, pkg)
		}
		t.Skipf("%s not installed (Debian package %s): skipping the comparison with it", name, pkg)
	}
}

// Python is the interpreter Debian's python3-sklearn installs for.
const Python = "/usr/bin/python3"

// NeedSklearn skips t when scikit-learn is not importable by Python, and
// fails it in CI.
func NeedSklearn(t testing.TB) {
	t.Helper()
	if err := exec.Command(Python, "-c", "import sklearn").Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("scikit-learn is needed for %s (Debian python3-sklearn; .ci/run installs it): %v", Python, err)
		}
		t.Skipf("scikit-learn not installed for %s (Debian python3-sklearn): %v", Python, err)
	}
}

// Numbers reads the whitespace-separated numbers of the file at path (a
// predictions file of svm-predict, liblinear-predict or mark1).
func Numbers(t testing.TB, path string) []float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, f := range strings.Fields(string(b)) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("%s: %q is not a number", path, f)
		}
		out = append(out, v)
	}
	return out
}

// LongEnv is the environment variable that runs the long tests: the
// browser tests, the tests that build mark1 and run it as a program, and
// the long agreement tests. .ci/run sets it; a developer sets it to run
// what CI runs (CONTRIBUTING.md).
const LongEnv = "MARK1_LONG"

// Long skips t unless MARK1_LONG is set, so that go test ./... stays a
// few minutes on one core. In CI (env CI set) a long test is never
// skipped: without MARK1_LONG it fails, saying so.
func Long(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(LongEnv) != "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("a long test (%s) in CI without %s=1: CI must run it (.ci/run sets it)", why, LongEnv)
	}
	t.Skipf("a long test (%s): set %s=1 to run it, as CI does", why, LongEnv)
}

// Golden compares got with the golden file testdata/name, or, with update
// (a package's -update flag), writes got there.
func Golden(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

// GoldenImage compares img with the golden PNG testdata/name, or, with
// update, writes it there. Pictures match within a small tolerance, as
// font rasterizers may differ by a pixel at an edge: the mean difference
// per channel at most 1 level, and at most 0.5% of the pixels off by
// more than 48 levels in a channel. A picture that does not match is
// written to a file in the temporary folder, named in the failure, to
// look at.
func GoldenImage(t testing.TB, name string, img image.Image, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	if want.Bounds().Size() != b.Size() {
		t.Fatalf("%s: size %v; golden %v", name, b.Size(), want.Bounds().Size())
	}
	var sum float64
	far, n := 0, 0
	off := want.Bounds().Min.Sub(b.Min)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x+off.X, y+off.Y).RGBA()
			worst := 0.0
			for _, d := range []float64{float64(r1>>8) - float64(r2>>8), float64(g1>>8) - float64(g2>>8), float64(b1>>8) - float64(b2>>8)} {
				d = math.Abs(d)
				sum += d
				worst = max(worst, d)
			}
			if worst > 48 {
				far++
			}
			n++
		}
	}
	if mean := sum / float64(3*n); mean > 1 || float64(far) > 0.005*float64(n) {
		out := "(not written)"
		if fo, err := os.CreateTemp("", "mark1-got-*-"+filepath.Base(name)); err == nil { // kept after the test
			out = fo.Name()
			png.Encode(fo, img)
			fo.Close()
		}
		t.Errorf("%s differs from the golden picture: mean difference %.2f levels, %d of %d pixels far off; got written to %s (look at it; go test -update rewrites it)", name, mean, far, n, out)
	}
}

// NeedChromium returns the Chromium or Chrome binary for a browser test
// ($MARK1_CHROMIUM, else the first found). Browser tests are long tests:
// they run when MARK1_LONG is set, as .ci/run sets it (Long). Without a
// browser the test fails in CI (env CI set), where .ci/run installs it,
// and is skipped elsewhere only when MARK1_SKIP_BROWSER is set; otherwise
// it fails too, saying how to install it.
func NeedChromium(t testing.TB) string {
	t.Helper()
	Long(t, "a browser test")
	if p := os.Getenv("MARK1_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "no Chromium binary found (install the chromium package, or set MARK1_CHROMIUM)"
	if os.Getenv("CI") == "" && os.Getenv("MARK1_SKIP_BROWSER") != "" {
		t.Skip(msg + "; skipped: MARK1_SKIP_BROWSER is set")
	}
	t.Fatal(msg + " (set MARK1_SKIP_BROWSER=1 to skip the browser tests on a developer's machine; never in CI)")
	return ""
}
