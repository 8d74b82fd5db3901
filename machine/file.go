package machine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"

	"mark1/associator"
	"mark1/internal/atomicfile"
	"mark1/motors"
)

// The machine file is JSON:
//
//	{
//	  "format": "mark1-machine",
//	  "version": 1,
//	  "checksum": "sha256:…",
//	  "machine": { "config": …, "seeds": …, "classes": …, "plugboard": …,
//	               "pots": …, "history": …, … }
//	}
//
// The checksum covers the bytes of the "machine" member exactly as written,
// so a truncated, corrupted or edited file is detected on loading. (To change
// the wiring by hand, edit a plugboard listing and use train --wiring.)
const (
	// Format is the value of the file's "format" member.
	Format = "mark1-machine"
	// Version is the file version this package writes and reads.
	Version = 1
	// maxFileSize bounds what Load reads.
	maxFileSize = 1 << 30
)

type header struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Checksum string          `json:"checksum"`
	Machine  json.RawMessage `json:"machine"`
}

type body struct {
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

// numberArray matches a JSON array of numbers spread over lines by indenting.
var numberArray = regexp.MustCompile(`\[\s*(-?[0-9][-0-9.eE+]*(?:,\s*-?[0-9][-0-9.eE+]*)*)\s*\]`)

// Encode writes the machine file to w.
func (m *Machine) Encode(w io.Writer) error {
	b := body{
		Config:    m.Config,
		Seeds:     m.Seeds,
		Classes:   m.Classes,
		Training:  m.Training,
		History:   m.History,
		Plugboard: m.Plugboard,
		Pots:      m.Bank.State(),
	}
	b.RetinaNoise, _ = m.noise.MarshalBinary()
	for i := range m.Retina.Cells() {
		if m.Retina.Dead(i) {
			b.DeadCells = append(b.DeadCells, i)
		}
		if m.Retina.StuckOn(i) {
			b.StuckCells = append(b.StuckCells, i)
		}
	}
	raw, err := json.MarshalIndent(b, "  ", "  ")
	if err != nil {
		return fmt.Errorf("encoding machine: %w", err)
	}
	// Keep number arrays on one line each: the file stays readable.
	raw = numberArray.ReplaceAllFunc(raw, func(s []byte) []byte {
		return bytes.Join(bytes.Fields(s), nil)
	})
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
		return nil, fmt.Errorf("%s: larger than %d bytes: %w", name, maxFileSize, ErrFormat)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: %s: %w", name, fmt.Sprintf(format, a...), ErrFormat)
	}
	var h header
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, bad("not JSON or truncated (%v)", err)
	}
	if h.Format != Format {
		return nil, bad("format is %q, want %q", h.Format, Format)
	}
	if h.Version != Version {
		return nil, bad("file version %d; this mark1 reads version %d", h.Version, Version)
	}
	sum := sha256.Sum256(h.Machine)
	if h.Checksum != "sha256:"+hex.EncodeToString(sum[:]) {
		return nil, bad("checksum mismatch: the file was changed or damaged after it was saved")
	}
	var b body
	dec := json.NewDecoder(bytes.NewReader(h.Machine))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, bad("machine: %v", err)
	}
	if b.Plugboard == nil {
		return nil, bad("no plugboard")
	}
	// The file holds the machine as it is, faults included: build it from
	// the saved parts without drawing the faults again.
	m, err := build(b.Config, b.Classes, b.Seeds, b.Plugboard)
	if err != nil {
		return nil, bad("%v", err)
	}
	if len(b.Pots.Positions) != m.Layer.Pots() {
		return nil, bad("%d pot positions, the configuration needs %d", len(b.Pots.Positions), m.Layer.Pots())
	}
	if m.Bank, err = motors.Restore(b.Config.motors(), b.Pots); err != nil {
		return nil, bad("%v", err)
	}
	if b.RetinaNoise != nil {
		m.noise = &rand.PCG{}
		if err := m.noise.UnmarshalBinary(b.RetinaNoise); err != nil {
			return nil, bad("retina noise state: %v", err)
		}
	}
	for _, i := range b.DeadCells {
		if i < 0 || i >= m.Retina.Cells() {
			return nil, bad("dead cell %d is off the retina", i)
		}
		m.Retina.Kill(i)
	}
	for _, i := range b.StuckCells {
		if i < 0 || i >= m.Retina.Cells() {
			return nil, bad("stuck cell %d is off the retina", i)
		}
		m.Retina.StickOn(i)
	}
	m.History, m.Training = b.History, b.Training
	return m, nil
}

// Load reads a machine file from path.
func Load(path string) (*Machine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading machine: %w", err)
	}
	defer f.Close()
	return Decode(f, path)
}
