package dataset

import "context"

// ReadLabels reads the data file at path as ReadFileContext does, a block
// of rows rows at a time (ReadBlocks), and keeps its labels alone: the set
// it returns describes the file (Describe, with Features and LabelName)
// and holds every row's class in Y, the classes in ReadFile's order, and
// no rows (RowStart is [0]). A reader that needs a few rows of a file, and
// needs all its labels to know which (the folds of a cross-validation),
// reads the labels so and then the rows it needs (ReadBlocks again),
// holding one block of rows at a time, never the file's.
func ReadLabels(ctx context.Context, path string, opt Options, rows int) (*Set, error) {
	var s *Set
	class := map[string]int{}
	var at []int // a block's classes as s numbers them
	err := ReadBlocks(ctx, path, opt, rows, func(b *Set, _ int) error {
		if s == nil {
			s = b.Describe()
			s.Features, s.LabelName, s.RowStart = b.Features, b.LabelName, []int{0}
		}
		s.QueryIDs += b.QueryIDs
		if b.Unlabelled {
			s.Y = append(s.Y, make([]int, b.Rows())...)
			return nil
		}
		at = at[:0]
		for range b.Classes {
			at = append(at, -1)
		}
		for _, y := range b.Y { // in row order: the classes in order of first appearance
			if at[y] < 0 {
				c, ok := class[b.Classes[y]]
				if !ok {
					c = len(s.Classes)
					class[b.Classes[y]] = c
					s.Classes = append(s.Classes, b.Classes[y])
				}
				at[y] = c
			}
			s.Y = append(s.Y, at[y])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	plusOneFirst(s.Classes, s.Y)
	return s, nil
}
