package images

import "mark1/internal/base/param"

// SourceOptions returns the settings of a Source that a front end offers
// by name beside the data's own names (a task, a path, a held-out path):
// the cards per class and their size for a built-in task, and the largest
// picture read. Given 0, each asks for none (param.None), which Validate
// refuses, where Source reads 0 as its default.
func SourceOptions() []param.Option[Source] {
	return []param.Option[Source]{
		param.Setting("n", "n", DefaultPerClass, "cards per class for a built-in task", param.To(func(s *Source, v int) { s.PerClass = param.None(v) })),
		param.Setting("card-size", "card_size", DefaultCardSize, "side in pixels of a built-in task's cards", param.To(func(s *Source, v int) { s.CardSize = param.None(v) })),
		param.Setting("max-pixels", "max_pixels", DefaultMaxPixels, "refuse pictures larger than this many pixels (checked before decoding)",
			param.To(func(s *Source, v int) { s.MaxPixels = param.None(v) })),
	}
}
