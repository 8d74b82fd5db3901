package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestCheckPaths: inputs against outputs, outputs against each other,
// IMAGES,LABELS pairs, defaults, and the one declared exception.
func TestCheckPaths(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("m.json", []byte("{}"), 0o644)
	env := &Env{cmd: &command{name: "t",
		in:  []input{{"data", inData}, {"resume", inFile}},
		out: []output{{flag: "out", rewrites: []string{"resume"}}, {flag: "png"}}}}
	newFS := func() *pflag.FlagSet {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.String("data", "", "")
		fs.String("resume", "", "")
		fs.String("out", "mark1.json", "")
		fs.String("png", "", "")
		env.declare(fs)
		return fs
	}
	tests := []struct {
		args []string
		want string // "" for allowed
	}{
		{[]string{"--data", "m.json", "--out", "x.json"}, ""},
		{[]string{"--data", "m.json", "--out", "m.json"}, "--out m.json is also --data"},
		{[]string{"--data", "mark1.json"}, "--out mark1.json is also --data"}, // the default counts
		{[]string{"--data", "i-images,mark1.json"}, "is read with --data"},    // IDX pair
		{[]string{"--resume", "m.json", "--out", "m.json"}, ""},               // resume in place
		{[]string{"--resume", "mark1.json"}, ""},
		{[]string{"--png", "p.png", "--out", "p.png"}, "--out and --png both name p.png"},
		{[]string{"--png", "-", "--out", "-"}, ""}, // standard output is not a file
	}
	for _, tt := range tests {
		fs := newFS()
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		err := env.checkFiles(fs)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v; want allowed", tt.args, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: %v; want %q", tt.args, err, tt.want)
		}
	}
}

// TestResumeInPlace: train --resume F --out F, the declared exception,
// still resumes and replaces F.
func TestResumeInPlace(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := run(t, dir, "train", "--task", "leftright", "--n", "5", "--epochs", "1", "--quiet", "--out", "m.json"); code != 0 {
		t.Fatal(errs)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	if code, _, errs := run(t, dir, "train", "--resume", "m.json", "--out", "m.json", "--epochs", "3", "--quiet"); code != 0 {
		t.Fatalf("resume in place refused: %s", errs)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	if string(before) == string(after) {
		t.Error("m.json unchanged by the resumed run")
	}
}
