// Package chart is the drawing kit that the lab, the comparison pictures and
// the dials share: a Drawing described once and rendered as a raster image
// (Image, WritePNG) or as SVG (WriteSVG); a Pen that draws rectangles,
// circles, arcs, lines, pictures and text in pixel coordinates; Plots,
// which lays out gonum/plot charts in a grid with a caption and legends
// under them; the Diverging blue–white–red scale; and Frames, which turns
// drawings into an animated GIF in the palette it is given (GIFPalette
// makes one from a picture's own colours).
//
// It draws plain values and imports nothing of the machine, of images or
// of the learners.
package chart
