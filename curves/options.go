package curves

import "mark1/internal/base/param"

// Settings returns the settings of Options that a front end offers by name
// (mark1 curves' flags), with their defaults: the seeds per measured point
// and the largest number of stimuli per class. Given 0, each asks for none
// (param.None), which Validate refuses, where Options reads 0 as its
// default.
func Settings() []param.Option[Options] {
	return []param.Option[Options]{
		param.Setting("seeds", "seeds", 20, "seeds (machines) per measured point, 2 to 1000", param.To(func(o *Options, v int) { o.Seeds = param.None(v) })),
		param.Setting("max-n", "max_n", 300, "the largest number of stimuli per class measured on the machine, 1 to 10000 (pr58-9 measures at 1,000 or this if smaller)",
			param.To(func(o *Options, v int) { o.MaxN = param.None(v) })),
	}
}
