package machine_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mark1/machine"
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
		{"other version", bytes.Replace(good, []byte(`"version": 1`), []byte(`"version": 7`), 1), "file version 7"},
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

func FuzzDecode(f *testing.F) {
	m := newMachine(f, "worn")
	f.Add(encode(f, m))
	f.Add([]byte(`{"format":"mark1-machine","version":1,"checksum":"","machine":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := machine.Decode(bytes.NewReader(data), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		// Whatever decodes must encode and decode to the same bytes.
		a := encode(t, m)
		back, err := machine.Decode(bytes.NewReader(a), "again")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, encode(t, back)) {
			t.Fatal("round trip changed the machine")
		}
	})
}
