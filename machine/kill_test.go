package machine_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mark1/machine"
)

// bigMachines returns two large machines (a pot per A→R pair for 1,024
// A-units and 8 R-units, 8,200 pots: files of about 370 kB) that differ in
// their pots.
func bigMachines(t testing.TB) (a, b *machine.Machine) {
	cfg, err := machine.Preset("full")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Associator.Units = 1024
	classes := []string{"0", "1", "2", "3", "4", "5", "6", "7"}
	a, err = machine.New(cfg, classes, machine.SeedsFrom(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err = machine.New(cfg, classes, machine.SeedsFrom(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b.Bank.Len() {
		b.Bank.Pulse(i, i%5-2)
	}
	return a, b
}

// TestChildSave is not a test: TestKilledDuringSave runs the test binary
// again as a child that saves the two machines in turn, for ever, until it
// is killed.
func TestChildSave(t *testing.T) {
	path := os.Getenv("MARK1_SAVE_LOOP")
	if path == "" {
		t.Skip("run only as a child of TestKilledDuringSave")
	}
	a, b := bigMachines(t)
	os.WriteFile(path+".ready", nil, 0o644)
	for {
		for _, m := range []*machine.Machine{b, a} {
			if err := m.Save(path); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A process killed (SIGKILL) at a random moment while saving leaves the
// machine file whole: it loads, and it is one of the two versions saved.
func TestKilledDuringSave(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes")
	}
	a, b := bigMachines(t)
	want := [][]byte{encode(t, a), encode(t, b)}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	// Kill the child at a random moment within its first few saves.
	span := 4 * time.Since(start)
	rng := rand.New(rand.NewPCG(1, 2))
	const iterations = 50
	deadline := time.Now().Add(15 * time.Second)
	seen := map[int]int{}
	for i := range iterations {
		if time.Now().After(deadline) {
			t.Logf("stopped after %d iterations to stay within 15 s", i)
			break
		}
		os.Remove(path + ".ready")
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildSave$")
		cmd.Env = append(os.Environ(), "MARK1_SAVE_LOOP="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(time.Millisecond) {
			if _, err := os.Stat(path + ".ready"); err == nil {
				break
			}
		}
		time.Sleep(time.Duration(rng.Int64N(int64(span))))
		cmd.Process.Kill()
		cmd.Wait()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("iteration %d: %v", i, err)
		}
		if _, err := machine.Decode(bytes.NewReader(got), path); err != nil {
			t.Fatalf("iteration %d: after the kill the file does not load: %v", i, err)
		}
		switch {
		case bytes.Equal(got, want[0]):
			seen[0]++
		case bytes.Equal(got, want[1]):
			seen[1]++
		default:
			t.Fatalf("iteration %d: the file loads but is neither version saved", i)
		}
	}
	// Killed processes leave their temporary files behind (nothing can
	// remove them); they are hidden and never read.
	entries, _ := os.ReadDir(dir)
	temps := 0
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			temps++
		}
	}
	t.Logf("killed within %v of the first save: old version %d times, new version %d times; %d temporary files left by killed savers",
		span, seen[0], seen[1], temps)
}
