package param_test

import (
	"fmt"
	"strconv"

	"mark1/internal/base/param"
)

// settings is a part's options, as a registry offers them by name.
type settings struct {
	Units int
	Label string
}

// A part's registry: each option's name, the fields its errors name, its
// default and meaning, and how text sets it; given 0, units asks for none,
// which the part refuses.
func ExampleSetting() {
	opts := []param.Option[settings]{
		param.Setting("units", "units", 16, "how many units", param.To(func(s *settings, v int) { s.Units = param.None(v) })),
		param.Setting("label", "label", "a", "the label", param.To(func(s *settings, v string) { s.Label = v })),
	}
	var s settings
	for _, o := range opts {
		fmt.Println(o.Name, o.Fields, o.Default, o.Set(&s, map[string]string{"units": "0", "label": "b"}[o.Name]))
	}
	fmt.Println(s, opts[0].Set(&s, "many"))
	if o, ok := param.Find(opts, "label"); ok {
		fmt.Println(o.Doc)
	}
	// Output:
	// units [units] 16 <nil>
	// label [label] a <nil>
	// {-1 b} "many" is not a int
	// the label
}

// withError is a field error whose range depends on another setting.
type withError struct{ *param.FieldError }

func (e withError) FieldsWith() []string { return []string{"limit"} }

// The fields of a field error: its own, then those its range depends on.
func ExampleFields() {
	fmt.Println(param.Fields(param.Errorf("step", 0.05, "at most %s", strconv.Quote("limit"))))
	fmt.Println(param.Fields(withError{param.Errorf("step", 0.05, "at most the limit")}))
	fmt.Println(param.Fields(fmt.Errorf("plain")))
	// Output:
	// [step]
	// [step limit]
	// []
}
