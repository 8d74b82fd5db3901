package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mark1/dataset"
	"mark1/internal/testtool"
	"mark1/lab"
	"mark1/learning/learners"
	"mark1/learning/selection"
)

// toolPath is needTool's tool's path.
func toolPath(t *testing.T, name, pkg string) string {
	t.Helper()
	testtool.Need(t, name, pkg)
	p, _ := exec.LookPath(name)
	return p
}

// docBlock returns the body of the first ```lang block of a doc.
func docBlock(t *testing.T, doc, lang string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", doc))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no ```%s block", doc, lang)
	}
	return string(m[1])
}

// buildMark1 builds the command into a folder and returns a PATH with it first.
func buildMark1(t *testing.T) string {
	t.Helper()
	return filepath.Dir(mark1Binary(t)) + string(os.PathListSeparator) + os.Getenv("PATH")
}

// mark1Binary builds cmd/mark1 into a temporary folder and returns its
// path.
func mark1Binary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mark1")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mark1")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// shell runs a shell command line in dir with PATH and extra environment.
func shell(t *testing.T, dir, path, line string, env ...string) string {
	t.Helper()
	c := exec.Command("bash", "-c", line)
	c.Dir = dir
	c.Env = append(append(os.Environ(), "PATH="+path), env...)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	return string(out)
}

