package images

import "mark1/internal/base/param"

// SourceOptions returns the settings of a Source that a front end offers
// by name, with their defaults: the data's names (a built-in task, a path,
// a held-out path, and the fraction held out when there is none), the
// cards per class and their size for a built-in task, and the largest
// picture read. Given 0, a size asks for none (param.None), which Validate
// refuses, where Source reads 0 as its default.
func SourceOptions() []param.Option[Source] {
	return []param.Option[Source]{
		param.Setting("task", "task", "", "built-in task (see mark1 tasks); default "+DefaultTask+" when no {data}", param.To(func(s *Source, v string) { s.Task = v })),
		param.Setting("data", "path", "", "your data: a folder of class sub-folders of images, an IDX images file\n(labels beside it, or IMAGES,LABELS), or a libsvm text file",
			param.To(func(s *Source, v string) { s.Path = v })),
		param.Setting("test", "test_path", "", "held-out data (same forms as {data}) for P_g", param.To(func(s *Source, v string) { s.TestPath = v })),
		param.Setting("test-split", "test_split", 0.2, "fraction of the data held out for P_g when no {test} (seeded, stratified)", param.To(func(s *Source, v float64) { s.TestSplit = v })),
		param.Setting("n", "n", DefaultPerClass, "cards per class for a built-in task", param.To(func(s *Source, v int) { s.PerClass = param.None(v) })),
		param.Setting("card-size", "card_size", DefaultCardSize, "side in pixels of a built-in task's cards", param.To(func(s *Source, v int) { s.CardSize = param.None(v) })),
		param.Setting("max-pixels", "max_pixels", DefaultMaxPixels, "refuse pictures larger than this many pixels (checked before decoding)",
			param.To(func(s *Source, v int) { s.MaxPixels = param.None(v) })),
	}
}
