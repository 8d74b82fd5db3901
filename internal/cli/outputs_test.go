package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mark1/images"
)

// walkNumbers calls f with every number in a decoded JSON value (decoded
// with UseNumber), and its path.
func walkNumbers(v any, path string, f func(path string, n json.Number)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			walkNumbers(x, path+"."+k, f)
		}
	case []any:
		for _, x := range v {
			walkNumbers(x, path+"[]", f)
		}
	case json.Number:
		f(path, v)
	}
}

// badNumber reports whether s is -0 (in any spelling), NaN or infinite.
func badNumber(s string) bool {
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		return true
	}
	if !strings.HasPrefix(s, "-") {
		return false
	}
	return strings.Trim(s[1:], "0.") == "" || strings.HasPrefix(strings.Trim(s[1:], "0."), "e") || strings.HasPrefix(strings.Trim(s[1:], "0."), "E")
}

// TestOutputsForPrograms runs every command's JSON and CSV output and
// checks what other programs rely on: the JSON parses, no number is -0,
// NaN or Inf, not-applicable values are null (JSON) or empty (CSV), and the
// CSV is rectangular with its header.
func TestOutputsForPrograms(t *testing.T) {
	dir := t.TempDir()
	// Two classes that no line separates (each picture twice, once per
	// label): compare's theory does not apply.
	contra := strings.Repeat("0 1:255 2:0 3:0 4:255\n1 1:255 2:0 3:0 4:255\n0 1:0 2:255 3:255 4:0\n1 1:0 2:255 3:255 4:0\n0 1:255 2:255 3:0 4:0\n1 1:0 2:0 3:255 4:255\n", 3)
	os.WriteFile(filepath.Join(dir, "contra.libsvm"), []byte(contra), 0o644)
	must := func(args ...string) string {
		t.Helper()
		code, out, errs := run(t, dir, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return out
	}
	must("train", "--task", "e-f", "--n", "10", "--quiet")
	must("train", "--task", "e-f", "--n", "10", "--quiet", "--limit", "0", "--out", "nolimit.json")
	must("stimuli", "--task", "e-f", "--n", "1", "--out", "cards")
	pngs, _ := filepath.Glob(filepath.Join(dir, "cards", "*", "*.png"))
	jsons := map[string][]string{
		"dials":             {"dials", "--json"},
		"dials no limit":    {"dials", "--machine", "nolimit.json", "--json"},
		"compare":           {"compare", "--task", "e-f", "--n", "10", "--json"},
		"compare --seeds":   {"compare", "--task", "e-f", "--n", "6", "--learners", "perceptron,hardware", "--seeds", "1-2", "--json"},
		"train":             {"train", "--task", "e-f", "--n", "10", "--json", "--out", "t.json"},
		"train no test":     {"train", "--task", "e-f", "--n", "10", "--test-split", "0", "--json", "--out", "t2.json"},
		"train --seeds":     {"train", "--task", "e-f", "--n", "6", "--seeds", "1-2", "--json"},
		"capacity":          {"capacity", "--d", "4", "--json"},
		"limits parity":     {"limits", "parity", "--k", "3", "--json"},
		"limits vc":         {"limits", "vc", "--json"},
		"limits figures":    {"limits", "figures", "--seeds", "1-2", "--wiring", "local:8", "--json"},
		"train --seeds all": {"train", "--task", "e-f", "--n", "6", "--seeds", "1-2", "--test-split", "0", "--json"},
		"compare contra":    {"compare", "--data", "contra.libsvm", "--learners", "perceptron,svm,hardware", "--json"},
		"ablate":            {"ablate", "--json", "--retrain", "1"},
		"ablate no retrain": {"ablate", "--json", "--retrain", "0"},
		"eval":              {"eval", "--task", "e-f", "--n", "5", "--json"},
		"predict":           append([]string{"predict", "--json"}, pngs...),
		"curves":            {"curves", "--figure", "pr58-8", "--seeds", "2", "--max-n", "3", "--json"},
		"levels":            {"levels", "--tasks", "e-f", "--seeds", "2", "--n", "4", "--epochs", "2", "--json"},
	}
	decoded := map[string]any{}
	for name, args := range jsons {
		dec := json.NewDecoder(strings.NewReader(must(args...)))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Errorf("%s: not JSON: %v", name, err)
			continue
		}
		decoded[name] = v
		walkNumbers(v, "", func(path string, n json.Number) {
			if badNumber(string(n)) {
				t.Errorf("%s: %s is %s", name, path, n)
			}
		})
	}
	// Documented nulls.
	if v, ok := decoded["compare contra"].(map[string]any); ok {
		for _, th := range v["theory"].([]any) {
			th := th.(map[string]any)
			if th["separable"] != false || th["radius"] != nil || th["margin"] != nil || th["bound"] != nil {
				t.Errorf("compare: theory on inseparable data: %v; want radius, margin, bound null", th)
			}
		}
		for _, r := range v["rows"].([]any) {
			r := r.(map[string]any)
			isSVM := r["learner"] == "svm"
			if (r["support_vectors"] == nil) == isSVM || (r["pulses"] == nil) == (r["learner"] == "hardware") {
				t.Errorf("compare row %v: support_vectors only for the SVM, pulses only for the hardware", r)
			}
		}
	}
	if v, ok := decoded["dials no limit"].(map[string]any); ok {
		if l := v["summary"].(map[string]any)["limit"]; l != nil {
			t.Errorf("dials without end stops: limit %v; want null", l)
		}
		for _, p := range v["pots"].([]any) {
			if p.(map[string]any)["percent"] != nil {
				t.Fatalf("dials without end stops: percent %v; want null", p.(map[string]any)["percent"])
			}
		}
	}
	if v, ok := decoded["ablate no retrain"].([]any); ok {
		for _, p := range v {
			if p.(map[string]any)["p_g_retrained"] != nil {
				t.Fatalf("ablate --retrain 0: p_g_retrained %v; want null", p.(map[string]any)["p_g_retrained"])
			}
		}
	}
	csvs := map[string][]string{
		"dials":          {"dials", "--csv"},
		"dials no limit": {"dials", "--machine", "nolimit.json", "--csv"},
		"compare":        {"compare", "--data", "contra.libsvm", "--learners", "perceptron,svm,hardware", "--csv"},
	}
	for name, args := range csvs {
		rows, err := csv.NewReader(bytes.NewReader([]byte(must(args...)))).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Errorf("%s --csv: %d rows, %v", name, len(rows), err)
			continue
		}
		for _, row := range rows[1:] {
			for i, cell := range row {
				if badNumber(cell) || cell == "-" {
					t.Errorf("%s --csv: column %s holds %q", name, rows[0][i], cell)
				}
			}
		}
	}
}