// TestSweepAsGrid runs docs/sweeps.md's example — plan, the tasks by its
// GNU parallel line, merge — and the same plan's tasks by xargs -P, in
// reverse order into three folders, by its Slurm script once per array
// index and by its Kubernetes manifest's command once per completion
// index; each merge must print mark1 grid's table byte for byte, and grid
// must print the same on 1 and 2 threads.
func TestSweepAsGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mark1 and runs 20 tasks of 4 fits five ways (about 30 s)")
	}
	parallel := toolPath(t, "parallel", "parallel")
	shellcheck := toolPath(t, "shellcheck", "shellcheck")
	path := buildMark1(t)
	dir := t.TempDir()
	gridArgs := []string{"--data", "feat/train-pixels.libsvm", "--log2c", "-1,5,2", "--log2g", "-9,-3,2"}
	runOK(t, dir, "compare", "--task", "e-f", "--learners", "perceptron", "--export-libsvm", "feat")
	var want string
	for _, th := range []string{"1", "2"} {
		out := runOK(t, dir, append([]string{"grid", "--png", "", "--threads", th}, gridArgs...)...)
		if want == "" {
			want = out
		} else if out != want {
			t.Fatalf("grid on %s threads:\n%s\none thread:\n%s", th, out, want)
		}
	}
	if !strings.Contains(want, "best: C = ") || strings.Count(want, "\n") != 1+1+16+1+1 || !strings.Contains(want, "(warm starts)") {
		t.Fatalf("grid output:\n%s", want)
	}
	merge := func(dirs ...string) {
		t.Helper()
		code, out, errOut := run(t, dir, append([]string{"sweep", "merge", "--plan", "plan.json", "--png", ""}, dirs...)...)
		if code != 0 || out != want {
			t.Fatalf("merge of %v: exit %d %s\n%s\nwant grid's\n%s", dirs, code, errOut, out, want)
		}
	}

	// the documented example, its GNU parallel line as written
	var lines []string
	for _, l := range strings.Split(docBlock(t, "docs/sweeps.md", "sh"), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "mark1 compare") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 4 || !strings.Contains(lines[2], "parallel ") {
		t.Fatalf("docs/sweeps.md's example changed: %q", lines)
	}
	shell(t, dir, path, lines[0])
	if n := strings.TrimSpace(shell(t, dir, path, lines[1])); n != "20" || !strings.Contains(lines[2], "seq 0 19") {
		t.Fatalf("--count printed %q; the doc runs %q", n, lines[2])
	}
	shell(t, dir, path, strings.Replace(lines[2], "parallel ", parallel+" ", 1))
	merge("results")

	// xargs -P, in reverse order, three folders
	for k := range 3 {
		shell(t, dir, path, fmt.Sprintf("seq 19 -1 0 | awk 'NR %% 3 == %d' | xargs -P 2 -I{} mark1 sweep run --plan plan.json --out part%d --task {} --threads 1 >/dev/null", k, k))
	}
	merge("part2", "part0", "part1")

	// Slurm: the script linted, then run once per array index
	script := docBlock(t, "docs/sweeps.md", "bash")
	os.WriteFile(filepath.Join(dir, "sweep.sh"), []byte(script), 0o755)
	shell(t, dir, path, "bash -n sweep.sh && "+shellcheck+" sweep.sh")
	m := regexp.MustCompile(`#SBATCH --array=0-(\d+)`).FindStringSubmatch(script)
	if m == nil || m[1] != "19" {
		t.Fatalf("the Slurm script's array: %v; want 0-19", m)
	}
	for i := range 20 {
		shell(t, dir, path, "./sweep.sh >/dev/null", "SLURM_ARRAY_TASK_ID="+strconv.Itoa(i), "SLURM_CPUS_PER_TASK=1")
	}
	merge("results") // the same folder as GNU parallel's: the same files rewritten

	// Kubernetes: the manifest parsed, its command run once per index
	yml := docBlock(t, "docs/sweeps.md", "yaml")
	os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(yml), 0o644)
	js := sklearnRun(t, dir, "import yaml, json, sys; json.dump(yaml.safe_load(open('job.yaml')), sys.stdout)")
	var job struct {
		Kind string
		Spec struct {
			CompletionMode string
			Completions    int
			Template       struct {
				Spec struct {
					Containers []struct{ Command []string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(js), &job); err != nil {
		t.Fatal(err)
	}
	if job.Kind != "Job" || job.Spec.CompletionMode != "Indexed" || job.Spec.Completions != 20 || len(job.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("manifest: %+v", job)
	}
	cmd := job.Spec.Template.Spec.Containers[0].Command
	if strings.Join(cmd[:3], " ") != "mark1 sweep run" || strings.Contains(strings.Join(cmd, " "), "--task") {
		t.Fatalf("manifest command %q: want mark1 sweep run without --task", cmd)
	}
	vol := filepath.Join(dir, "volume")
	os.MkdirAll(vol, 0o755)
	for _, f := range []string{"plan.json", "feat/train-pixels.libsvm"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		os.WriteFile(filepath.Join(vol, filepath.Base(f)), b, 0o644)
	}
	var quoted []string
	for _, a := range cmd {
		quoted = append(quoted, strconv.Quote(strings.ReplaceAll(a, "/sweep/", vol+"/")))
	}
	for i := range job.Spec.Completions {
		shell(t, dir, path, strings.Join(quoted, " ")+" >/dev/null", "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
	}
	merge(filepath.Join(vol, "results"))
}

// TestCVLikeScikitLearn: fit --cv's accuracy (also with class weights)
// and grid's cells (warm-started along C) are scikit-learn's SVC (LIBSVM
// inside) cross-validated on the same folds (PredefinedSplit), right
// predictions counted over all rows.
func TestCVLikeScikitLearn(t *testing.T) {
	dir := t.TempDir()
	X, y := flowers(120)
	os.WriteFile(filepath.Join(dir, "f.csv"), table("a,b,c,d,target", X, y, []int{0, 1, 2, 3}, true, ","), 0o644)
	s, err := dataset.ReadFile(filepath.Join(dir, "f.csv"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	folds, err := selection.Folds(s.Y, len(s.Classes), 4, 9)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(folds)
	out := sklearnRun(t, dir, `
import numpy as np, json
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.svm import SVC
d = np.loadtxt("f.csv", delimiter=",", skiprows=1)
X, y = d[:, :4], d[:, 4]
cv = PredefinedSplit(np.array(`+string(js)+`))
out = {}
for C in (0.5, 4):
    for g in (0.125, 1):
        p = cross_val_predict(SVC(C=C, gamma=g, tol=1e-3), X, y, cv=cv)
        out["%g %g" % (C, g)] = int((p == y).sum())
p = cross_val_predict(SVC(C=4, gamma=0.125, tol=1e-3, class_weight={1.0: 30, 2.0: 0.1}), X, y, cv=cv)
out["weighted"] = int((p == y).sum())
print(json.dumps(out))
`)
	var right map[string]int
	if err := json.Unmarshal([]byte(out), &right); err != nil {
		t.Fatal(err)
	}
	code, got, errOut := run(t, dir, "fit", "--data", "f.csv", "--cv", "4", "--cv-seed", "9", "--C", "4", "--gamma", "0.125")
	want := fmt.Sprintf("Cross Validation Accuracy = %.6g%%\n", 100*float64(right["4 0.125"])/120)
	if code != 0 || !strings.HasSuffix(got, want) {
		t.Errorf("fit --cv: exit %d %s\n%s\nwant scikit-learn's %q", code, errOut, got, want)
	}
	weighted := right["weighted"]
	delete(right, "weighted")
	if weighted == right["4 0.125"] {
		t.Fatalf("the class weights change nothing on these data (%d right): the test cannot fail", weighted)
	}
	code, got, errOut = run(t, dir, "fit", "--data", "f.csv", "--cv", "4", "--cv-seed", "9", "--C", "4", "--gamma", "0.125", "--class-weight", "1=30,2=0.1")
	want = fmt.Sprintf("Cross Validation Accuracy = %.6g%%\n", 100*float64(weighted)/120)
	if code != 0 || !strings.HasSuffix(got, want) {
		t.Errorf("fit --cv --class-weight: exit %d %s\n%s\nwant scikit-learn's %q", code, errOut, got, want)
	}
	got = runOK(t, dir, "grid", "--data", "f.csv", "--folds", "4", "--cv-seed", "9", "--C", "0.5,4", "--gamma", "0.125,1", "--png", "")
	for key, r := range right {
		f := strings.Fields(key)
		re := regexp.MustCompile(`(?m)^\s+\S+\s+\S+\s+` + regexp.QuoteMeta(f[0]) + `\s+` + regexp.QuoteMeta(f[1]) + `\s+\S+\s+(\d+)/120`)
		m := re.FindStringSubmatch(got)
		if m == nil || m[1] != strconv.Itoa(r) {
			t.Errorf("grid cell C %s γ %s: %v right; scikit-learn %d\n%s", f[0], f[1], m, r, got)
		}
	}
}

// snapshot returns every file under dir with its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		} else if err == nil {
			out[p+"/"] = ""
		}
		return nil
	})
	return out
}

// TestSelectionBadInput: hostile input to fit --cv, grid and sweep — empty
// grids, C ≤ 0, more folds than rows of a class, a plan for other data,
// results of another plan, edited plans, tasks out of range — each refused
// with one line naming the flag or file, exit ≠ 0, and nothing written or
// overwritten.
func TestSelectionBadInput(t *testing.T) {
	dir := t.TempDir()
	X, y := flowers(30)
	os.WriteFile(filepath.Join(dir, "f.csv"), table("a,b,c,d,target", X, y, []int{0, 1, 2, 3}, true, ","), 0o644)
	X2, y2 := flowers(33)
	os.WriteFile(filepath.Join(dir, "g.csv"), table("a,b,c,d,target", X2, y2, []int{0, 1, 2, 3}, true, ","), 0o644)
	grid := []string{"--data", "f.csv", "--C", "1,4", "--gamma", "0.5"}
	runOK(t, dir, append([]string{"sweep", "plan", "--plan", "plan.json"}, grid...)...)
	runOK(t, dir, append([]string{"sweep", "plan", "--plan", "other.json", "--cv-seed", "2"}, grid...)...)
	runOK(t, dir, "sweep", "run", "--plan", "other.json", "--task", "3", "--out", "other")
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	plan, _ := os.ReadFile(filepath.Join(dir, "plan.json"))
	os.WriteFile(filepath.Join(dir, "edited.json"), []byte(strings.Replace(string(plan), `"tasks": 5`, `"tasks": 12`, 1)), 0o644)
	// a plan and a result of the format before tasks were columns
	os.WriteFile(filepath.Join(dir, "v1.json"), []byte(strings.Replace(string(plan), fmt.Sprintf(`"version": %d`, selection.Version), `"version": 1`, 1)), 0o644)
	os.Mkdir(filepath.Join(dir, "v1"), 0o755)
	os.WriteFile(filepath.Join(dir, "v1", "task-0000000.json"), []byte(`{"format": "mark1-sweep-result", "version": 1, "plan": "ab", "task": 0, "c": 1, "gamma": "0.5", "fold": 0, "right": 5, "rows": 6}`), 0o644)
	// a result of this plan whose C values were edited
	runOK(t, dir, "sweep", "run", "--plan", "plan.json", "--task", "2", "--out", "cedit")
	res, _ := os.ReadFile(filepath.Join(dir, "cedit", "task-0000002.json"))
	os.WriteFile(filepath.Join(dir, "cedit", "task-0000002.json"), []byte(strings.Replace(string(res), "\n  4\n", "\n  8\n", 1)), 0o644)
	os.WriteFile(filepath.Join(dir, "model.json"), []byte(`{"format":"mark1-model","version":1}`), 0o644)
	for _, n := range selection.ArrayVariables() {
		t.Setenv(n, "")
		os.Unsetenv(n)
	}
	tests := []struct {
		args []string
		env  string
		code int
		want string
	}{
		{[]string{"grid", "--data", "f.csv", "--log2c", "5,1,2"}, "", 2, `--log2c "5,1,2": the step must be non-zero and lead from begin to end`},
		{[]string{"grid", "--data", "f.csv", "--log2g", "1,5,0"}, "", 2, `--log2g "1,5,0": the step must be non-zero`},
		{[]string{"grid", "--data", "f.csv", "--C", "0,1"}, "", 2, `--C "0,1": "0" is not a finite number > 0`},
		{[]string{"grid", "--data", "f.csv", "--C", "-1"}, "", 2, `--C "-1": "-1" is not a finite number > 0`},
		{[]string{"grid", "--data", "f.csv", "--C", ""}, "", 2, `--C "": "" is not a finite number > 0`},
		{[]string{"grid", "--data", "f.csv", "--gamma", "0.5,0.5"}, "", 2, "appears twice"},
		{[]string{"grid", "--data", "f.csv", "--C", "1", "--log2c", "1,3,1"}, "", 2, "--C and --log2c: give one"},
		{[]string{"grid", "--data", "f.csv", "--kernel", "linear", "--log2g", "-1,1,1"}, "", 2, "has no γ"},
		{[]string{"grid", "--data", "f.csv", "--learner", "perceptron"}, "", 2, "--learner perceptron: the grid searches C"},
		{[]string{"grid", "--data", "f.csv", "--hard"}, "", 2, "--hard: the grid searches C, and a hard margin has none"},
		{[]string{"grid", "--data", "f.csv", "--scale", "minmax"}, "", 2, `--scale: unknown scaling "minmax"`},
		{[]string{"grid", "--data", "f.csv", "--threads", "-1"}, "", 2, "--threads -1 out of range"},
		{[]string{"grid", "--data", "f.csv", "--warm-start=maybe"}, "", 2, `invalid argument "maybe" for "--warm-start"`},
		{[]string{"grid", "--data", "f.csv", "--class-weight", "7=2"}, "", 1, "f.csv: --class-weight 7=2 out of range"},
		{[]string{"fit", "--data", "f.csv", "--cv", "3", "--class-weight", "7=2"}, "", 1, "f.csv: --class-weight 7=2 out of range"},
		{[]string{"grid", "--data", "f.csv", "--folds", "11", "--C", "1", "--gamma", "1"}, "", 2, `--folds 11: f.csv has 10 rows of class "0"`},
		{[]string{"grid", "--data", "f.csv", "--folds", "1"}, "", 2, "--folds 1 out of range"},
		{[]string{"grid", "--data", "f.csv", "--log2c", "-1000,1000,0.5"}, "", 2, "more than 1000"},
		{[]string{"fit", "--data", "f.csv", "--cv", "11"}, "", 2, `--cv 11: f.csv has 10 rows of class "0"`},
		{[]string{"fit", "--data", "f.csv", "--cv", "1"}, "", 2, "--cv 1 out of range: want at least 2"},
		{[]string{"fit", "--data", "f.csv", "--cv", "5", "--test", "g.csv"}, "", 2, "--cv measures by cross-validation and writes no model"},
		{[]string{"fit", "--data", "f.csv", "--cv", "5", "--C", "0"}, "", 2, "--C 0 out of range"},
		{[]string{"sweep", "plan", "--data", "f.csv", "--plan", "plan.json", "--folds", "11", "--C", "1", "--gamma", "1"}, "", 2, "--folds 11"},
		{[]string{"sweep", "plan", "--data", "f.csv", "--plan", "plan.json", "--log2c", "3,1,1"}, "", 2, "--log2c"},
		{[]string{"sweep", "plan", "--data", "f.csv"}, "", 2, "--plan FILE is required"},
		{[]string{"sweep", "run", "--plan", "plan.json", "--data", "g.csv", "--task", "0", "--out", "res"}, "", 1, "not the plan's data: g.csv has fingerprint"},
		{[]string{"sweep", "run", "--plan", "plan.json", "--task", "5", "--out", "res"}, "", 2, "--task 5 out of the plan's range [0, 5)"},
		{[]string{"sweep", "run", "--plan", "plan.json", "--out", "res"}, "", 2, "no --task and none of $SLURM_ARRAY_TASK_ID, $JOB_COMPLETION_INDEX, $PBS_ARRAY_INDEX set"},
		{[]string{"sweep", "run", "--plan", "plan.json", "--out", "res"}, "SLURM_ARRAY_TASK_ID=x", 2, `$SLURM_ARRAY_TASK_ID "x" is not a task number`},
		{[]string{"sweep", "run", "--plan", "plan.json", "--out", "res"}, "PBS_ARRAY_INDEX=5", 2, "$PBS_ARRAY_INDEX 5 out of the plan's range"},
		{[]string{"sweep", "run", "--plan", "edited.json", "--task", "0", "--out", "res"}, "", 1, "edited.json: bad plan: tasks 12; want 1 γ × 5 folds"},
		{[]string{"sweep", "run", "--plan", "v1.json", "--task", "0", "--out", "res"}, "", 1, fmt.Sprintf("v1.json: bad plan: a mark1 sweep plan of version 1, made by an older mark1; this mark1 reads version %d (make the plan again)", selection.Version)},
		{[]string{"sweep", "merge", "--plan", "plan.json", "v1"}, "", 1, fmt.Sprintf("v1/task-0000000.json: a mark1 sweep result of version 1; this mark1 reads version %d", selection.Version)},
		{[]string{"sweep", "merge", "--plan", "plan.json", "cedit"}, "", 1, "task 2's column, C values, fold or counts disagree with the plan"},
		{[]string{"sweep", "run", "--plan", "plan.json", "--task", "0", "--out", "v1"}, "", 1, "v1 holds files that are not this plan's results"},
		{[]string{"sweep", "run", "--plan", "model.json", "--task", "0", "--out", "res"}, "", 1, "model.json: not a mark1 sweep plan"},
		{[]string{"sweep", "run", "--plan", "plan.json", "--task", "0", "--out", "other"}, "", 1, "other holds files that are not this plan's results"},
		{[]string{"sweep", "run", "--plan", "plan.json", "--task", "0", "--out", "f.csv"}, "", 2, "--out f.csv is read with --plan plan.json"},
		{[]string{"sweep", "merge", "--plan", "plan.json", "other"}, "", 1, "a result of another plan"},
		{[]string{"sweep", "merge", "--plan", "plan.json", "empty"}, "", 1, "5 tasks without a result: 0 (gamma 0.5, fold 0)"},
		{[]string{"sweep", "merge", "--plan", "plan.json", "nowhere"}, "", 1, "nowhere: no such file"},
		{[]string{"sweep", "merge", "--plan", "plan.json"}, "", 2, "at least one results folder"},
		{[]string{"sweep", "jump"}, "", 2, "want one of plan, run, merge"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " ")+" "+tt.env, func(t *testing.T) {
			if tt.env != "" {
				kv := strings.SplitN(tt.env, "=", 2)
				t.Setenv(kv[0], kv[1])
			}
			before := snapshot(t, dir)
			code, _, errOut := run(t, dir, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("exit %d, %q; want exit %d and one line with %q", code, errOut, tt.code, tt.want)
			}
			after := snapshot(t, dir)
			if len(after) != len(before) {
				t.Errorf("files changed: %d before, %d after", len(before), len(after))
			}
			for p, b := range before {
				if after[p] != b {
					t.Errorf("%s changed", p)
				}
			}
		})
	}
}

// TestSweepByPairAsGrid: a plan split by pair — a task per one-vs-one
// binary problem of each fold and γ — merges into grid's table byte for
// byte (warm and cold along C, with scaling and balanced class weights,
// rbf and poly), and merge refuses a task's votes edited by hand.
func TestSweepByPairAsGrid(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.libsvm"), blobs(5, 160, 3, []string{"1", "2", "3", "4"}), 0o644)
	for k, extra := range [][]string{
		{"--gamma", "0.25,1,scale"},
		{"--gamma", "0.5,auto", "--scale", "01", "--class-weight", "balanced"},
		{"--kernel", "poly", "--gamma", "0.5", "--warm-start=false"},
	} {
		args := append([]string{"--data", "b.libsvm", "--C", "0.5,2,8", "--folds", "3"}, extra...)
		want := runOK(t, dir, append([]string{"grid"}, args...)...)
		plan, out := fmt.Sprintf("p%d.json", k), fmt.Sprintf("r%d", k)
		code, count, errs := run(t, dir, append([]string{"sweep", "plan", "--by-pair", "--count", "--plan", plan}, args...)...)
		n, _ := strconv.Atoi(strings.TrimSpace(count))
		if code != 0 || n != len(strings.Split(extra[1], ","))*3*6 {
			t.Fatalf("plan: exit %d, %q tasks; %s", code, count, errs)
		}
		for i := n - 1; i >= 0; i-- { // any order
			runOK(t, dir, "sweep", "run", "--plan", plan, "--out", out, "--task", strconv.Itoa(i))
		}
		code, got, errs := run(t, dir, "sweep", "merge", "--plan", plan, out)
		if code != 0 || got != want {
			t.Fatalf("%v: merge exit %d %s\n%s\nwant grid's\n%s", extra, code, errs, got, want)
		}
	}
	// a vote flipped by hand, the count kept: the checksum refuses it
	f := filepath.Join(dir, "r0", "task-0000001.json")
	b, _ := os.ReadFile(f)
	var r map[string]any
	json.Unmarshal(b, &r)
	v := r["votes"].([]any)
	s := []byte(v[0].(string))
	s[0] ^= 1 // a base64 character for another
	v[0] = string(s)
	b, _ = json.MarshalIndent(r, "", " ")
	os.WriteFile(f, b, 0o644)
	if code, _, errs := run(t, dir, "sweep", "merge", "--plan", "p0.json", "r0"); code == 0 || !strings.Contains(errs, "task-0000001.json") {
		t.Errorf("an edited vote merged: exit %d %s", code, errs)
	}
	// --by-pair is for the kernel SVM
	if code, _, errs := run(t, dir, "sweep", "plan", "--by-pair", "--data", "b.libsvm", "--learner", "linear-svm", "--C", "1", "--plan", "x.json"); code != 2 || !strings.Contains(errs, "--by-pair") {
		t.Errorf("linear-svm by pair: exit %d %s", code, errs)
	}
}

// regressionData writes n rows of a smooth function of 3 features with
// noise, as 6-digit libsvm text.
func regressionData(t *testing.T, path string, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 1))
	var b strings.Builder
	for range n {
		x := []float64{rng.Float64()*2 - 1, rng.Float64()*2 - 1, rng.Float64()*2 - 1}
		y := 2*x[0] - x[1] + 0.5*x[2]*x[2] + 0.1*rng.NormFloat64()
		fmt.Fprintf(&b, "%.6f 1:%.6f 2:%.6f 3:%.6f\n", y, x[0], x[1], x[2])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCVEveryLearner runs fit --cv 3 with every learner of the registry:
// each either cross-validates (exit 0, its figure printed) or is refused in
// one line (exit 2); none panics. Classifiers see two classes, the
// regressions numeric targets.
func TestCVEveryLearner(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.libsvm"), blobs(7, 60, 4, []string{"1", "2"}), 0o644)
	regressionData(t, filepath.Join(dir, "r.libsvm"), 30)
	for _, spec := range learners.All() {
		t.Run(spec.Name, func(t *testing.T) {
			data := "c.libsvm"
			if spec.Needs.Values && !spec.Needs.Unlabelled {
				data = "r.libsvm"
			}
			code, out, errs := run(t, dir, "fit", "--data", data, "--learner", spec.Name, "--cv", "3", "--quiet")
			switch {
			case strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine"):
				t.Fatalf("panic: %s", errs)
			case spec.Needs.Unlabelled:
				if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") > 0 || !strings.Contains(errs, "without labels") {
					t.Errorf("exit %d %q; want one line refusing it (exit 2)", code, errs)
				}
			case spec.Needs.Values:
				if code != 0 || !strings.Contains(out, "Mean squared error") || !strings.Contains(out, "plain folds") {
					t.Errorf("exit %d, %q %q; want the regression's cross-validation", code, out, errs)
				}
			case code == 2 && strings.Count(strings.TrimSpace(errs), "\n") == 0:
				// refused in one line (a learner --cv does not take)
			case code != 0 || !strings.Contains(out, "Cross Validation Accuracy"):
				t.Errorf("exit %d, %q %q; want an accuracy", code, out, errs)
			}
		})
	}
}

