package machine

import (
	"context"

	"mark1/images"
	"mark1/internal/base/jsonnum"
	"mark1/learning"
)

// An Evaluation is a trained machine measured on a set of cards, its
// weights frozen: what eval prints.
type Evaluation struct {
	// Machine names the machine (its file), as the caller gives it.
	Machine  string  `json:"machine"`
	Data     string  `json:"data"`
	Cards    int     `json:"cards"`
	Accuracy float64 `json:"accuracy"`
	// Pairwise is Rosenblatt's 1958 measure (Machine.Pairwise): the
	// fraction of (card, other class) pairs in which the card's class is
	// preferred; equal to Accuracy for two classes.
	Pairwise  float64  `json:"pairwise"`
	Classes   []string `json:"classes"`
	Confusion [][]int  `json:"confusion"` // [true][answered], in Classes' order
	NoClass   []int    `json:"no_class"`  // [true]: cards the R-units gave no class
	// Clusters are how a machine trained without labels (spontaneous)
	// split the cards; nil for the other rules.
	Clusters *Clusters `json:"clusters,omitempty"`
	// Chance is the most common class's share of the cards; Empty names
	// the machine's classes the cards have none of.
	Chance float64  `json:"-"`
	Empty  []string `json:"-"`
}

// Evaluate measures m on the cards d (already labelled in m's classes),
// weights frozen, with fresh evaluation noise. It stops with ctx's error
// once ctx is cancelled.
func Evaluate(ctx context.Context, m *Machine, name string, d *images.Dataset) (*Evaluation, error) {
	fields, labels := m.Fit(d), Labels(d)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	conf := m.Confusion(fields, labels)
	e := &Evaluation{Machine: name, Data: d.Name, Cards: d.Len(), Classes: m.Classes,
		Accuracy: jsonnum.Zero(m.Accuracy(fields, labels)), Pairwise: jsonnum.Zero(m.Pairwise(fields, labels)),
		Chance: learning.Chance(labels)}
	for i, row := range conf {
		e.Confusion = append(e.Confusion, row[:len(m.Classes)])
		e.NoClass = append(e.NoClass, row[len(m.Classes)])
		n := 0
		for _, c := range row {
			n += c
		}
		if n == 0 {
			e.Empty = append(e.Empty, m.Classes[i])
		}
	}
	if m.Recipe != nil && m.Recipe.Rule == Spontaneous {
		c := clustersFrom(conf, labels)
		e.Clusters = &c
	}
	return e, nil
}
