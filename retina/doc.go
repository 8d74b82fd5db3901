// Package retina simulates the Mark I's sensory units: a grid of cadmium
// sulphide photocells (S-units), 20x20 on the 1958 machine, onto which a
// camera lens focused a strongly lit printed card.
//
// A picture reaches the photocells in two steps. Fit is the optics: it turns
// any grey picture into a field of light levels, one per cell — figure or
// background decided (polarity), optionally cropped to the figure, scaled
// with its aspect ratio kept and centred, each cell integrating the light
// over its own area, as a photocell does. Expose is the cells themselves: each
// compares its light level with a threshold (one global level; automatic
// per picture by Otsu's method, the default, for evenly lit printed cards;
// or adaptive, each cell against the mean light of the cells around it, for
// photographed cards lit unevenly — see LocalThresholds), with an optional
// per-cell spread of thresholds, dead cells, and noise that flips a reading.
//
// Fit is deterministic, so a data set is fitted once; Expose is what runs on
// every presentation.
package retina