// TestRegressionCVAgainstLIBSVM: leave-one-out (--cv n: every fold one row,
// whatever the shuffle) gives svm-train -s 3 -v n's mean squared error and
// squared correlation coefficient, to the solvers' tolerance.
func TestRegressionCVAgainstLIBSVM(t *testing.T) {
	testtool.Need(t, "svm-train", "libsvm-tools")
	dir := t.TempDir()
	data := filepath.Join(dir, "r.libsvm")
	regressionData(t, data, 40)
	out := runOK(t, dir, "fit", "--data", "r.libsvm", "--learner", "epsilon-svr", "--cv", "40", "--kernel", "rbf", "--gamma", "0.5", "--C", "4", "--epsilon", "0.1", "--quiet")
	lib, err := exec.Command("svm-train", "-s", "3", "-v", "40", "-g", "0.5", "-c", "4", "-p", "0.1", data).Output()
	if err != nil {
		t.Fatal(err)
	}
	num := func(text, what string) float64 {
		m := regexp.MustCompile(regexp.QuoteMeta(what) + ` = (\S+)`).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no %q in %q", what, text)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	for _, what := range []string{"Cross Validation Mean squared error", "Cross Validation Squared correlation coefficient"} {
		got, want := num(out, what), num(string(lib), what)
		if math.Abs(got-want) > 2e-3*math.Abs(want) {
			t.Errorf("%s: mark1 %g, svm-train %g", what, got, want)
		}
	}
}