// TestStimuliFormats writes a task as an IDX pair and as libsvm text and
// reads both back with the loaders: the same cards, pixel for pixel, with
// their class numbers.
func TestStimuliFormats(t *testing.T) {
	dir := t.TempDir()
	want, err := images.Generate("e-f", 3, 12, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"stimuli", "--task", "e-f", "--n", "3", "--card-size", "12", "--seed", "5", "--format", "idx", "--out", "ef"},
		{"stimuli", "--task", "e-f", "--n", "3", "--card-size", "12", "--seed", "5", "--format", "libsvm", "--out", "ef.libsvm"},
	} {
		if code, _, errs := run(t, dir, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	for _, name := range []string{"ef-images-idx3-ubyte.gz", "ef.libsvm"} {
		got, err := images.Load(filepath.Join(dir, name), images.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Len() != want.Len() {
			t.Fatalf("%s: %d cards; want %d", name, got.Len(), want.Len())
		}
		for i, s := range got.Samples {
			w := want.Samples[i]
			if got.Classes[s.Label] != strconv.Itoa(w.Label) || !bytes.Equal(s.Image.Pix, w.Image.Pix) {
				t.Errorf("%s: card %d (class %s) differs from the task's (class %d)", name, i, got.Classes[s.Label], w.Label)
			}
		}
	}
	if code, _, _ := run(t, dir, "stimuli", "--format", "jpeg", "--out", "x"); code != 2 {
		t.Errorf("--format jpeg: exit %d; want 2", code)
	}
}
