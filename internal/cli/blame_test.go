package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"mark1/coupling"
	"mark1/machine"
	"mark1/response"
	"mark1/retina"
)

// TestBlame: a field error is said in the words of the flags given that
// set its field or the settings its range depends on, from the machine
// flags' table; none given, it is not the flags' fault.
func TestBlame(t *testing.T) {
	limit := &machine.FieldError{Field: "motors.step", Value: 0.05, Range: "at most 0.02", With: []string{"motors.limit"}}
	tests := []struct {
		name  string
		err   error
		given givenFlags
		want  string // "" when not the flags'
	}{
		{"its own flag", &machine.FieldError{Field: "retina.noise", Value: 2, Range: "[0, 1]"}, givenFlags{"cell-noise": "2"},
			"--cell-noise 2 out of range: want [0, 1]"},
		{"a pair", limit, givenFlags{"step": "0.05", "limit": "0.01"}, "--step 0.05 out of range with --limit 0.01: want at most 0.02"},
		{"the other of a pair", limit, givenFlags{"limit": "0.01"}, "--limit 0.01: motors.step 0.05 out of range: want at most 0.02"},
		{"wrapped", fmt.Errorf("machine: %w", limit), givenFlags{"step": "0.05"}, "--step 0.05 out of range: want at most 0.02"},
		{"a member under a flag", &machine.FieldError{Field: "faults.dead_a", Value: 2, Range: "[0, 1]"}, givenFlags{"faults": "dead-a=2"},
			"--faults dead-a=2: faults.dead_a 2 out of range: want [0, 1]"},
		{"one flag for two fields", &machine.FieldError{Field: "retina.threshold", Value: 0.5, Range: "0", With: []string{"retina.adaptive"}},
			givenFlags{"cell-threshold": "0.5"}, "--cell-threshold 0.5 out of range: want 0"},
		{"no flag given", limit, givenFlags{"x": "3"}, ""},
		{"a stage's own error, no table entry", &retina.FieldError{Field: "noise", Value: "2", Range: "[0, 1]"}, givenFlags{"cell-noise": "2"}, ""},
		{"not a field error", fmt.Errorf("plain"), givenFlags{"step": "1"}, ""},
	}
	table := machineFields()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := table.blame(tt.err, tt.given)
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("blame(%v) = %q, %v; want %q", tt.err, got, ok, tt.want)
			}
		})
	}
}

// TestMachineFieldsAreConfigPaths: every field of the machine flags' table
// is a member of a machine configuration's JSON (as machine.FieldError and
// a --config file name it), so a renamed member cannot leave a flag
// unblamed.
func TestMachineFieldsAreConfigPaths(t *testing.T) {
	cfg, err := machine.Preset("mark1")
	if err != nil {
		t.Fatal(err)
	}
	// Members left out of the JSON when zero, set so that they appear.
	cfg.Retina.Adaptive = true
	cfg.Response.Sets, cfg.Response.Decision, cfg.Response.Omega = response.FixedSets, response.Mean, 0.5
	cfg.Faults.DeadA = 0.1
	cfg.Associator.Window = 6
	cfg.Layers, cfg.Coupling = 4, coupling.Config{Eta: 1}.Defaults()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	for field, flag := range machineFields() {
		var v any = tree
		for _, part := range strings.Split(field, ".") {
			obj, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = obj[part]
		}
		if v == nil {
			t.Errorf("%s sets %q, which is not a member of the configuration %s", flag, field, b)
		}
	}
}
