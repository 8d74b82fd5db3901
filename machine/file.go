package machine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"

	"mark1/associator"
	"mark1/coupling"
	"mark1/internal/base/atomicfile"
	"mark1/motors"
)

// The machine file is JSON:
//
//	{
//	  "format": "mark1-machine",
//	  "version": 2,
//	  "checksum": "sha256:…",
//	  "machine": { "config": …, "seeds": …, "classes": …, "recipe": …,
//	               "history": …, "wiring": …, "pots": …, … }
//	}
//
// The checksum covers the bytes of the "machine" member exactly as written,
// so a truncated, corrupted or edited file is detected on loading. (To change
// the wiring by hand, edit a plugboard listing and use train --wiring.)
//
// Version 2 records the training Recipe and the healthy wiring; the faults
// are drawn again from the configuration and the fault seed on loading, as
// New draws them. Version-1 files (a free-form "training" map, the plugboard
// with its faults, the dead and stuck cells) still load.
const (
	// Format is the value of the file's "format" member.
	Format = "mark1-machine"
	// Version is the file version this package writes; it reads 1 and 2.
	Version = 2
	// maxFileSize bounds what Load and Decode read (atomicfile.MaxMachine).
	maxFileSize = atomicfile.MaxMachine
)

type header struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Checksum string          `json:"checksum"`
	Machine  json.RawMessage `json:"machine"`
}

// body is the "machine" member of a version-2 file.
type body struct {
	Config      Config                `json:"config"`
	Seeds       Seeds                 `json:"seeds"`
	Classes     []string              `json:"classes"`
	Recipe      *Recipe               `json:"recipe,omitempty"`
	History     []Epoch               `json:"history"`
	Wiring      *associator.Plugboard `json:"wiring"`
	Pots        motors.State          `json:"pots"`
	RetinaNoise []byte                `json:"retina_noise_state"`
	// The parts the faults broke, for people (and checked on loading
	// against those drawn again from the seed).
	DeadCells  []int `json:"dead_cells,omitempty"`
	StuckCells []int `json:"stuck_cells,omitempty"`
	DeadAUnits []int `json:"dead_a_units,omitempty"`
	// Couplings are a four-layer machine's A_I → A_II couplings.
	Couplings *coupling.State `json:"couplings,omitempty"`
}

// bodyV1 is the "machine" member of a version-1 file.
type bodyV1 struct {
	Config      Config                `json:"config"`
	Seeds       Seeds                 `json:"seeds"`
	Classes     []string              `json:"classes"`
	Training    map[string]string     `json:"training,omitempty"`
	History     []Epoch               `json:"history"`
	Plugboard   *associator.Plugboard `json:"plugboard"`
	Pots        motors.State          `json:"pots"`
	RetinaNoise []byte                `json:"retina_noise_state"`
	DeadCells   []int                 `json:"dead_cells,omitempty"`
	StuckCells  []int                 `json:"stuck_cells,omitempty"`
}

// Encode writes the machine file to w.
func (m *Machine) Encode(w io.Writer) error {
	b := body{
		Config:  m.Config,
		Seeds:   m.Seeds,
		Classes: m.Classes,
		Recipe:  m.Recipe,
		History: m.History,
		Wiring:  m.Wiring,
		Pots:    m.Bank.State(),
	}
	b.RetinaNoise, _ = m.noise.MarshalBinary()
	if m.Couplings != nil {
		st := m.Couplings.State()
		b.Couplings = &st
	}
	b.DeadCells, b.StuckCells, b.DeadAUnits = m.brokenParts()
	compact, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("encoding machine: %w", err)
	}
	// Indent by whole tokens, keeping arrays of numbers (and other
	// scalars) on one line each: the file stays readable.
	raw := indent(compact, "  ", "  ")
	sum := sha256.Sum256(raw)
	var out bytes.Buffer
	fmt.Fprintf(&out, "{\n  \"format\": %q,\n  \"version\": %d,\n  \"checksum\": \"sha256:%s\",\n  \"machine\": ",
		Format, Version, hex.EncodeToString(sum[:]))
	out.Write(raw)
	out.WriteString("\n}\n")
	_, err = w.Write(out.Bytes())
	return err
}

// Save writes the machine to path atomically: a crash leaves either the old
// file or the new one.
func (m *Machine) Save(path string) error {
	return atomicfile.Write(path, func(f *os.File) error { return m.Encode(f) })
}

// ErrFormat is wrapped by errors for files that are not machine files, are
// of another version, or are damaged.
var ErrFormat = errors.New("not a valid machine file")

// Decode reads a machine file. name is used in error messages.
func Decode(r io.Reader, name string) (*Machine, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes, the limit for a machine file: %w", name, maxFileSize, ErrFormat)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s: %w", name, fmt.Sprintf(format, a...), ErrFormat)
	}
	var h header
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, bad("not JSON or truncated (%v)", err)
	}
	if err := uniqueMembers(data); err != nil {
		return nil, bad("%v", err)
	}
	if h.Format != Format {
		return nil, bad("format is %q, want %q", h.Format, Format)
	}
	if h.Version != 1 && h.Version != 2 {
		return nil, bad("file version %d; this mark1 reads versions 1 and 2", h.Version)
	}
	sum := sha256.Sum256(h.Machine)
	if h.Checksum != "sha256:"+hex.EncodeToString(sum[:]) {
		return nil, bad("checksum mismatch: the file was changed or damaged after it was saved")
	}
	var m *Machine
	switch h.Version {
	case 1:
		m, err = decodeV1(h.Machine)
	case 2:
		m, err = decodeV2(h.Machine)
	default:
		return nil, bad("file version %d; this mark1 reads versions 1 and 2", h.Version)
	}
	if err != nil {
		return nil, bad("%v", err)
	}
	return m, nil
}

