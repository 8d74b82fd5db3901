package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"mark1/images"
	"mark1/internal/base/atomicfile"
	"mark1/machine"
)

// loadMachine reads the machine file path named by --machine, at most
// limit bytes (the command's --max-memory); an interrupt while it is read
// or decoded is ctx's error at once.
func loadMachine(ctx context.Context, limit int64, path string) (*machine.Machine, error) {
	if path == "" {
		return nil, usagef("--machine FILE is required (train one with: mark1 train)")
	}
	return machine.LoadContext(ctx, path, limit, "--max-memory")
}

func runEval(ctx context.Context, env *Env, args []string) error {
	var data dataFlags
	var path string
	var seed uint64
	var asJSON bool
	fs := newFlags(env, "eval --machine FILE [--data PATH | --task NAME] [--json]", "Measures a saved machine, weights frozen: accuracy and a confusion matrix.")
	fs.StringVar(&path, "machine", "mark1.json", "the machine file")
	fs.BoolVar(&asJSON, "json", false, "print the accuracy and the confusion matrix as JSON (fields in the README)")
	data.register(fs, false)
	fs.Uint64Var(&seed, "seed", 2, "seed for a built-in task's cards (differs from train's default, so the cards are new)")
	if err := env.parse(fs, args); err != nil {
		return err
	}
	m, err := loadMachine(ctx, data.memory.bytes(), path)
	if err != nil {
		return err
	}
	if data.task == "" && data.data == "" {
		return usagef("eval: give --data PATH or --task NAME")
	}
	d, _, err := data.load(ctx, given(fs), seed)
	if err != nil {
		return err
	}
	if err := relabel(d, m.Classes); err != nil {
		return err
	}
	if err := data.checkFit(m.Config, d); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // interrupted while the data were read
		return err
	}
	e, err := machine.Evaluate(ctx, m, path, d)
	if err != nil || asJSON {
		return cmp.Or(err, writeJSON(env.Stdout, e))
	}
	w := env.Stdout
	fmt.Fprintf(w, "%s on %s: accuracy %s on %d cards; chance %.1f%%\n", path, d.Name, rateCI(e.Accuracy, d.Len()), d.Len(), 100*e.Chance)
	fmt.Fprintf(w, "  pairwise, 1958: %.1f%% of (card, other class) pairs prefer the card's class; chance 50%%\n\n", 100*e.Pairwise)
	if e.Clusters != nil {
		printEvalClusters(w, *e.Clusters)
	}
	printConfusion(w, m.Classes, e.Confusion, e.NoClass)
	if len(e.Empty) > 0 {
		fmt.Fprintf(w, "\nNote: %s has no cards of the machine's class(es) %s; their rows are empty.\n", d.Name, strings.Join(e.Empty, ", "))
	}
	return nil
}

// predictJSON is predict --json's output (documented in the README).
type predictJSON struct {
	Machine  string           `json:"machine"`
	Classes  []string         `json:"classes"`
	Pictures []machine.Answer `json:"pictures"`
}

// writeJSON writes v as indented JSON, one document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printEvalClusters says how a machine trained without labels splits the
// cards, beside the accuracy its response numbers happen to give.
func printEvalClusters(w io.Writer, c machine.Clusters) {
	collapse := ""
	if c.Collapsed {
		collapse = "; it collapsed to one response"
	}
	fmt.Fprintf(w, "  trained without labels (spontaneous): the accuracy above counts a response as the class of its number;\n  as clusters of the classes, purity %.1f%% (each response counted as its commonest class; chance %.1f%%), %d of %d responses used%s\n\n",
		100*c.Purity, 100*c.Chance, c.Responses, len(c.Class), collapse)
}

