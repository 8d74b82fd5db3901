package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBudgetLimits: every limit fit's reader derives from --max-memory
// (the rows' bytes, a line's length, the number of features) refuses a
// file at a small --max-memory, naming the limit and the flag, and reads
// it at a larger one; a bound of the format (an index past int32) is
// refused at any budget, saying that no flag raises it (issue 39).
func TestBudgetLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, fill func(b *strings.Builder)) string {
		var b strings.Builder
		fill(&b)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	// 12,000 sparse rows of 10 values in 40 features: 120,000 values,
	// 1.63 MB at 12 bytes a value and 16 a row, over 1 MiB.
	rows := write("rows.libsvm", func(b *strings.Builder) {
		for i := range 12_000 {
			fmt.Fprintf(b, "%d", i%2)
			for k := 1; k <= 10; k++ {
				fmt.Fprintf(b, " %d:%d", 4*k, 1+(i+k)%7)
			}
			b.WriteString("\n")
		}
	})
	// 40,000 dense rows of 10 features: 1.76 MB held as float32 while
	// read (11 columns, LIBSVM's indices from 1), 0.64 MB of labels, over
	// 1 MiB; a block of 4,096 rows read is 0.49 MB parsed.
	dense := write("dense.libsvm", func(b *strings.Builder) {
		for i := range 40_000 {
			fmt.Fprintf(b, "%d", i%2)
			for k := 1; k <= 10; k++ {
				fmt.Fprintf(b, " %d:%d", k, 1+(i+k)%7)
			}
			b.WriteString("\n")
		}
	})
	// A line of 30,000 features, some 290 kB: over an eighth of 1 MiB.
	long := write("long.libsvm", func(b *strings.Builder) {
		for i := range 2 {
			fmt.Fprintf(b, "%d", i)
			for k := 1; k <= 30_000; k++ {
				fmt.Fprintf(b, " %d:1", k)
			}
			b.WriteString("\n")
		}
	})
	// A CSV line of 60,000 one-digit fields, 120 kB: over a 32nd of 1 MiB
	// (and the least, 64 KiB).
	csvLong := write("long.csv", func(b *strings.Builder) {
		for k := range 60_000 {
			fmt.Fprintf(b, "f%d,", k)
		}
		b.WriteString("label\n")
		for i := range 2 {
			b.WriteString(strings.Repeat("1,", 60_000))
			fmt.Fprintf(b, "%d\n", i)
		}
	})
	// Feature 200,000: over what 1 MiB holds at 8 bytes a feature.
	wide := write("wide.libsvm", func(b *strings.Builder) { b.WriteString("0 1:1\n1 200000:1\n") })
	// Feature 20,000,000: within what 512 MiB holds, beyond a model file.
	modelWide := write("modelwide.libsvm", func(b *strings.Builder) { b.WriteString("0 1:1\n1 20000000:1\n") })
	// An index past int32: the rows cannot store it.
	huge := write("huge.libsvm", func(b *strings.Builder) { b.WriteString("0 1:1\n1 3000000000:1\n") })
	for _, c := range []struct {
		name, file string
		small      string   // --max-memory that refuses
		want       []string // in the refusal
		large      string   // --max-memory that reads the file ("": none does)
	}{
		{"rows' bytes", rows, "1MiB", []string{"rows.libsvm:", "over the budget of 1048576 bytes (the memory budget", "raise it with --max-memory"}, "8MiB"},
		{"rows held dense", dense, "1MiB", []string{"dense.libsvm:", "held dense (11 columns of 4 bytes a row", "over the budget of 1048576 bytes (the memory budget)", "raise it with --max-memory"}, "16MiB"},
		{"libsvm line", long, "1MiB", []string{"long.libsvm:1: line longer than 131072 bytes", "1/8 of it", "raise it with --max-memory"}, "8MiB"},
		{"CSV line", csvLong, "1MiB", []string{"long.csv:1: line longer than 65536 bytes", "1/32 of it", "raise it with --max-memory"}, "16MiB"},
		{"features", wide, "1MiB", []string{"wide.libsvm:2: field 2: feature index 200000 is above the limit of 131072 features", "derived from the memory budget", "raise it with --max-memory"}, "8MiB"},
		{"a model file's features", modelWide, "8GiB", []string{"modelwide.libsvm: 20000000 features, above 16777216, the most a model file holds", "no flag raises it"}, ""},
		{"int32 index", huge, "1GiB", []string{"huge.libsvm:2: field 2: feature index 3000000000 is above 2147483647", "no flag raises it"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fit := func(mem string) (int, string) {
				code, _, errs := run(t, dir, "fit", "--data", c.file, "--learner", "perceptron", "--epochs", "1", "--quiet", "--max-memory", mem, "--model", "m.json")
				return code, errs
			}
			code, errs := fit(c.small)
			if code == 0 {
				t.Fatalf("--max-memory %s: read; want a refusal", c.small)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("--max-memory %s: %q lacks %q", c.small, errs, w)
				}
			}
			if strings.Contains(errs, "no flag raises it") == strings.Contains(errs, "--max-memory") {
				t.Errorf("--max-memory %s: %q names --max-memory and says nothing raises it, or neither", c.small, errs)
			}
			if c.large != "" {
				if code, errs := fit(c.large); code != 0 {
					t.Errorf("--max-memory %s: %s", c.large, errs)
				}
			}
		})
	}
}

// TestBudgetLimitsTrain: train and compare read --data through the
// pictures' loader; a refusal there names the budget's flag, or says that
// none raises a bound of the format, as fit's do.
func TestBudgetLimitsTrain(t *testing.T) {
	dir := t.TempDir()
	var rows strings.Builder
	for i := range 3_000 {
		fmt.Fprintf(&rows, "%d", i%2)
		for k := 1; k <= 100; k++ {
			fmt.Fprintf(&rows, " %d:%d", 4*k, 1+(i+k)%7)
		}
		rows.WriteString("\n")
	}
	os.WriteFile(filepath.Join(dir, "rows.libsvm"), []byte(rows.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "huge.libsvm"), []byte("0 1:1\n1 3000000000:1\n"), 0o644)
	for _, c := range []struct {
		file, want string
	}{
		{"rows.libsvm", "over the budget of 1048576 bytes (the memory budget; 16 bytes a row, 12 a value) (raise it with --max-memory)"},
		{"huge.libsvm", "feature index 3000000000 is above 2147483647, the largest index the rows store (an int32) (no flag raises it)"},
	} {
		code, _, errs := run(t, dir, "train", "--data", c.file, "--max-memory", "1MiB")
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("train --data %s: exit %d, %q; want a refusal with %q", c.file, code, errs, c.want)
		}
	}
}
