package machine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"mark1/machine"
)

// smallBody returns the "machine" member of a small trained-looking
// machine's file, decoded into generic JSON values for editing.
func smallBody(t *testing.T) map[string]any {
	t.Helper()
	cfg, err := machine.Preset("mark1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Associator.Units = 6
	cfg.Retina.Width, cfg.Retina.Height = 5, 4
	m, err := machine.New(cfg, []string{"a", "b", "c"}, machine.SeedsFrom(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	pg := 0.5
	m.History = []machine.Epoch{
		{Epoch: 1, Presentations: 10, Mistakes: 4, Pr: 0.6, Pg: &pg, Seconds: 30, Pulses: 8},
		{Epoch: 2, Presentations: 20, Mistakes: 2, Pr: 0.8, Pg: &pg, Seconds: 60, Pulses: 12},
	}
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	var file struct {
		Machine map[string]any `json:"machine"`
	}
	if err := json.Unmarshal(b.Bytes(), &file); err != nil {
		t.Fatal(err)
	}
	return file.Machine
}

// TestValidate edits one thing at a time in a machine file whose checksum
// is then made right again, and checks that each inconsistency is refused
// with a message naming it.
func TestValidate(t *testing.T) {
	units := func(b map[string]any) []any { return b["wiring"].(map[string]any)["units"].([]any) }
	history := func(b map[string]any) []any { return b["history"].([]any) }
	recipe := func(task string) map[string]any {
		return map[string]any{"data": map[string]any{"task": task, "test_split": 0.2, "seed": 1},
			"rule": "error-correction", "values": "alpha", "pulses": 1, "max_epochs": 5, "stop": "auto"}
	}
	tests := []struct {
		name string
		edit func(b map[string]any)
		want string // "" for a file that must load
	}{
		{"unchanged", func(map[string]any) {}, ""},
		{"negative A-units", func(b map[string]any) {
			b["config"].(map[string]any)["associator"].(map[string]any)["units"] = -5
		}, "-5 A-units out of range"},
		{"a billion A-units", func(b map[string]any) {
			b["config"].(map[string]any)["associator"].(map[string]any)["units"] = 1_000_000_000
		}, "1000000000 A-units out of range"},
		{"A-units differ from the wiring", func(b map[string]any) {
			b["config"].(map[string]any)["associator"].(map[string]any)["units"] = 7
		}, "7 A-units but the wiring 6"},
		{"one class", func(b map[string]any) { b["classes"] = []any{"a"} }, "1 classes"},
		{"duplicate class names", func(b map[string]any) { b["classes"] = []any{"a", "b", "a"} }, `class "a" appears twice`},
		{"empty class name", func(b map[string]any) { b["classes"] = []any{"a", "", "c"} }, "class 1 has an empty name"},
		{"unknown preset", func(b map[string]any) { b["config"].(map[string]any)["preset"] = "nosuch" }, `preset "nosuch" out of range`},
		{"class name longer than a folder's", func(b map[string]any) { b["classes"] = []any{"a", strings.Repeat("x", 256), "c"} }, "class 1 has a name of 256 bytes; at most 255"},
		{"origin point repeated in one unit", func(b map[string]any) {
			u := units(b)[0].(map[string]any)
			exc := u["exc"].([]any)
			u["inh"] = append(u["inh"].([]any), exc[0])
		}, "wired twice to A-unit 0"},
		{"origin point off the retina", func(b map[string]any) {
			units(b)[1].(map[string]any)["exc"] = []any{20}
		}, "off the 5x4 retina"},
		{"negative origin point", func(b map[string]any) {
			units(b)[1].(map[string]any)["exc"] = []any{-1}
		}, "origin point -1"},
		{"huge pot position", func(b map[string]any) {
			b["pots"].(map[string]any)["positions"].([]any)[0] = 1e308
		}, "beyond its end stops"},
		{"NaN-like pot position as a string", func(b map[string]any) {
			b["pots"].(map[string]any)["positions"].([]any)[0] = "NaN"
		}, "cannot unmarshal string"},
		{"negative pulses", func(b map[string]any) { b["pots"].(map[string]any)["pulses"] = -1 }, "pulses"},
		{"negative epoch", func(b map[string]any) {
			history(b)[0].(map[string]any)["epoch"] = -3
		}, "epoch -3"},
		{"epochs out of order", func(b map[string]any) {
			history(b)[1].(map[string]any)["epoch"] = 1
		}, "epoch 1 after epoch 1"},
		{"P_r 7.5", func(b map[string]any) {
			history(b)[1].(map[string]any)["p_r"] = 7.5
		}, "P_r 7.5 out of range"},
		{"P_g negative", func(b map[string]any) {
			history(b)[0].(map[string]any)["p_g"] = -0.1
		}, "P_g -0.1"},
		{"more mistakes than presentations", func(b map[string]any) {
			history(b)[0].(map[string]any)["mistakes"] = 11
		}, "11 mistakes in 10 presentations"},
		{"time going back", func(b map[string]any) {
			history(b)[1].(map[string]any)["seconds"] = 1
		}, "machine time"},
		{"the recorded task's classes", func(b map[string]any) {
			b["recipe"] = recipe("shapes")
			b["classes"] = []any{"square", "circle", "diamond", "triangle"}
		}, ""},
		{"an extra class beside the recorded task's", func(b map[string]any) {
			b["recipe"] = recipe("leftright")
			b["classes"] = []any{"left", "right", "up"}
		}, "not those of the task leftright"},
		{"classes of another task", func(b map[string]any) { b["recipe"] = recipe("leftright") }, "not those of the task leftright"},
		// On the user's own data a class added within the code's capacity
		// makes another consistent machine, as an edited pot does: the
		// checksum is no signature. The data's classes are compared with
		// the file's when they are read again (TestOwnDataExtraClass).
		{"an extra class on the user's data", func(b map[string]any) {
			b["recipe"] = map[string]any{"data": map[string]any{"path": "cards", "test_split": 0.2, "seed": 1},
				"rule": "error-correction", "values": "alpha", "pulses": 1, "max_epochs": 5, "stop": "auto"}
			b["classes"] = []any{"a", "b", "c", "d"}
		}, ""},
		{"classes in another order", func(b map[string]any) {
			b["recipe"] = recipe("leftright")
			b["classes"] = []any{"right", "left"}
		}, "not those of the task leftright"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := smallBody(t)
			tt.edit(b)
			raw, err := json.Marshal(b)
			if err != nil {
				t.Fatal(err)
			}
			_, err = machine.Decode(bytes.NewReader(withChecksum(raw)), "edited.json")
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused a consistent file: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted; want an error with %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "edited.json: ") || !errors.Is(err, machine.ErrFormat) {
				t.Errorf("error %q; want one naming edited.json with %q", err, tt.want)
			}
		})
	}
}

// TestDuplicateMember checks that a second "machine" member, which
// encoding/json would silently prefer, is refused.
func TestDuplicateMember(t *testing.T) {
	raw, _ := json.Marshal(smallBody(t))
	good := withChecksum(raw)
	if _, err := machine.Decode(bytes.NewReader(good), "good.json"); err != nil {
		t.Fatal(err)
	}
	dup := append(bytes.TrimSuffix(good, []byte("}")), []byte(`, "machine": {}}`)...)
	_, err := machine.Decode(bytes.NewReader(dup), "dup.json")
	if err == nil || !strings.Contains(err.Error(), `member "machine" appears twice`) {
		t.Errorf("error %v; want a duplicate member refused", err)
	}
}
