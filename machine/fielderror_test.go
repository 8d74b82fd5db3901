package machine

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"mark1/internal/base/param"
	"mark1/response"
)

// A recipe's field error is found as every other part's field error is.
func TestFieldErrorIsFielded(t *testing.T) {
	err := fmt.Errorf("machine.json: %w", &FieldError{Field: "decay", Value: -1, Range: "a number in [0, 1]"})
	f := param.As(err)
	if f == nil || f.FieldName() != "decay" || f.FieldValue() != "-1" || f.FieldRange() != "a number in [0, 1]" {
		t.Errorf("param.As(%v) = %v", err, f)
	}
}

// TestConfigFieldErrors: Config.Validate names a setting out of range by
// its path in the configuration's JSON, with the settings its range
// depends on, whichever part checks it.
func TestConfigFieldErrors(t *testing.T) {
	for _, tc := range []struct {
		edit  func(c *Config)
		field string
		with  []string
	}{
		{func(c *Config) { c.Retina.Noise = 2 }, "retina.noise", nil},
		{func(c *Config) { c.Retina.Width = -1 }, "retina.width", nil},
		{func(c *Config) { c.Retina.Threshold, c.Retina.Adaptive = 0.5, true }, "retina.threshold", []string{"retina.adaptive"}},
		{func(c *Config) { c.Associator.Units = -5 }, "associator.units", nil},
		{func(c *Config) { c.Associator.Excitatory = 400 }, "associator.excitatory", []string{"associator.inhibitory", "retina.width", "retina.height"}},
		{func(c *Config) { c.Associator.Threshold = 99 }, "associator.threshold", []string{"associator.excitatory"}},
		{func(c *Config) { c.Response.Units = 2000 }, "response.units", nil},
		{func(c *Config) { c.Response.Layout, c.Response.Omega = response.Full, 0.5 }, "response.omega", []string{"response.layout"}},
		{func(c *Config) { c.Motors.Limit, c.Motors.Step = 0.01, 0.05 }, "motors.step", []string{"motors.limit"}},
		{func(c *Config) { c.Motors.StepNoise = -1 }, "motors.step_noise", nil},
		{func(c *Config) { c.Motors.PulseSeconds = -1 }, "motors.pulse_seconds", nil},
		{func(c *Config) { c.PresentSeconds = -1 }, "present_seconds", nil},
		{func(c *Config) { c.Faults.DeadA = 2 }, "faults.dead_a", nil},
	} {
		c, _ := Preset("mark1")
		tc.edit(&c)
		err := c.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !slices.Equal(fe.With, tc.with) {
			t.Errorf("%s: %v; want a FieldError on %s with %v", tc.field, err, tc.field, tc.with)
		}
		if f := param.As(err); f == nil || f.FieldName() != tc.field {
			t.Errorf("%s: param.As(%v) = %v", tc.field, err, f)
		}
	}
}
