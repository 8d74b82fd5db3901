package machine_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"mark1/images"
	"mark1/machine"
	"mark1/response"
)

func newMachine(t testing.TB, preset string) *machine.Machine {
	t.Helper()
	cfg, err := machine.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.New(cfg, []string{"left", "right"}, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t testing.TB, m *machine.Machine) []byte {
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRoundTrip(t *testing.T) {
	for _, p := range machine.Presets() {
		m := newMachine(t, p.Name)
		for i := range 40 {
			m.Bank.Pulse(i, i%3-1)
		}
		m.Bank.Advance(10)
		a := encode(t, m)
		back, err := machine.Decode(bytes.NewReader(a), "m.json")
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if b := encode(t, back); !bytes.Equal(a, b) {
			t.Errorf("%s: decode → encode changed the file", p.Name)
		}
	}
}

func TestDecodeBad(t *testing.T) {
	good := encode(t, newMachine(t, "mark1"))
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not JSON or truncated"},
		{"truncated", good[:len(good)/2], "not JSON or truncated"},
		{"not json", []byte("P5 20 20"), "not JSON"},
		{"other format", []byte(`{"format":"pickle","version":1}`), `format is "pickle"`},
		{"other version", bytes.Replace(good, []byte(`"version": 2`), []byte(`"version": 7`), 1), "file version 7"},
		{"corrupted", bytes.Replace(good, []byte(`"left"`), []byte(`"lefT"`), 1), "checksum mismatch"},
	}
	for _, tt := range tests {
		_, err := machine.Decode(bytes.NewReader(tt.data), "m.json")
		if err == nil || !errors.Is(err, machine.ErrFormat) || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "m.json: ") {
			t.Errorf("%s: error %v; want one starting with the file name and containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := machine.Load(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

// A failed save leaves the previous file intact and no temporary file.
func TestSaveAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	m := newMachine(t, "mark1")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	m.Bank.Pulse(0, 1)
	if err := m.Save(path); err == nil && os.Geteuid() != 0 {
		t.Error("saving into a read-only folder succeeded")
	}
	os.Chmod(dir, 0o700)
	after, _ := os.ReadFile(path)
	if os.Geteuid() != 0 && !bytes.Equal(before, after) {
		t.Error("a failed save changed the file")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// FuzzDecode fuzzes whole machine files. Its seeds are small machines (6
// A-units on a 4x4 retina, a file of 2 kB): a short run then spends its
// time exploring rather than minimizing one large input.
func FuzzDecode(f *testing.F) {
	for _, preset := range []string{"worn", "full"} {
		cfg, err := machine.Preset(preset)
		if err != nil {
			f.Fatal(err)
		}
		cfg.Associator.Units = 6
		cfg.Retina.Width, cfg.Retina.Height = 4, 4
		m, err := machine.New(cfg, []string{"left", "right"}, machine.SeedsFrom(1), nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(encode(f, m))
	}
	f.Add([]byte(`{"format":"mark1-machine","version":1,"checksum":"","machine":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeRoundTrip(t, data)
	})
}

// decodeRoundTrip decodes a fuzzed machine file: it fails with an error
// naming the file, or what decodes encodes and decodes to the same bytes.
// It returns the machine and the one read back, nil if data does not
// decode.
func decodeRoundTrip(t *testing.T, data []byte) (m, back *machine.Machine) {
	t.Helper()
	m, err := machine.Decode(bytes.NewReader(data), "fuzz")
	if err != nil {
		if !strings.HasPrefix(err.Error(), "fuzz: ") {
			t.Fatalf("error does not name the file: %v", err)
		}
		return nil, nil
	}
	a := encode(t, m)
	back, err = machine.Decode(bytes.NewReader(a), "again")
	if err != nil {
		t.Fatalf("re-encoded machine does not load: %v", err)
	}
	if !bytes.Equal(a, encode(t, back)) {
		t.Fatal("round trip changed the machine")
	}
	return m, back
}

// Strings are saved as they are: the encoder formats whole tokens, so a
// class or a path that looks like a number array is not rewritten.
func TestStringsSavedAsTheyAre(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	classes := []string{"[1, 2]", "x [3,\n 4] \"q\" \\ ]", "{\"a\": [5, 6]}"}
	m, err := machine.New(cfg, classes, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Recipe = &machine.Recipe{Data: images.Source{Path: "cards [3, 4]", TestPath: "t [ 1 ]", TestSplit: 0}}
	back, err := machine.Decode(bytes.NewReader(encode(t, m)), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Classes, classes) {
		t.Errorf("classes %q saved as %q", classes, back.Classes)
	}
	if !reflect.DeepEqual(back.Recipe, m.Recipe) {
		t.Errorf("recipe %+v saved as %+v", *m.Recipe, *back.Recipe)
	}
}

// A faulty machine rebuilt from its healthy wiring is the same machine:
// the faults are drawn once, from the seed, never on top of earlier ones.
func TestFaultsNotDrawnTwice(t *testing.T) {
	cfg, _ := machine.Preset("mark1")
	cfg.Faults = machine.Faults{BrokenWires: 0.1, DeadA: 0.05, StuckPots: 0.05}
	m, err := machine.New(cfg, []string{"a", "b"}, machine.SeedsFrom(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	wires := func(m *machine.Machine) (n int) {
		for _, u := range m.Plugboard.Units {
			n += len(u.Excitatory) + len(u.Inhibitory)
		}
		return n
	}
	first := wires(m)
	if healthy := 512 * 10; first >= healthy || first < healthy*8/10 {
		t.Fatalf("%d wires of %d after 10%% broken", first, healthy)
	}
	for i := range 3 {
		r, err := machine.New(m.Config, m.Classes, m.Seeds, m.Wiring)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.Plugboard, m.Plugboard) || !reflect.DeepEqual(r.Bank.State(), m.Bank.State()) {
			t.Fatalf("rebuild %d: wires %d, first build %d: the faults were drawn again", i+1, wires(r), first)
		}
		m = r
	}
	// Saved and loaded, too.
	back, err := machine.Decode(bytes.NewReader(encode(t, m)), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Plugboard, m.Plugboard) || !reflect.DeepEqual(back.Wiring, m.Wiring) {
		t.Error("a loaded faulty machine has another wiring")
	}
}

// A version-1 file (written by mark1 before the recipe) still loads: its
// "training" map becomes the recipe, and the machine measures on its data
// what it measured when it was saved.
func TestLoadVersion1(t *testing.T) {
	m, err := machine.Load("testdata/v1.json")
	if err != nil {
		t.Fatal(err)
	}
	want := &machine.Recipe{
		Data:   images.Source{Task: "leftright", PerClass: 6, CardSize: 20, TestSplit: 0.25, Seed: 4},
		Values: machine.Gamma, Pulses: 2, MaxEpochs: 7, TrainSize: 8, TestSize: 4,
	}
	if !reflect.DeepEqual(m.Recipe, want) {
		t.Errorf("recipe %+v; want %+v", *m.Recipe, *want)
	}
	if len(m.History) != 3 {
		t.Fatalf("%d epochs of history; want 3", len(m.History))
	}
	tr, te, err := m.Recipe.Load(m.Classes, "v1.json", images.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	last := m.History[2]
	if pr, pg := m.Accuracy(m.Fields(tr).X, m.Fields(tr).Y), m.Accuracy(m.Fields(te).X, m.Fields(te).Y); pr != last.Pr || pg != *last.Pg {
		t.Errorf("P_r %v, P_g %v now; %v, %v when saved", pr, pg, last.Pr, *last.Pg)
	}
	// It trains on and saves as version 2.
	s, err := machine.NewSession(m, *m.Recipe, m.Fields(tr), m.Fields(te))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(encode(t, m), []byte(`"version": 2`)) {
		t.Error("not saved as version 2")
	}
}

// TestRoundTrip1958: the 1958 rules, the β values, decay, feedback and
// the mean decision are kept by the machine file; a file without them
// reads as before (sum, no decay, no feedback).
func TestRoundTrip1958(t *testing.T) {
	cfg, err := machine.Preset("mark1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Response.Code = response.OnePerClass
	cfg.Response.Decision = response.Mean
	m, err := machine.New(cfg, []string{"left", "right"}, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Recipe = &machine.Recipe{Data: images.Source{Task: "leftright", PerClass: 10}, Rule: machine.Spontaneous,
		Values: machine.Beta, Decay: 0.05, Feedback: 2, Pulses: 1}
	back, err := machine.Decode(bytes.NewReader(encode(t, m)), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*back.Recipe, *m.Recipe) || back.Config.Response.Decision != response.Mean {
		t.Errorf("read back recipe %+v, decision %v; want %+v, mean", *back.Recipe, back.Config.Response.Decision, *m.Recipe)
	}
	old := newMachine(t, "mark1")
	old.Recipe = &machine.Recipe{Data: images.Source{Task: "leftright", PerClass: 10}}
	b := encode(t, old)
	for _, member := range []string{`"decay"`, `"feedback"`, `"decision"`} {
		if bytes.Contains(b, []byte(member)) {
			t.Errorf("a machine without %s writes it: old readers would see a new file", member)
		}
	}
}

// TestLoadContext: LoadContext gives what LoadLimit gives, refuses a done
// context before reading, and answers a cancellation while a large file
// is being decoded at once, long before the decode would end.
func TestLoadContext(t *testing.T) {
	cfg, err := machine.Preset("mark1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Associator.Units = 30_000 // a file of about 4 MB: a decode of tens of milliseconds, far longer than a goroutine takes to start
	m, err := machine.New(cfg, []string{"left", "right"}, machine.SeedsFrom(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	want, err := machine.LoadLimit(path, 1<<30, "")
	if err != nil {
		t.Fatal(err)
	}
	decode := time.Since(start)
	got, err := machine.LoadContext(context.Background(), path, 1<<30, "")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, got), encode(t, want)) {
		t.Error("LoadContext read another machine than LoadLimit")
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := machine.LoadContext(done, path, 1<<30, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: error %v, want context.Canceled", err)
	}
	// Cancelled while the decode runs: LoadContext returns at once and
	// leaves the decode to its goroutine. No clock: the context is
	// cancelled as soon as that goroutine exists, and the decode is still
	// running when LoadContext has returned. (A timer at a tenth of the
	// decode failed on a loaded machine, and the decode left running
	// weighed on TestCheckSize's heap measurement.)
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var canceller sync.WaitGroup
	canceller.Go(func() {
		for runtime.NumGoroutine() < base+2 { // this one and the decode
			runtime.Gosched()
		}
		cancel()
	})
	got, err = machine.LoadContext(ctx, path, 1<<30, "")
	canceller.Wait()
	running := runtime.NumGoroutine() > base
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Fatalf("cancelled during a %v decode: machine %v, error %v; want context.Canceled", decode, got != nil, err)
	}
	if !running {
		t.Errorf("LoadContext returned after the decode (%v) ended: it was waited for", decode)
	}
	for runtime.NumGoroutine() > base { // let the dropped decode end before the next test
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRecipeWithData: a recipe that records its data validates and makes
// the same cards again; generated cards keep no per-card digests.
func TestRecipeWithData(t *testing.T) {
	src := images.Source{Task: "leftright", PerClass: 6, CardSize: 20, TestSplit: 0.25, Seed: 3}
	train, test, err := src.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := machine.Recipe{Rule: machine.ErrorCorrection, Pulses: 1, MaxEpochs: 5}.WithData(src, train, test)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if r.TrainSize != train.Len() || r.TestSize != test.Len() || r.TrainCards != nil || r.TestCards != nil {
		t.Errorf("recorded %d and %d cards, digests %d and %d; want %d and %d, none", r.TrainSize, r.TestSize, len(r.TrainCards), len(r.TestCards), train.Len(), test.Len())
	}
	tr, te, err := r.Load(train.Classes, "m.json", images.Limits{})
	if err != nil || tr.Fingerprint() != train.Fingerprint() || te.Fingerprint() != test.Fingerprint() {
		t.Errorf("made again: %v; fingerprints differ: %v", err, err == nil)
	}
}
