package images

import "image"

// ContactSheet lays the samples of d out on one picture for people to look
// at: cols to a row (if cols < 1, about as many rows as columns), each
// sample in a cell the size of the largest, magnified scale times by
// repeating pixels (scale < 1 means 1), cells separated by a mid-grey line
// one magnified pixel wide. It returns nil for an empty set.
func ContactSheet(d *Dataset, cols, scale int) *image.Gray {
	n := len(d.Samples)
	if n == 0 {
		return nil
	}
	scale = max(scale, 1)
	if cols < 1 {
		cols = 1
		for cols*cols < n {
			cols++
		}
	}
	cols = min(cols, n)
	rows := (n + cols - 1) / cols
	cw, ch := 1, 1
	for _, s := range d.Samples {
		if s.Image != nil {
			cw, ch = max(cw, s.Image.Rect.Dx()), max(ch, s.Image.Rect.Dy())
		}
	}
	gap := scale
	sw, sh := cols*(cw*scale+gap)+gap, rows*(ch*scale+gap)+gap
	sheet := image.NewGray(image.Rect(0, 0, sw, sh))
	for i := range sheet.Pix {
		sheet.Pix[i] = 128
	}
	for i, s := range d.Samples {
		x0 := gap + (i%cols)*(cw*scale+gap)
		y0 := gap + (i/cols)*(ch*scale+gap)
		m := s.Image
		if m == nil {
			continue
		}
		b := m.Rect
		for y := range ch * scale {
			row := sheet.Pix[(y0+y)*sheet.Stride+x0:]
			for x := range cw * scale {
				v := uint8(255) // pad smaller samples with white
				if sx, sy := x/scale, y/scale; sx < b.Dx() && sy < b.Dy() {
					v = m.GrayAt(b.Min.X+sx, b.Min.Y+sy).Y
				}
				row[x] = v
			}
		}
	}
	return sheet
}
