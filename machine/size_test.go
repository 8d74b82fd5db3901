package machine_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"mark1/images"
	"mark1/machine"
	"mark1/response"
)

// TestCheckSize: the estimate of a machine's own memory is checked against
// the limit before anything is allocated, refuses a billion pots at once,
// and bounds what New really allocates.
func TestCheckSize(t *testing.T) {
	classes := func(n int) []string {
		c := make([]string, n)
		for i := range c {
			c[i] = fmt.Sprintf("c%d", i)
		}
		return c
	}
	big, _ := machine.Preset("mark1")
	big.Associator.Units = 1 << 20
	big.Response = response.Config{Units: 1024, Layout: response.Full, Code: response.OnePerClass}
	err := big.CheckSize(1024, 1<<29)
	if err == nil || !strings.Contains(err.Error(), "1048576 A-units and 1073741824 pots") || !errors.Is(err, images.ErrMemory) || strings.Contains(err.Error(), "--") {
		t.Errorf("a billion pots: %v; want a refusal with the numbers", err)
	}
	// Too many classes for the R-units: the layer's own error.
	if err := big.CheckSize(2000, 1<<29); err == nil || !strings.Contains(err.Error(), "R-units") {
		t.Errorf("2000 classes on 1024 R-units: %v", err)
	}

	// A machine of 1.6 million pots: the estimate bounds the heap New
	// takes, and the limit is applied at the estimate.
	cfg, _ := machine.Preset("mark1")
	cfg.Associator.Units = 100_000
	cfg.Response = response.Config{Units: 16, Layout: response.Full, Code: response.OnePerClass}
	var need int64
	for lo, hi := int64(1), int64(1<<40); lo <= hi; { // the least limit CheckSize accepts
		mid := (lo + hi) / 2
		if cfg.CheckSize(16, mid) == nil {
			need, hi = mid, mid-1
		} else {
			lo = mid + 1
		}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := machine.New(cfg, classes(16), machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	took := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d pots: New took %d bytes of heap; the estimate is %d", m.Bank.Len(), took, need)
	if took > need {
		t.Errorf("New took %d bytes, over the estimate of %d", took, need)
	}
	if need > 2*took {
		t.Errorf("the estimate %d is over twice what New took (%d): it would refuse machines that fit", need, took)
	}
	runtime.KeepAlive(m)
}
