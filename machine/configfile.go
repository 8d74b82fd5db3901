package machine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DecodeConfig reads a configuration written as JSON (a machine file's
// "config") over base: the members given replace base's. A misspelt
// member, anything after the closing brace, or a configuration that
// breaks a part's rule (Validate) is refused.
func DecodeConfig(data []byte, base Config) (Config, error) {
	cfg := base
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields() // a misspelt member would be ignored silently
	if err := dec.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("not a machine configuration: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return cfg, errors.New("more after the configuration's closing brace; a configuration file holds one JSON object")
	}
	return cfg, cfg.Validate()
}

// WritePresetList writes the presets (Presets), a line each: the name and
// what it is.
func WritePresetList(w io.Writer) error {
	b := &strings.Builder{}
	for _, p := range Presets() {
		fmt.Fprintf(b, "  %-20s %s\n", p.Name, p.Description)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
