package machine

import "mark1/learning"

// Clusters is how a machine trained without labels (spontaneous learning)
// split a set of cards, measured against the labels it never saw: each
// response counted as the class most of its cards belong to (cluster
// purity), how many responses it used, and whether it collapsed to one.
// Mistakes and P_r mean nothing here: a machine that puts every left card
// on one response and every right card on the other has split them
// perfectly whichever response it "names" left.
type Clusters struct {
	Cards int `json:"cards"`
	// Purity is Σ over responses of the cards of its commonest class, over
	// Cards (cards given no response count against it); 1 for a perfect
	// split, the commonest class's share (Chance) for a collapse.
	Purity float64 `json:"purity"`
	Chance float64 `json:"chance"`
	// Responses counts the responses given to at least one card; Collapsed
	// says it is at most one. Class[r] is response r's commonest class (-1
	// for a response given to no card).
	Responses int   `json:"responses"`
	Collapsed bool  `json:"collapsed"`
	Class     []int `json:"class"`
	// NoResponse counts the cards given no response.
	NoResponse int `json:"no_response"`
}

// ClustersOf measures how m's responses split fields against labels (the
// hidden classes), weights frozen, with fresh evaluation noise.
func (m *Machine) ClustersOf(fields [][]float32, labels []int) Clusters {
	return clustersFrom(m.Confusion(fields, labels), labels)
}

// clustersFrom measures a confusion matrix, [true][response] with a last
// column of cards given no response.
func clustersFrom(conf [][]int, labels []int) Clusters {
	k := len(conf[0]) - 1
	c := Clusters{Cards: len(labels), Class: make([]int, k), Chance: learning.Chance(labels)}
	most := 0
	for r := range k {
		best, at := 0, -1
		for y := range conf {
			if conf[y][r] > best {
				best, at = conf[y][r], y
			}
		}
		c.Class[r] = at
		if best > 0 {
			c.Responses++
		}
		most += best
	}
	for y := range conf {
		c.NoResponse += conf[y][k]
	}
	c.Collapsed = c.Responses <= 1
	if c.Cards > 0 {
		c.Purity = float64(most) / float64(c.Cards)
	}
	return c
}