// TestGridRefusesValues: the grid and the sweep compare classifiers'
// accuracies; a regression or the one-class SVM is refused in one line.
func TestGridRefusesValues(t *testing.T) {
	dir := t.TempDir()
	regressionData(t, filepath.Join(dir, "r.libsvm"), 30)
	for _, l := range []string{"epsilon-svr", "nu-svr", "one-class"} {
		for _, args := range [][]string{
			{"grid", "--data", "r.libsvm", "--learner", l, "--png", ""},
			{"sweep", "plan", "--data", "r.libsvm", "--learner", l, "--plan", "p.json"},
		} {
			code, _, errs := run(t, dir, args...)
			if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") > 0 || !strings.Contains(errs, "fit --cv") {
				t.Errorf("%v: exit %d %q; want one line pointing to fit --cv", args, code, errs)
			}
		}
	}
}

// TestPlanForeignData: a plan whose data path names a file that is not its
// data is refused without echoing what that file holds.
func TestPlanForeignData(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "d.libsvm"), blobs(7, 60, 4, []string{"1", "2"}), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("root:x:0:0:secret line\n"), 0o644)
	runOK(t, dir, "sweep", "plan", "--data", "d.libsvm", "--C", "1", "--gamma", "1", "--folds", "2", "--plan", "p.json")
	code, _, errs := run(t, dir, "sweep", "run", "--plan", "p.json", "--task", "0", "--out", "res", "--data", "secret.txt")
	if code != 1 || strings.Contains(errs, "secret line") || !strings.Contains(errs, "not the data of plan") {
		t.Errorf("exit %d %q; want 1, the file named, its content not", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "res")); err == nil {
		t.Error("the refused run left its --out folder")
	}
}

