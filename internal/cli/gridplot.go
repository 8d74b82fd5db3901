package cli

import (
	"mark1/chart"
	"mark1/learning/selection"
)

// gridPicture draws a grid's cross-validation accuracy as grid.py does:
// over (log2 C, log2 γ) a colour map with contour lines, every cell's
// accuracy written in it and the best cell marked (chart.DrawSurface); a
// grid without numeric γ values (a kernel without γ, or scale/auto) as
// accuracy against log2 C, one line a γ (chart.DrawLines).
func gridPicture(t *selection.Table) (*chart.Drawing, error) {
	p, err := t.Picture()
	if err != nil {
		return nil, err
	}
	if !p.Surface {
		return chart.DrawLines(p.Title+"\n"+p.Best, "log2 C", "accuracy %", p.LogC, p.Names, p.Lines)
	}
	return chart.DrawSurface(chart.Surface{Title: p.Title + "\n" + p.Best, XLabel: "log2 C", YLabel: "log2 γ", ZLabel: "accuracy %",
		X: p.LogC, Y: p.LogGamma, Z: p.Accuracy, Mark: [2]float64{p.BestC, p.BestGamma}})
}
