package panel

import (
	"errors"
	"testing"
	"time"

	"mark1/internal/base/param"
)

// TestConfigValidate holds Config's ranges, each refused with a field
// error in Config's own words; the zero value means the defaults, and
// NoDelay is the one negative delay.
func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   Config
		field string // "" when valid
		value string
	}{
		{"zero: the defaults", Config{}, "", ""},
		{"bounds", Config{PerClass: MaxPerClass, MaxUpload: 1, Delay: MaxDelay, UploadTimeout: time.Nanosecond}, "", ""},
		{"no delay", Config{Delay: NoDelay}, "", ""},
		{"per class negative", Config{PerClass: -1}, "per_class", "-1"},
		{"per class over", Config{PerClass: MaxPerClass + 1}, "per_class", "10001"},
		{"max upload negative", Config{MaxUpload: -1}, "max_upload", "-1"},
		{"delay negative", Config{Delay: -time.Second}, "delay", "-1s"},
		{"delay -1ns is not none", Config{Delay: -1}, "delay", "-1ns"},
		{"delay over", Config{Delay: MaxDelay + time.Millisecond}, "delay", "10.001s"},
		{"upload timeout negative", Config{UploadTimeout: -time.Second}, "upload_timeout", "-1s"},
	} {
		err := c.cfg.Validate()
		var f *param.FieldError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && !errors.As(err, &f):
			t.Errorf("%s: %v; want a field error", c.name, err)
		case c.field != "" && (f.Field != c.field || f.Value != c.value):
			t.Errorf("%s: field %q value %q; want %q %q", c.name, f.Field, f.Value, c.field, c.value)
		}
	}
	// New refuses what Validate refuses, naming the field.
	m := presetMachine(t, []string{"a", "b"}, 1, false)
	if _, err := New(Config{Machine: m, PerClass: -1}); param.As(err) == nil || param.As(err).FieldName() != "per_class" {
		t.Errorf("New with PerClass -1: %v; want the per_class field error", err)
	}
}
