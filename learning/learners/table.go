package learners

import (
	"fmt"
	"io"
	"strings"
)

// WriteTable writes the learners × options table of the README in
// Markdown: one row per option with its default and meaning, and the
// learners that read it. The README's copy is checked against it.
func WriteTable(w io.Writer) error {
	d := Defaults()
	all := All()
	if _, err := fmt.Fprintf(w, "| option | default | learners | meaning |\n|---|---|---|---|\n"); err != nil {
		return err
	}
	for _, op := range OptionList() {
		var who []string
		for _, s := range all {
			if s.Reads(op.Name) {
				who = append(who, s.Name)
			}
		}
		if len(who) == len(all) {
			who = []string{"all"}
		}
		if _, err := fmt.Fprintf(w, "| `--%s` | `%s` | %s | %s |\n", op.Name, d.Get(op.Name), strings.Join(who, ", "), strings.ReplaceAll(op.Doc, "\n", " ")); err != nil {
			return err
		}
	}
	return nil
}
