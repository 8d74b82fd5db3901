// Package images is everything the simulator knows about pictures: reading
// data sets from files, generating the stimuli of the 1958–60 experiments,
// and writing pictures back out.
//
// # Pictures
//
// A picture is an *image.Gray holding grey levels as they were read: 0 is
// black and 255 white, paper white and ink black for a printed card. The
// Mark I saw a strongly lit card through a camera lens focused on its 20×20
// grid of photocells; in the simulator the retina package does that part,
// fitting a picture of any size onto its grid and deciding which way round
// the polarity is. This package therefore resizes what it loads only to
// bound memory: a picture of more than KeepPixels (1 megapixel) is box-
// averaged down to at most that, which the photocells, integrating light
// over their areas, cannot tell apart. A JPEG is turned the way up its EXIF
// orientation says, so phone photos are seen as they were taken.
//
// # Reading
//
// Load reads a labelled Dataset from a folder of class folders, an IDX file
// (the MNIST format, gzipped or not) or libsvm text, recognising the format
// by content. LoadImage reads one picture for prediction. The IDX format
// (dataset.ReadIDX, dataset.WriteIDX) and libsvm text (dataset.Read,
// dataset.WriteLibSVM) are package dataset's to read and write, and this
// package only turns their items and rows into pictures. Every refusal over a limit
// wraps dataset.ErrTooLarge. Input is treated as hostile: sizes, and for a picture the
// memory its decoding takes, are checked against Limits from headers before
// anything is decoded or allocated, every error names
// the file and place, and no input makes the package panic (the parsers are
// fuzzed).
//
// # Built-in tasks
//
// Generate draws the stimuli of the historical experiments, dark ink on a
// white card, reproducibly from a seed: squares on the left or right of the
// field (the 1958 press demonstration, learned in about 50 trials), simple
// shapes, and the 26 capital letters in one or two typefaces (the 1960 Navy
// demonstration: error-free on one typeface, 85% once a second was added).
// Tasks lists them. Letters are rendered from real outline fonts (Go Regular
// and Go Mono) with exact-area antialiasing.
//
// # Writing
//
// WriteFolder writes a data set as class folders of PNG files, readable by
// Load, atomically; ContactSheet lays samples out on one picture for people
// to look at.
package images
