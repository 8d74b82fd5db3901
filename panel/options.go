package panel

import (
	"cmp"
	"time"

	"mark1/images"
	"mark1/internal/base/param"
)

// ConfigOptions returns the settings of a panel's Config that a front end
// offers by name (mark1 serve's flags), with their defaults: the cards per
// class, the largest upload and uploaded picture, the delay and the
// upload's time. Given 0, a setting asks for none (param.None), which
// Validate refuses, where Config reads 0 as its default; a delay of 0
// trains at full speed (NoDelay).
func ConfigOptions() []param.Option[Config] {
	return []param.Option[Config]{
		param.Setting("n", "per_class", DefaultPerClass, "cards per class",
			param.To(func(c *Config, v int) { c.PerClass = param.None(v) })),
		param.Setting("max-upload", "max_upload", int64(DefaultMaxUpload), "largest picture upload, in bytes",
			param.To(func(c *Config, v int64) { c.MaxUpload = param.None(v) })),
		param.Setting("max-pixels", "limits.max_pixels", images.DefaultMaxPixels, "refuse uploaded pictures larger than this many pixels (checked before decoding); pictures over 1 megapixel are kept box-averaged down to at most 1 megapixel",
			param.To(func(c *Config, v int) { c.Limits.MaxPixels = param.None(v) })),
		param.Setting("delay", "delay", DefaultDelay, "pause between presentations while training runs",
			param.To(func(c *Config, v time.Duration) { c.Delay = cmp.Or(v, NoDelay) })),
		param.Setting("upload-timeout", "upload_timeout", DefaultUploadTimeout, "time an upload's body may take to arrive",
			param.To(func(c *Config, v time.Duration) { c.UploadTimeout = param.None(v) })),
	}
}
