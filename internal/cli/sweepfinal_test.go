package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// greyBlobs writes n rows of dim grey levels (b/255, as pictures are
// written) of four classes in a shuffled order, as libsvm text.
func greyBlobs(n, dim int) []byte {
	rng := rand.New(rand.NewPCG(11, 3))
	var b bytes.Buffer
	for range n {
		c := rng.IntN(4)
		fmt.Fprintf(&b, "%d", 7*c+2)
		for j := range dim {
			if v := (c*(j+3)*37)%200 + rng.IntN(120) - 60; v > 0 {
				fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(float64(min(v, 255))/255, 'g', -1, 64))
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestSweepFinalAsFit trains the final model a binary problem a task, the
// tasks in a shuffled order, and checks that sweep merge --model writes
// fit's model file byte for byte (float32 and grey rows, γ of scale,
// scaling, class weights, the poly and linear kernels), that apply reads
// it, and that a missing, repeated or edited result, data of another
// content and flags of a search are refused, naming the file or flag.
func TestSweepFinalAsFit(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.libsvm"), blobs(5, 240, 6, []string{"1", "2", "3", "4"}), 0o644)
	os.WriteFile(filepath.Join(dir, "g.libsvm"), greyBlobs(200, 16), 0o644)
	rng := rand.New(rand.NewPCG(3, 9))
	for k, args := range [][]string{
		{"--data", "b.libsvm", "--C", "4", "--gamma", "scale"},
		{"--data", "b.libsvm", "--C", "2", "--gamma", "0.5", "--scale", "01", "--class-weight", "balanced"},
		{"--data", "b.libsvm", "--kernel", "poly", "--C", "1", "--gamma", "0.25", "--class-weight", "2=3,4=0.5"},
		{"--data", "b.libsvm", "--kernel", "linear", "--C", "0.5"},
		{"--data", "g.libsvm", "--C", "8", "--gamma", "auto"},
	} {
		fit := fmt.Sprintf("fit%d.json", k)
		if code, _, errs := run(t, dir, append([]string{"fit", "--quiet", "--model", fit}, args...)...); code != 0 {
			t.Fatal(errs)
		}
		plan, out, merged := fmt.Sprintf("p%d.json", k), fmt.Sprintf("r%d", k), fmt.Sprintf("m%d.json", k)
		code, count, errs := run(t, dir, append([]string{"sweep", "plan", "--final", "--count", "--plan", plan}, args...)...)
		if n, _ := strconv.Atoi(strings.TrimSpace(count)); code != 0 || n != 6 {
			t.Fatalf("%v: plan: exit %d, %q tasks; %s", args, code, count, errs)
		}
		for _, i := range rng.Perm(6) {
			if code, _, errs := run(t, dir, "sweep", "run", "--plan", plan, "--out", out, "--task", strconv.Itoa(i), "--threads", "1"); code != 0 {
				t.Fatal(errs)
			}
		}
		if code, _, errs := run(t, dir, "sweep", "merge", "--plan", plan, out, "--model", merged); code != 0 {
			t.Fatalf("%v: merge: exit %d %s", args, code, errs)
		}
		want, _ := os.ReadFile(filepath.Join(dir, fit))
		got, _ := os.ReadFile(filepath.Join(dir, merged))
		if !bytes.Equal(got, want) {
			t.Fatalf("%v: the merged model (%d bytes) is not fit's (%d bytes)", args, len(got), len(want))
		}
		_, a, _ := run(t, dir, "apply", "--model", merged, "--data", args[1])
		_, b, _ := run(t, dir, "apply", "--model", fit, "--data", args[1])
		if a != strings.ReplaceAll(b, fit, merged) || !strings.Contains(a, "accuracy") {
			t.Errorf("apply: %q; fit's model: %q", a, b)
		}
	}
	// every number of a result is one JSON reads back
	b, _ := os.ReadFile(filepath.Join(dir, "r0", "task-0000000.json"))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	walkNumbers(v, "", func(path string, n json.Number) {
		if badNumber(string(n)) {
			t.Errorf("task-0000000.json: %s is %s", path, n)
		}
	})
	// refused: a missing task, one run twice, an edited machine, other data
	os.Rename(filepath.Join(dir, "r0", "task-0000003.json"), filepath.Join(dir, "task-0000003.json"))
	if code, _, errs := run(t, dir, "sweep", "merge", "--plan", "p0.json", "r0", "--model", "x.json"); code != 1 || !strings.Contains(errs, "1 task without a result: 3 (classes") {
		t.Errorf("a missing task: exit %d %s", code, errs)
	}
	os.Rename(filepath.Join(dir, "task-0000003.json"), filepath.Join(dir, "r0", "task-0000003.json"))
	if code, _, errs := run(t, dir, "sweep", "run", "--plan", "p0.json", "--out", "again", "--task", "2"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "sweep", "merge", "--plan", "p0.json", "r0", "again", "--model", "x.json"); code != 1 || !strings.Contains(errs, filepath.Join("again", "task-0000002.json")) {
		t.Errorf("a task run twice: exit %d %s", code, errs)
	}
	f := filepath.Join(dir, "r0", "task-0000004.json")
	b, _ = os.ReadFile(f)
	var r map[string]any
	json.Unmarshal(b, &r)
	m := r["machine"].(map[string]any)
	m["coef"].([]any)[0] = 0.5
	b, _ = json.MarshalIndent(r, "", " ")
	os.WriteFile(f, b, 0o644)
	if code, _, errs := run(t, dir, "sweep", "merge", "--plan", "p0.json", "r0", "--model", "x.json"); code != 1 || !strings.Contains(errs, "task-0000004.json") || !strings.Contains(errs, "edited") {
		t.Errorf("an edited machine: exit %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Error("a refused merge wrote its model")
	}
	if code, _, errs := run(t, dir, "sweep", "run", "--plan", "p0.json", "--out", "r5", "--task", "0", "--data", "g.libsvm"); code != 1 || !strings.Contains(errs, "a plan for other data") {
		t.Errorf("other data: exit %d %s", code, errs)
	}
	for _, bad := range [][]string{
		{"sweep", "plan", "--final", "--data", "b.libsvm", "--C", "1,2", "--gamma", "1", "--plan", "y.json"},
		{"sweep", "plan", "--final", "--data", "b.libsvm", "--C", "1", "--gamma", "1", "--folds", "3", "--plan", "y.json"},
		{"sweep", "plan", "--final", "--data", "b.libsvm", "--learner", "linear-svm", "--C", "1", "--plan", "y.json"},
		{"sweep", "merge", "--plan", "p1.json", "r1", "--model", "y.json", "--png", "y.png"},
		{"sweep", "merge", "--plan", "p1.json", "r1"},
	} {
		if code, _, errs := run(t, dir, bad...); code != 2 || !strings.Contains(errs, "--") {
			t.Errorf("%v: exit %d %s; want 2 naming the flag", bad, code, errs)
		}
	}
	if code, _, errs := run(t, dir, "sweep", "plan", "--data", "b.libsvm", "--C", "1", "--gamma", "1", "--folds", "2", "--plan", "grid.json"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, "sweep", "merge", "--plan", "grid.json", "r1", "--model", "y.json"); code != 2 || !strings.Contains(errs, "--model") {
		t.Errorf("--model of a grid: exit %d %s", code, errs)
	}
}

// TestSweepFinalScript runs docs/sweeps.md's Slurm script of the final
// model (its second bash block, linted) once per array index on a
// 10-class file, and checks that the merge is fit's model byte for byte.
func TestSweepFinalScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mark1 and runs 45 tasks as processes")
	}
	shellcheck := toolPath(t, "shellcheck", "shellcheck")
	path := buildMark1(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "train.libsvm"), blobs(9, 300, 5, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}), 0o644)
	flags := []string{"--data", "train.libsvm", "--C", "8", "--gamma", "0.0625"}
	if code, _, errs := run(t, dir, append([]string{"fit", "--quiet", "--model", "fit.json"}, flags...)...); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, dir, append([]string{"sweep", "plan", "--final", "--plan", "final.json"}, flags...)...); code != 0 {
		t.Fatal(errs)
	}
	b, _ := os.ReadFile(filepath.Join("..", "..", "docs", "sweeps.md"))
	blocks := regexp.MustCompile("(?s)```bash\n(.*?)```").FindAllSubmatch(b, -1)
	if len(blocks) < 2 || !strings.Contains(string(blocks[1][1]), "final.json") {
		t.Fatal("docs/sweeps.md: no second ```bash block, the final model's script")
	}
	script := string(blocks[1][1])
	os.WriteFile(filepath.Join(dir, "final.sh"), []byte(script), 0o755)
	shell(t, dir, path, "bash -n final.sh && "+shellcheck+" final.sh")
	if m := regexp.MustCompile(`#SBATCH --array=0-(\d+)`).FindStringSubmatch(script); m == nil || m[1] != "44" {
		t.Fatalf("the script's array: %v; want 0-44", m)
	}
	for i := range 45 {
		shell(t, dir, path, "./final.sh >/dev/null", "SLURM_ARRAY_TASK_ID="+strconv.Itoa(i), "SLURM_CPUS_PER_TASK=1")
	}
	if code, _, errs := run(t, dir, "sweep", "merge", "--plan", "final.json", "final-results", "--model", "model.json"); code != 0 {
		t.Fatal(errs)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "fit.json"))
	got, _ := os.ReadFile(filepath.Join(dir, "model.json"))
	if !bytes.Equal(got, want) {
		t.Fatal("the merged model is not fit's")
	}
}