// printConfusion prints the confusion matrix conf ([true][answered]) with
// a last column of the cards given no class (none).
func printConfusion(w io.Writer, classes []string, conf [][]int, none []int) {
	width := 6
	for _, c := range classes {
		width = max(width, len(c)+1)
	}
	fmt.Fprintf(w, "%*s  predicted →\n", width, "true ↓")
	fmt.Fprintf(w, "%*s", width, "")
	for _, c := range classes {
		fmt.Fprintf(w, " %*s", width, c)
	}
	fmt.Fprintf(w, " %*s\n", width, "none")
	for i, row := range conf {
		fmt.Fprintf(w, "%*s", width, classes[i])
		for _, n := range row {
			fmt.Fprintf(w, " %*d", width, n)
		}
		fmt.Fprintf(w, " %*d\n", width, none[i])
	}
}

// limitFields maps the data's limits (images.Source's fields) to the
// flags --max-pixels and --max-memory, for commands that read pictures
// without the data flags (predict, serve).
func limitFields() fieldFlags {
	t := fieldFlags{}
	t.add("max_pixels", "max-pixels")
	t.add("max_bytes", "max-memory")
	return t
}

// checkLimits refuses limits out of range by the data's own rules
// (images.Source.Validate), as the data flags are checked (dataFlags.check),
// naming the given flags that set them by fields; 0 pixels asks for none
// (explicitZero).
func checkLimits(lim images.Limits, fields fieldFlags, given givenFlags) error {
	s := images.Source{MaxPixels: explicitZero(lim.MaxPixels), MaxBytes: lim.MaxBytes}
	if err := s.Validate(); err != nil {
		if msg, ok := fields.blame(err, given); ok {
			return usageError{errors.New(msg)}
		}
		return usageError{err}
	}
	return nil
}

func runPredict(ctx context.Context, env *Env, args []string) error {
	var path string
	var maxPixels int
	var asJSON bool
	fs := newFlags(env, "predict --machine FILE [--json] IMAGE...", "Shows each picture to a saved machine and prints its answer, each R-unit's sum\nand output, and P_a, the fraction of A-units that fired.")
	fs.StringVar(&path, "machine", "mark1.json", "the machine file")
	fs.BoolVar(&asJSON, "json", false, "print the answers as one JSON document (fields in the README)")
	fs.IntVar(&maxPixels, "max-pixels", images.DefaultMaxPixels, "refuse pictures larger than this many pixels")
	memory := memoryFlag(fs)
	fields := limitFields()
	if err := env.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("predict: give one or more image files")
	}
	lim := images.Limits{MaxPixels: maxPixels, MaxBytes: memory.bytes()}
	if err := checkLimits(lim, fields, given(fs)); err != nil {
		return err
	}
	m, err := loadMachine(ctx, memory.bytes(), path)
	if err != nil {
		return err
	}
	answers, err := m.Answers(ctx, fs.Args(), images.Limits{MaxPixels: lim.MaxPixels})
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Stdout, predictJSON{Machine: path, Classes: m.Classes, Pictures: answers})
	}
	for _, a := range answers {
		label := "(no class)"
		if a.Class != nil {
			label = *a.Class
		}
		var units []string
		for u, r := range a.RUnits {
			state := "off"
			if r.On {
				state = "ON"
			}
			units = append(units, fmt.Sprintf("R%d %+.3f %s", u, r.Sum, state))
		}
		fmt.Fprintf(env.Stdout, "%s: %s   P_a %.1f%%   %s\n", a.File, label, 100*a.Pa, strings.Join(units, ", "))
	}
	return nil
}

func runWiring(ctx context.Context, env *Env, args []string) error {
	var path, out string
	fs := newFlags(env, "wiring --machine FILE [--out FILE]", "Prints the machine's plugboard: each A-unit's threshold and its excitatory and\ninhibitory origin points (row,col). Edit it and train again with --wiring FILE.")
	fs.StringVar(&path, "machine", "mark1.json", "the machine file")
	fs.StringVar(&out, "out", "", "write the listing to this file instead of standard output")
	memory := memoryFlag(fs)
	if err := env.parse(fs, args); err != nil {
		return err
	}
	m, err := loadMachine(ctx, memory.bytes(), path)
	if err != nil {
		return err
	}
	if out == "" {
		return m.WriteWiring(env.Stdout)
	}
	return atomicfile.Write(out, func(f *os.File) error { return m.WriteWiring(f) })
}
