package machine_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mark1/images"
	"mark1/machine"
)

// TestForSeeds: results in seed order whatever the scheduling, the first
// error in seed order naming its seed.
func TestForSeeds(t *testing.T) {
	seeds := []uint64{5, 3, 9, 1, 7, 2}
	for _, threads := range []int{0, 1, 3, 8} {
		got, err := machine.ForSeeds(context.Background(), seeds, threads, func(_ context.Context, s uint64) (uint64, error) { return s * s, nil })
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			if got[i] != s*s {
				t.Fatalf("%d threads: result %d = %d, want %d", threads, i, got[i], s*s)
			}
		}
	}
	_, err := machine.ForSeeds(context.Background(), seeds, 2, func(_ context.Context, s uint64) (int, error) {
		if s == 9 || s == 7 {
			return 0, errors.New("boom")
		}
		return 0, nil
	})
	if err == nil || err.Error() != "seed 9: boom" {
		t.Errorf("error %v; want the first in seed order, seed 9: boom", err)
	}
}

// TestSeedExperiment: each seed's run is the run of a machine built and
// trained by hand with that master seed, and the results do not depend on
// the number of threads.
func TestSeedExperiment(t *testing.T) {
	cfg, err := machine.Preset("mark1")
	if err != nil {
		t.Fatal(err)
	}
	src := images.Source{Task: "leftright", PerClass: 12, CardSize: 20, TestSplit: 0.25}
	exp := machine.SeedExperiment{Config: cfg, Recipe: machine.Recipe{Data: src, MaxEpochs: 4}}
	seeds := []uint64{4, 1, 9}
	var byThreads [][]machine.SeedRun
	for _, threads := range []int{1, 3} {
		exp.Threads = threads
		runs, err := exp.Run(context.Background(), seeds)
		if err != nil {
			t.Fatal(err)
		}
		byThreads = append(byThreads, runs)
	}
	same := func(a, b machine.SeedRun) bool {
		pg := a.Pg == b.Pg || (math.IsNaN(a.Pg) && math.IsNaN(b.Pg))
		a.Pg, b.Pg = 0, 0
		return pg && a == b
	}
	if !slices.EqualFunc(byThreads[0], byThreads[1], same) {
		t.Errorf("1 thread %+v\n3 threads %+v", byThreads[0], byThreads[1])
	}
	for i, seed := range seeds {
		s := src
		s.Seed = seed
		train, test, err := s.Load()
		if err != nil {
			t.Fatal(err)
		}
		m, err := machine.New(cfg, train.Classes, machine.SeedsFrom(seed), nil)
		if err != nil {
			t.Fatal(err)
		}
		r := machine.Recipe{Data: s, MaxEpochs: 4}
		run(t, m, r, m.Fields(train), m.Fields(test))
		last := m.History[len(m.History)-1]
		got := byThreads[0][i]
		if got.Seed != seed || got.Epochs != len(m.History) || got.Pr != last.Pr || last.Pg == nil || got.Pg != *last.Pg || got.Train != train.Len() || got.Test != test.Len() {
			t.Errorf("seed %d: %+v; by hand %d epochs, P_r %v, P_g %v", seed, got, len(m.History), last.Pr, last.Pg)
		}
	}
}

// TestParseSeeds: ranges and lists, and what is refused: an empty or
// reversed range, a word, a missing end, too many seeds, an empty item.
func TestParseSeeds(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []uint64
	}{
		{"1-5", []uint64{1, 2, 3, 4, 5}},
		{"7", []uint64{7}},
		{"1,4,9", []uint64{1, 4, 9}},
		{"1-2,8", []uint64{1, 2, 8}},
	} {
		got, err := machine.ParseSeeds(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseSeeds(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "5-1", "a", "1-", "0-99999", "1,,2"} {
		if _, err := machine.ParseSeeds(bad); err == nil {
			t.Errorf("ParseSeeds(%q) succeeded", bad)
		}
	}
}

// FuzzParseSeeds: whatever ParseSeeds accepts is at most machine.MaxSeeds seeds,
// and the list written back as "a,b,c" parses to the same seeds.
func FuzzParseSeeds(f *testing.F) {
	for _, s := range []string{"1-5", "1,4,9", "3", "2-2,7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seeds, err := machine.ParseSeeds(s)
		if err != nil {
			return
		}
		if len(seeds) == 0 || len(seeds) > machine.MaxSeeds {
			t.Fatalf("%q gave %d seeds", s, len(seeds))
		}
		parts := make([]string, len(seeds))
		for i, v := range seeds {
			parts[i] = strconv.FormatUint(v, 10)
		}
		back, err := machine.ParseSeeds(strings.Join(parts, ","))
		if err != nil || !slices.Equal(back, seeds) {
			t.Fatalf("%q: %v, written back %v, %v", s, seeds, back, err)
		}
	})
}