// TestLOOBound: leave-one-out (--cv n) of the C-SVM prints its error beside
// #SV/n of the SVM on all rows, and the error is at most that fraction, on
// every example of the lab and on shipped tasks; on one of them the error
// and the support vectors are svm-train's (-v n, then the model's total_sv).
func TestLOOBound(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, e := range lab.Examples() {
		var b strings.Builder
		for i, x := range e.X {
			fmt.Fprintf(&b, "%d", e.Y[i])
			for j, v := range x {
				fmt.Fprintf(&b, " %d:%g", j+1, v)
			}
			b.WriteByte('\n')
		}
		f := e.Name + ".libsvm"
		os.WriteFile(filepath.Join(dir, f), []byte(b.String()), 0o644)
		files = append(files, f)
	}
	for _, task := range []string{"leftright", "square-circle", "e-f"} {
		runOK(t, dir, "stimuli", "--task", task, "--n", "12", "--format", "libsvm", "--out", task+".libsvm")
		files = append(files, task+".libsvm")
	}
	re := regexp.MustCompile(`Leave-one-out error = (\S+)% ≤ #SV/n = (\d+)/(\d+)`)
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		n := strconv.Itoa(strings.Count(string(b), "\n"))
		code, out, errs := run(t, dir, "fit", "--data", f, "--cv", n, "--C", "10", "--quiet")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", f, code, errs)
			continue
		}
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Errorf("%s: no bound in %q", f, out)
			continue
		}
		loo, _ := strconv.ParseFloat(m[1], 64)
		sv, _ := strconv.Atoi(m[2])
		rows, _ := strconv.Atoi(m[3])
		if loo/100 > float64(sv)/float64(rows)+1e-12 {
			t.Errorf("%s: leave-one-out error %g%% above #SV/n = %d/%d", f, loo, sv, rows)
		}
	}
	testtool.Need(t, "svm-train", "libsvm-tools")
	data := filepath.Join(dir, "square-circle.libsvm")
	code, out, _ := run(t, dir, "fit", "--data", data, "--cv", "24", "--C", "10", "--gamma", "0.0001", "--quiet")
	lib, err := exec.Command("svm-train", "-c", "10", "-g", "0.0001", "-v", "24", data).Output()
	if code != 0 || err != nil {
		t.Fatalf("mark1 exit %d, svm-train %v", code, err)
	}
	acc := regexp.MustCompile(`Cross Validation Accuracy = (\S+)%`)
	if a, b := acc.FindStringSubmatch(out), acc.FindStringSubmatch(string(lib)); a == nil || b == nil || a[1] != b[1] {
		t.Errorf("leave-one-out accuracy: mark1 %v, svm-train %v", a, b)
	}
	if err := exec.Command("svm-train", "-c", "10", "-g", "0.0001", data, filepath.Join(dir, "m.model")).Run(); err != nil {
		t.Fatal(err)
	}
	model, _ := os.ReadFile(filepath.Join(dir, "m.model"))
	if m := re.FindStringSubmatch(out); m == nil || !strings.Contains(string(model), "total_sv "+m[2]+"\n") {
		t.Errorf("#SV: mark1 %v; svm-train's model says %q", m, regexp.MustCompile(`total_sv \d+`).FindString(string(model)))
	}
}

// TestGridWritesOnlyWhenAsked: grid and sweep merge draw no picture unless
// --png names one (grid.py writes grid.png unasked; mark1 does not).
func TestGridWritesOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "d.libsvm"), blobs(7, 40, 4, []string{"1", "2"}), 0o644)
	before := listing(t, dir)
	runOK(t, dir, "grid", "--data", "d.libsvm", "--C", "1,2", "--gamma", "0.5,1", "--folds", "2")
	if after := listing(t, dir); len(after) != len(before) {
		t.Errorf("grid without --png wrote %v", after[len(before):])
	}
}
