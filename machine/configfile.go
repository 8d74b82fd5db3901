package machine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"mark1/images"
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

// CheckData refuses a machine of configuration c for the data sets'
// classes if the machine itself (CheckSize, for the first set's classes),
// or all the sets' cards fitted onto its retina (CheckFit), would take
// more than limit bytes. Call it before New, Fields or Fit on data that
// came from a file.
func (c Config) CheckData(limit int64, sets ...*images.Dataset) error {
	cards := 0
	for _, s := range sets {
		cards += s.Len()
	}
	if len(sets) > 0 {
		if err := c.CheckSize(len(sets[0].Classes), limit); err != nil {
			return err
		}
	}
	return c.CheckFit(cards, limit)
}
