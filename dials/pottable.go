package dials

import "mark1/machine"

// TableOptions say how the table of a machine's pots is made.
type TableOptions struct {
	// Sort is the key the pots are sorted by (SortKeys); empty means "id".
	// Desc sorts in descending order.
	Sort string
	Desc bool
	// Top keeps the first Top pots of the table; 0 keeps them all.
	Top int
	// Bins is the number of bins of the summary's histogram of positions
	// (Summarize); 0 means 10.
	Bins int
}

// Table returns the summary of m's pots and their table as o orders it;
// an unknown sort key is an error (SortPots).
func Table(m *machine.Machine, o TableOptions) (Summary, []Pot, error) {
	pots := Pots(m)
	if o.Sort == "" {
		o.Sort = "id"
	}
	if err := SortPots(pots, o.Sort, o.Desc); err != nil {
		return Summary{}, nil, err
	}
	if o.Top > 0 && o.Top < len(pots) {
		pots = pots[:o.Top]
	}
	return Summarize(m, o.Bins), pots, nil
}
