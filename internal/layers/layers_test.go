package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A rule forbids the packages matched by From to depend, directly or
// through others, on the packages matched by To. A pattern is an import
// path, or a path ending in "/..." for it and everything under it.
type rule struct {
	why  string
	From []string
	To   []string
}

// stages are the four parts of the machine, which machine joins, and the
// ADALINE's memistors, the motors' counterpart that compare trains, and
// the four-layer perceptron's A_II couplings.
var stages = []string{"mark1/retina", "mark1/associator", "mark1/response", "mark1/motors", "mark1/memistors", "mark1/coupling"}

// simulator is everything of the machine and its pictures; images first.
var simulator = append([]string{"mark1/images", "mark1/machine", "mark1/dials", "mark1/panel", "mark1/ablation", "mark1/compare"}, stages...)

func rules() []rule {
	return []rule{
		{"lab links no simulator: the notes' lab is learners and pictures", []string{"mark1/lab"}, simulator},
		{"learning and its sub-packages are numeric", []string{"mark1/learning/..."}, append(slices.Clone(simulator), "mark1/chart", "mark1/lab")},
		{"the stages import nothing of ours", stages, []string{"mark1/..."}},
		{"data sets and pictures know nothing of the machine or the learners", []string{"mark1/images", "mark1/dataset"},
			append(slices.Clone(simulator[1:]), "mark1/learning/...", "mark1/lab", "mark1/chart")},
		{"a data set is numbers, not pictures", []string{"mark1/dataset"}, []string{"mark1/images"}},
		{"the drawing kit draws plain values", []string{"mark1/chart"}, []string{"mark1/..."}},
		{"the progress line counts plain units", []string{"mark1/internal/progress"}, []string{"mark1/..."}},
		{"the learners' progress line links no simulator", []string{"mark1/internal/progress/fitline"}, append(slices.Clone(simulator), "mark1/chart", "mark1/lab")},
	}
}

func match(pattern, path string) bool {
	if p, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == p || strings.HasPrefix(path, p+"/")
	}
	return path == pattern
}

func matchAny(patterns []string, path string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, path) })
}

// violations returns, sorted, every dependency in deps (a package's import
// path to its dependencies) that a rule forbids, and every rule whose From
// matches no package (a rule about nothing would pass for ever).
func violations(deps map[string][]string, rules []rule) []string {
	var out []string
	for _, r := range rules {
		seen := false
		for pkg, ds := range deps {
			if !matchAny(r.From, pkg) {
				continue
			}
			seen = true
			for _, d := range ds {
				if matchAny(r.To, d) {
					out = append(out, fmt.Sprintf("%s depends on %s (%s)", pkg, d, r.why))
				}
			}
		}
		if !seen {
			out = append(out, fmt.Sprintf("no package matches %v (%s)", r.From, r.why))
		}
	}
	slices.Sort(out)
	return out
}

// moduleDeps runs go list -deps over the module's packages (not their
// tests) and returns each package's dependencies.
func moduleDeps(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "mark1/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	deps := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(deps) < 20 {
		t.Fatalf("go list named %d packages; want the whole module", len(deps))
	}
	return deps
}

// TestLayers holds the house's one-way rules over the module as it is.
func TestLayers(t *testing.T) {
	for _, v := range violations(moduleDeps(t), rules()) {
		t.Error(v)
	}
}

// TestViolations: the checker finds a forbidden dependency however deep,
// ignores allowed ones, and refuses a rule that matches no package.
func TestViolations(t *testing.T) {
	rs := []rule{
		{"lab", []string{"mark1/lab"}, []string{"mark1/machine", "mark1/learning/..."}},
		{"nothing", []string{"mark1/gone"}, []string{"mark1/..."}},
	}
	deps := map[string][]string{
		"mark1/lab":     {"fmt", "mark1/chart", "mark1/machine", "mark1/learning/svm", "mark1/learningx"},
		"mark1/machine": {"mark1/retina"},
	}
	got := violations(deps, rs)
	want := []string{
		"mark1/lab depends on mark1/learning/svm (lab)",
		"mark1/lab depends on mark1/machine (lab)",
		"no package matches [mark1/gone] (nothing)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