// strict decodes JSON into v, refusing unknown members.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("machine: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("machine: more than one JSON value")
	}
	return nil
}

func decodeV2(data []byte) (*Machine, error) {
	var b body
	if err := strict(data, &b); err != nil {
		return nil, err
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	if b.Wiring == nil {
		return nil, fmt.Errorf("no wiring")
	}
	if b.Recipe != nil {
		if err := b.Recipe.Validate(); err != nil {
			return nil, nested("recipe", err, nil)
		}
	}
	if err := b.Wiring.Validate(); err != nil {
		return nil, err
	}
	// The faults are drawn again, exactly as New drew them.
	m, err := New(b.Config, b.Classes, b.Seeds, b.Wiring)
	if err != nil {
		return nil, err
	}
	if err := m.restore(b.Pots, b.RetinaNoise); err != nil {
		return nil, err
	}
	dc, sc, da := m.brokenParts()
	if !slices.Equal(dc, b.DeadCells) || !slices.Equal(sc, b.StuckCells) || !slices.Equal(da, b.DeadAUnits) {
		return nil, fmt.Errorf("the broken parts it lists are not those its faults draw from its seed")
	}
	switch {
	case b.Couplings != nil && m.Couplings == nil:
		return nil, fmt.Errorf("couplings on a three-layer machine")
	case b.Couplings != nil:
		if m.Couplings, err = coupling.Restore(len(m.Plugboard.Units), Theta, *b.Couplings); err != nil {
			return nil, err
		}
	}
	m.History, m.Recipe = b.History, b.Recipe
	return m, nil
}

// brokenParts lists the dead and stuck photocells and the dead A-units.
func (m *Machine) brokenParts() (deadCells, stuckCells, deadA []int) {
	for i := range m.Retina.Cells() {
		if m.Retina.Dead(i) {
			deadCells = append(deadCells, i)
		}
		if m.Retina.StuckOn(i) {
			stuckCells = append(stuckCells, i)
		}
	}
	for a, u := range m.Plugboard.Units {
		if u.Dead {
			deadA = append(deadA, a)
		}
	}
	return deadCells, stuckCells, deadA
}

func decodeV1(data []byte) (*Machine, error) {
	var b bodyV1
	if err := strict(data, &b); err != nil {
		return nil, err
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	if b.Plugboard == nil {
		return nil, fmt.Errorf("no plugboard")
	}
	// A version-1 file holds the machine as it is, faults included, and
	// not its healthy wiring: build it from the saved parts without drawing
	// the faults again.
	m, err := build(b.Config, b.Classes, b.Seeds, b.Plugboard)
	if err != nil {
		return nil, err
	}
	m.Wiring = m.Plugboard
	if err := m.restore(b.Pots, b.RetinaNoise); err != nil {
		return nil, err
	}
	for _, i := range b.DeadCells {
		if i < 0 || i >= m.Retina.Cells() {
			return nil, fmt.Errorf("dead cell %d is off the retina", i)
		}
		m.Retina.Kill(i)
	}
	for _, i := range b.StuckCells {
		if i < 0 || i >= m.Retina.Cells() {
			return nil, fmt.Errorf("stuck cell %d is off the retina", i)
		}
		m.Retina.StickOn(i)
	}
	m.History = b.History
	if b.Training != nil {
		r, err := recipeV1(b.Training)
		if err != nil {
			return nil, fmt.Errorf("training: %v", err)
		}
		m.Recipe = r
	}
	return m, nil
}

// restore sets the pots and the reading-noise stream from a file.
func (m *Machine) restore(pots motors.State, noise []byte) error {
	if len(pots.Positions) != m.Layer.Pots() {
		return fmt.Errorf("%d pot positions, the configuration needs %d", len(pots.Positions), m.Layer.Pots())
	}
	bank, err := motors.Restore(m.Config.motors(), pots)
	if err != nil {
		return err
	}
	m.Bank = bank
	if noise != nil {
		m.noise = &rand.PCG{}
		if err := m.noise.UnmarshalBinary(noise); err != nil {
			return fmt.Errorf("retina noise state: %v", err)
		}
	}
	return nil
}

// Load reads a machine file from path, which must be a regular file of at
// most 256 MiB (atomicfile.MaxMachine).
func Load(path string) (*Machine, error) { return LoadLimit(path, maxFileSize, "") }

// LoadLimit reads a machine file from path, which must be a regular file
// of at most limit bytes; over it, the error names flag, the command-line
// flag that raises the limit (or none if flag is "").
func LoadLimit(path string, limit int64, flag string) (*Machine, error) {
	b, err := atomicfile.ReadFile(path, limit, flag)
	if err != nil {
		return nil, fmt.Errorf("reading machine: %w", err)
	}
	return Decode(bytes.NewReader(b), path)
}

// LoadContext is LoadLimit that answers ctx: it returns ctx's error as
// soon as ctx is done, while the file is read or decoded. A file near the
// 256 MiB limit takes seconds to decode, which would hold a command past
// its first Ctrl-C; a decode under way when ctx ends is left to finish on
// its own goroutine and its result dropped.
func LoadContext(ctx context.Context, path string, limit int64, flag string) (*Machine, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		m   *Machine
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := LoadLimit(path, limit, flag)
		done <- result{m, err}
	}()
	select {
	case r := <-done:
		return r.m, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
