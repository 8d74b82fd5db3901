package machine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"mark1/associator"
	"mark1/motors"
	"mark1/response"
)

// A machine file whose checksum is right may still be inconsistent: the
// checksum shows only that nothing changed since it was written, and anyone
// can write one. The checks below run after the checksum and before
// anything is built from the file, so an inconsistent file is refused with
// a message, never half-loaded, and cannot make the loader allocate more
// than the file's own size suggests.

// maxClasses bounds the classes of a machine: one R-unit a class at most.
const maxClasses = response.MaxUnits

// uniqueMembers reports an error if the JSON object data has a member name
// twice: encoding/json keeps the last, so a second "machine" member would
// hide the first from a reader that checks the first.
func uniqueMembers(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		if seen[name] {
			return fmt.Errorf("member %q appears twice", name)
		}
		seen[name] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more after the closing brace")
	}
	return nil
}

// validate checks a decoded version-2 body for consistency before a
// machine is built from it.
func (b *body) validate() error {
	if err := validateClasses(b.Classes); err != nil {
		return err
	}
	if b.Wiring == nil {
		return errors.New("no wiring")
	}
	if err := validateUnits(b.Config, b.Wiring); err != nil {
		return err
	}
	if err := validatePots(b.Pots); err != nil {
		return err
	}
	if b.Recipe != nil {
		if err := b.Recipe.checkClasses(b.Classes); err != nil {
			return err
		}
	}
	return validateHistory(b.History)
}

// validate checks a decoded version-1 body, as body.validate does.
func (b *bodyV1) validate() error {
	if err := validateClasses(b.Classes); err != nil {
		return err
	}
	if b.Plugboard == nil {
		return errors.New("no plugboard")
	}
	if err := validatePlugboard(b.Plugboard); err != nil {
		return err
	}
	if err := validatePots(b.Pots); err != nil {
		return err
	}
	return validateHistory(b.History)
}

// validateClasses checks the class names: at least two, at most 1024,
// none empty or longer than a folder name (255 bytes: a class is a folder
// of pictures), none repeated.
func validateClasses(classes []string) error {
	if len(classes) < 2 || len(classes) > maxClasses {
		return fmt.Errorf("%d classes; a machine has 2 to %d", len(classes), maxClasses)
	}
	seen := make(map[string]bool, len(classes))
	for i, c := range classes {
		if c == "" {
			return fmt.Errorf("class %d has an empty name", i)
		}
		if len(c) > maxClassName {
			return fmt.Errorf("class %d has a name of %d bytes; at most %d, as a folder's", i, len(c), maxClassName)
		}
		if seen[c] {
			return fmt.Errorf("class %q appears twice", c)
		}
		seen[c] = true
	}
	return nil
}

// maxClassName bounds a class name in bytes.
const maxClassName = 255

// validateUnits checks that the configuration's A-unit count is in range
// and is the wiring's, and the wiring itself.
func validateUnits(cfg Config, wiring *associator.Plugboard) error {
	units := cfg.Associator.Units
	if units < 0 || units > associator.MaxUnits {
		return fmt.Errorf("config: %d A-units out of range [1, %d]", units, associator.MaxUnits)
	}
	if want := cfg.Associator.Defaults().Units; len(wiring.Units) != want {
		return fmt.Errorf("the configuration has %d A-units but the wiring %d", want, len(wiring.Units))
	}
	return validatePlugboard(wiring)
}

// validatePlugboard checks the plugboard's indices and that no origin point
// is wired twice to one A-unit.
func validatePlugboard(p *associator.Plugboard) error {
	if len(p.Units) > associator.MaxUnits {
		return fmt.Errorf("%d A-units out of range [1, %d]", len(p.Units), associator.MaxUnits)
	}
	if err := p.Validate(); err != nil {
		return err
	}
	seen := map[int]bool{}
	for u, unit := range p.Units {
		clear(seen)
		for _, pts := range [][]int{unit.Excitatory, unit.Inhibitory} {
			for _, s := range pts {
				if seen[s] {
					return fmt.Errorf("origin point %d is wired twice to A-unit %d", s, u)
				}
				seen[s] = true
			}
		}
	}
	return nil
}

// validatePots checks that every saved number about the pots is finite and
// every count non-negative.
func validatePots(st motors.State) error {
	for i, p := range st.Positions {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return fmt.Errorf("pot %d: position %v is not finite", i, p)
		}
	}
	for i, s := range st.Slack {
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			return fmt.Errorf("pot %d: slack %v is not a finite non-negative number", i, s)
		}
	}
	if !(st.Seconds >= 0) || math.IsInf(st.Seconds, 0) || st.Pulses < 0 || st.Saturations < 0 {
		return fmt.Errorf("pots: time %v s, %d pulses, %d saturations: not finite and non-negative", st.Seconds, st.Pulses, st.Saturations)
	}
	return nil
}

// validateHistory checks that the history is one a training run could have
// written: epochs numbered upwards from 1, counts that only grow,
// accuracies in [0, 1].
func validateHistory(h []Epoch) error {
	var prev Epoch
	for i, e := range h {
		switch {
		case e.Epoch < 1 || (i > 0 && e.Epoch <= prev.Epoch):
			return fmt.Errorf("history record %d: epoch %d after epoch %d (epochs count up from 1)", i, e.Epoch, prev.Epoch)
		case e.Presentations < prev.Presentations || e.Presentations < 0:
			return fmt.Errorf("epoch %d: %d presentations so far, fewer than %d before", e.Epoch, e.Presentations, prev.Presentations)
		case e.Mistakes < 0 || e.Mistakes > e.Presentations-prev.Presentations:
			return fmt.Errorf("epoch %d: %d mistakes in %d presentations", e.Epoch, e.Mistakes, e.Presentations-prev.Presentations)
		case !(e.Pr >= 0 && e.Pr <= 1):
			return fmt.Errorf("epoch %d: P_r %v out of range [0, 1]", e.Epoch, e.Pr)
		case e.Pg != nil && !(*e.Pg >= 0 && *e.Pg <= 1):
			return fmt.Errorf("epoch %d: P_g %v out of range [0, 1]", e.Epoch, *e.Pg)
		case !(e.Seconds >= prev.Seconds) || math.IsInf(e.Seconds, 0):
			return fmt.Errorf("epoch %d: machine time %v s is not finite and growing", e.Epoch, e.Seconds)
		case e.Pulses < prev.Pulses || e.Saturations < prev.Saturations:
			return fmt.Errorf("epoch %d: pulse or saturation counts go down", e.Epoch)
		}
		prev = e
	}
	return nil
}
