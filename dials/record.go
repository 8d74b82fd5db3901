package dials

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"mark1/internal/base/atomicfile"
	"mark1/machine"

	"mark1/dataset"
)

// A recording is a folder:
//
//	machine.json        the machine as training started (a machine file)
//	epoch-0000.json     the pots before the first epoch
//	epoch-0001.json     the pots after epoch 1, and so on
//
// Each epoch file is small: {"format": "mark1-pots", "version": 1,
// "epoch": 1, "record": {...the machine.Epoch...}, "positions": [...],
// "stuck": [...]}, positions as 32-bit floats. Every file is written
// atomically, so a recording interrupted at any point is readable.
const (
	recordFormat  = "mark1-pots"
	recordVersion = 1
	recordMachine = "machine.json"
)

// IsRecordName reports whether name is a file of a recording (Recorder):
// the machine file or an epoch's.
func IsRecordName(name string) bool {
	var e int
	n, err := fmt.Sscanf(name, "epoch-%04d.json", &e)
	return name == recordMachine || err == nil && n == 1 && name == fmt.Sprintf("epoch-%04d.json", e)
}

// Frame is the state of the pots at the end of one epoch.
type Frame struct {
	// Epoch is 0 for the state before training.
	Epoch int `json:"epoch"`
	// Record is the epoch's history record; nil for epoch 0.
	Record *machine.Epoch `json:"record,omitempty"`
	// Positions holds every pot's position, in bank order.
	Positions []float32 `json:"positions"`
	// Stuck lists the stuck pots.
	Stuck []int `json:"stuck,omitempty"`
}

type frameFile struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Frame
}

// Recorder keeps the pot positions of a machine after every epoch of
// training in a folder, for Animate.
type Recorder struct {
	dir string
}

// NewRecorder creates the folder dir (which may exist but must not hold a
// recording already) and records m as it is now: the machine file and
// epoch 0.
func NewRecorder(dir string, m *machine.Machine) (*Recorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, recordMachine)); err == nil {
		return nil, fmt.Errorf("recording: %s already holds a recording (%s); choose another folder", dir, recordMachine)
	}
	if err := m.Save(filepath.Join(dir, recordMachine)); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	r := &Recorder{dir: dir}
	epoch := 0
	if n := len(m.History); n > 0 {
		epoch = m.History[n-1].Epoch
	}
	return r, r.write(m, epoch, nil)
}

// Record starts a Recorder in dir (NewRecorder) and returns the progress
// hook of a training run that records m's pots after every epoch
// (Snapshot).
func Record(dir string, m *machine.Machine) (func(machine.Epoch) error, error) {
	rec, err := NewRecorder(dir, m)
	if err != nil {
		return nil, err
	}
	return func(e machine.Epoch) error { return rec.Snapshot(m, e) }, nil
}

// Snapshot records m's pots after epoch e.
func (r *Recorder) Snapshot(m *machine.Machine, e machine.Epoch) error {
	return r.write(m, e.Epoch, &e)
}

func (r *Recorder) write(m *machine.Machine, epoch int, rec *machine.Epoch) error {
	st := m.Bank.State()
	f := frameFile{Format: recordFormat, Version: recordVersion, Frame: Frame{Epoch: epoch, Record: rec, Stuck: st.Stuck}}
	f.Positions = make([]float32, len(st.Positions))
	for i, p := range st.Positions {
		f.Positions[i] = float32(p)
	}
	path := filepath.Join(r.dir, fmt.Sprintf("epoch-%04d.json", epoch))
	return atomicfile.Write(path, func(out *os.File) error { return json.NewEncoder(out).Encode(f) })
}

// LoadRecording reads a recording made by a Recorder: the machine as
// training started and its frames in epoch order. The machine file and the
// frames' pot positions (4 bytes a pot an epoch, counted before any is
// read) must each fit in maxBytes bytes (0: the machine file's own limit
// and no bound on the frames); over it the error wraps dataset.ErrTooLarge.
func LoadRecording(dir string, maxBytes int64) (*machine.Machine, []Frame, error) {
	limit := maxBytes
	if limit <= 0 {
		limit = atomicfile.MaxMachine
	}
	m, err := machine.LoadLimit(filepath.Join(dir, recordMachine), limit, "")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: not a recording (no %s; a training run records one into a folder)", dir, recordMachine)
		}
		return nil, nil, err
	}
	names, err := filepath.Glob(filepath.Join(dir, "epoch-*.json"))
	if err != nil {
		return nil, nil, err
	}
	if need := int64(len(names)) * int64(m.Bank.Len()) * 4; maxBytes > 0 && need > maxBytes {
		return nil, nil, fmt.Errorf("%s: %d epoch files of %d pots would take about %d bytes of memory, %w of %d",
			dir, len(names), m.Bank.Len(), need, dataset.ErrTooLarge, maxBytes)
	}
	var frames []Frame
	for _, name := range names {
		if strings.HasPrefix(filepath.Base(name), ".") {
			continue
		}
		b, err := atomicfile.ReadFile(name, atomicfile.MaxMachine, "")
		if err != nil {
			return nil, nil, err
		}
		var f frameFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, nil, fmt.Errorf("%s: not a pot snapshot: %v", name, err)
		}
		if f.Format != recordFormat || f.Version != recordVersion {
			return nil, nil, fmt.Errorf("%s: format %q version %d, want %q version %d", name, f.Format, f.Version, recordFormat, recordVersion)
		}
		if len(f.Positions) != m.Bank.Len() {
			return nil, nil, fmt.Errorf("%s: %d pot positions, the machine has %d pots", name, len(f.Positions), m.Bank.Len())
		}
		frames = append(frames, f.Frame)
	}
	if len(frames) == 0 {
		return nil, nil, fmt.Errorf("%s: the recording has no epoch files", dir)
	}
	sort.Slice(frames, func(i, j int) bool { return frames[i].Epoch < frames[j].Epoch })
	return m, frames, nil
}
