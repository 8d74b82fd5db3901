// Package dials shows the state of a Mark I's potentiometers — its learned
// values — as text and as pictures.
//
// The Mark I kept each value on a motor-driven potentiometer: a rotary pot
// whose wiper a small motor turned a fixed step per pulse, between two end
// stops. The operators read the machine's state off those dials. This
// package gives the simulated machine the same panel:
//
//   - Pots lists every pot (its A-unit, its R-unit or source-set, position,
//     per cent of its travel, whether it rests at an end stop or is stuck),
//     and Summarize counts saturated pots, bins their positions and reports
//     the motor pulses spent; WriteTable, WriteCSV and WriteJSON print them.
//   - Panel draws every pot as a dial face with its needle and end stops,
//     grouped by R-unit; WeightMaps projects each R-unit's values back onto
//     the retina through the plugboard; RetinaView shows one presentation
//     (photocells lit, A-units fired, R-unit lamps); Curves plots the
//     learning curves of the machine's history.
//   - What an R-unit responds to: Sensitivity measures, through the
//     machine itself, how each R-unit's sum changes when each photocell is
//     turned on rather than off, averaged over cards (SensitivityMaps draws
//     it); ClassMeans gives each class's mean card as the retina sees it
//     and the mean of the cards the machine gets wrong (MeanCards draws
//     them).
//   - CompareCurves draws a comparison of learners from plain values, one
//     panel per quantity, naming every run it cannot draw (NotDrawn).
//   - A Recorder keeps the pot positions after every training epoch, and
//     Animate turns a recording into an animated GIF of the dials turning.
//
// Pictures are returned as a *chart.Drawing, described once and rendered either
// as a raster image (Image, WritePNG) or as SVG (WriteSVG). Every function
// here is pure: it reads the machine and never changes it.
package dials
