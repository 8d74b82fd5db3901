package learning_test

import (
	"context"
	"testing"

	"mark1/learning"
)

// On noisy data the averaged and voted perceptrons generalize better than the
// last iterate. Twenty fixed problems (20% label noise, 10 dimensions), each
// scored on 1500 clean test points: both must win on most problems and on
// average. With the fixed seeds the outcome is deterministic; the margins
// (about 10 points of error on average) make it robust to changes of detail.
func TestAveragingBeatsLastIterate(t *testing.T) {
	var last, avg, vote float64
	winsAvg, winsVote := 0, 0
	const problems = 20
	for s := range uint64(problems) {
		train := ptNoisy(100+s, 400, 10, 0.2)
		test := pt(ptPlanted(100+s, 1500, 10, 0, true)) // the same separator, no noise
		ctx := context.Background()
		p, _ := learning.Perceptron{Seed: s, MaxEpochs: 10}.Fit(ctx, train, nil)
		a, _ := learning.AveragedPerceptron{Seed: s, MaxEpochs: 10}.Fit(ctx, train, nil)
		v, _ := learning.VotedPerceptron{Seed: s, MaxEpochs: 10}.Fit(ctx, train, nil)
		ep, ea, ev := ptErrors(p.Model, test), ptErrors(a.Model, test), ptErrors(v.Model, test)
		last += ep / problems
		avg += ea / problems
		vote += ev / problems
		if ea < ep {
			winsAvg++
		}
		if ev < ep {
			winsVote++
		}
	}
	t.Logf("mean test error: last %.3f, averaged %.3f, voted %.3f; wins %d and %d of %d", last, avg, vote, winsAvg, winsVote, problems)
	if winsAvg < 16 || avg > last-0.03 {
		t.Errorf("averaged: got %d wins, mean error %.3f; want ≥ 16 wins and ≤ %.3f", winsAvg, avg, last-0.03)
	}
	if winsVote < 16 || vote > last-0.03 {
		t.Errorf("voted: got %d wins, mean error %.3f; want ≥ 16 wins and ≤ %.3f", winsVote, vote, last-0.03)
	}
}

// The pocket never holds weights worse on the training set than the last
// iterate of the same run (same seed, so the same trajectory), and on XOR-like
// noisy data it is much better.
func TestPocketKeepsBest(t *testing.T) {
	for s := range uint64(8) {
		d := ptNoisy(200+s, 300, 5, 0.15)
		p, _ := learning.Perceptron{Seed: s, MaxEpochs: 30}.Fit(context.Background(), d, nil)
		k, _ := learning.Pocket{Seed: s, MaxEpochs: 30}.Fit(context.Background(), d, nil)
		ep, ek := ptErrors(p.Model, d), ptErrors(k.Model, d)
		if ek > ep {
			t.Errorf("seed %d: got pocket training error %.3f; want ≤ last iterate's %.3f", s, ek, ep)
		}
		if k.Updates != p.Updates {
			t.Errorf("seed %d: got %d updates; want the perceptron's %d (same trajectory)", s, k.Updates, p.Updates)
		}
		if ek > 0.25 {
			t.Errorf("seed %d: got pocket training error %.3f; want ≤ 0.25 with 15%% noise", s, ek)
		}
	}
	// XOR: no line gets more than 3 of the 4 corners; the pocket finds one.
	// (A small random start avoids exact ties f = 0, which the pocket, like
	// the perceptron, counts as mistakes.)
	res, _ := learning.Pocket{Seed: 1, MaxEpochs: 50, InitScale: 0.1}.Fit(context.Background(), ptXOR(5), nil)
	if e := ptErrors(res.Model, ptXOR(1)); e != 0.25 {
		t.Errorf("XOR: got pocket error %v; want 0.25", e)
	}
}
