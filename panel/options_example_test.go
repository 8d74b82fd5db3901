package panel_test

import (
	"fmt"

	"mark1/panel"
)

// A front end sets a panel's Config by the options' names, from text, as
// mark1 serve's flags do; a value out of range is refused by the panel's
// own rule, naming the option's field.
func ExampleConfigOptions() {
	var cfg panel.Config
	for _, o := range panel.ConfigOptions() {
		text := map[string]string{"n": "50", "max-upload": "0", "max-pixels": "0", "delay": "0s", "upload-timeout": "1m"}[o.Name]
		fmt.Println(o.Name, o.Fields, o.Default, o.Set(&cfg, text))
	}
	fmt.Println(cfg.PerClass, cfg.Limits.MaxPixels, cfg.Delay == panel.NoDelay, cfg.UploadTimeout)
	fmt.Println(cfg.Validate())
	// Output:
	// n [per_class] 20 <nil>
	// max-upload [max_upload] 16777216 <nil>
	// max-pixels [limits.max_pixels] 33554432 <nil>
	// delay [delay] 20ms <nil>
	// upload-timeout [upload_timeout] 30s <nil>
	// 50 -1 true 1m0s
	// max_upload -1: want at least 1 (bytes)
}
