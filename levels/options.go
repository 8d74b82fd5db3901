package levels

import (
	"strings"

	"mark1/internal/base/param"
)

// Settings returns the settings of Options that a front end offers by name
// (mark1 levels' flags), with their defaults: the tasks, comma-separated,
// the seeds, the cards per class and the epoch limit. Given 0, a number
// asks for none (param.None), which Validate refuses, where Options reads 0
// as its default.
func Settings() []param.Option[Options] {
	return []param.Option[Options]{
		param.Setting("tasks", "tasks", strings.Join(DefaultTasks(), ","), "comma-separated built-in tasks", param.To(func(o *Options, v string) { o.Tasks = strings.Split(v, ",") })),
		param.Setting("seeds", "seeds", 10, "master seeds 1…N, 2 to 1000", param.To(func(o *Options, v int) { o.Seeds = param.None(v) })),
		param.Setting("n", "per_class", 50, "cards per class (40% held out), 2 to 10000", param.To(func(o *Options, v int) { o.PerClass = param.None(v) })),
		param.Setting("epochs", "epochs", 50, "epoch limit of each machine, 1 to 100000", param.To(func(o *Options, v int) { o.Epochs = param.None(v) })),
	}
}
