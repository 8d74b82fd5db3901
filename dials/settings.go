package dials

import (
	"strings"

	"mark1/internal/base/param"
)

// TableSettings returns the settings of a pot table (TableOptions) that a
// front end offers by name (mark1 dials' flags), with their defaults.
// Given 0, bins asks for none (param.None), which ValidateBins refuses,
// where Summarize reads 0 as 10.
func TableSettings() []param.Option[TableOptions] {
	return []param.Option[TableOptions]{
		param.Setting("sort", "sort", "id", "order of the table: "+strings.Join(SortKeys(), ", "), param.To(func(o *TableOptions, v string) { o.Sort = v })),
		param.Setting("desc", "desc", false, "sort in descending order", param.To(func(o *TableOptions, v bool) { o.Desc = v })),
		param.Setting("top", "top", 0, "print only the first N pots of the table (0 = all)", param.To(func(o *TableOptions, v int) { o.Top = v })),
		param.Setting("bins", "bins", 10, "bins of the histogram of positions", param.To(func(o *TableOptions, v int) { o.Bins = param.None(v) })),
	}
}

// AnimateSettings returns the settings of the panel's size and of an
// animation (AnimateOptions) that a front end offers by name, with their
// defaults: the panel's largest width and height (0 for the default), the
// time each frame is shown, and which epochs are drawn. Given 0, delay and
// every ask for none (param.None), which Validate refuses.
func AnimateSettings() []param.Option[AnimateOptions] {
	return []param.Option[AnimateOptions]{
		param.Setting("width", "panel.width", 0, "largest width of the panel in pixels (0 = automatic)", param.To(func(o *AnimateOptions, v int) { o.Panel.Width = v })),
		param.Setting("height", "panel.height", 0, "largest height of the panel in pixels (0 = automatic)", param.To(func(o *AnimateOptions, v int) { o.Panel.Height = v })),
		param.Setting("delay", "delay", 40, "time each epoch is shown, in hundredths of a second", param.To(func(o *AnimateOptions, v int) { o.Delay = param.None(v) })),
		param.Setting("every", "every", 1, "draw every Nth epoch of the recording (and always the last)", param.To(func(o *AnimateOptions, v int) { o.Every = param.None(v) })),
	}
}
