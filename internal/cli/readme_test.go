package cli

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exampleFiles are the guides whose example commands TestReadmeExamples
// runs, in this order, in one scratch folder: the README first (it makes
// the machine file, cards and feature files the others use), then the
// reference pages it points to.
var exampleFiles = []string{
	"README.md",
	"docs/data.md",
	"docs/machine.md",
	"docs/compare.md",
	"docs/numeric.md",
	"docs/libsvm.md",
	"docs/dials.md",
	"docs/panel.md",
	"docs/notes.md",
	"docs/faults.md",
	"docs/robustness.md",
	"docs/outputs.md",
	"docs/model-selection.md",
	"docs/sweeps.md",
}

// readmeSkip lists the README example commands this test does not run,
// each exactly as written (without its comment), with the reason. A new
// README example runs unless it is listed here.
var readmeSkip = map[string]string{
	"go install ./cmd/mark1": "installs from the source folder; the test builds the same binary itself and puts it first on the PATH",
	"go test ./...":          "would run this test inside itself",
	"mark1 serve":            "opens a server and waits",
	"mark1 serve --machine mark1.json --addr 127.0.0.1:9000": "opens a server and waits",
	"mark1 serve --machine mark1.json --out panel.json":      "opens a server and waits",
}

// readmeCommands returns the commands of the ```sh blocks of a README, in
// order: comments ("  # …") removed, lines ending in a backslash joined,
// blank lines dropped.
func readmeCommands(text string) []string {
	var cmds []string
	in := false
	var cont string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && trimmed == "```sh":
			in = true
			continue
		case in && trimmed == "```":
			in = false
			continue
		case !in:
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			line = ""
		}
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, "\\") {
			cont += strings.TrimSpace(strings.TrimSuffix(line, "\\")) + " "
			continue
		}
		line = strings.TrimSpace(cont + line)
		cont = ""
		if line != "" {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

func TestReadmeCommands(t *testing.T) {
	got := readmeCommands("intro\n```sh\nmark1 a   # one\n# a comment\n\nmark1 b \\\n  --x 1\n```\n```\nnot sh\n```\n```sh\nmark1 c && mark1 d\n```\n")
	want := []string{"mark1 a", "mark1 b --x 1", "mark1 c && mark1 d"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("readmeCommands = %q; want %q", got, want)
	}
}

// TestReadmeExamples runs every example command of exampleFiles, in order, in
// one scratch folder, with the mark1 binary built from this source on the
// PATH: each must exit 0. Data files the examples name are made by earlier
// examples (mark1 stimuli, mark1 train). Commands in readmeSkip are not
// run; a skip-list entry that no longer matches a README command fails the
// test, so the list stays true.
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README example (about 30 s)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, name := range exampleFiles {
		text, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, readmeCommands(string(text))...)
	}
	path := buildMark1(t)
	scratch := t.TempDir()
	seen := map[string]bool{}
	start := time.Now()
	for _, cmd := range cmds {
		if _, skip := readmeSkip[cmd]; skip {
			seen[cmd] = true
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		c := exec.CommandContext(ctx, "sh", "-c", cmd)
		// A command that outlives its time is killed with everything it
		// started (its process group), and its output is not waited for.
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
		c.WaitDelay = 2 * time.Second
		c.Dir = scratch
		c.Env = append(os.Environ(), "PATH="+path)
		t0 := time.Now()
		out, err := c.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("README example %q failed (%v):\n%s", cmd, err, out)
			continue
		}
		t.Logf("%5.1fs  %s", time.Since(t0).Seconds(), cmd)
	}
	for cmd := range readmeSkip {
		if !seen[cmd] {
			t.Errorf("readmeSkip lists %q, which is no longer a README example", cmd)
		}
	}
	t.Logf("all examples: %.1fs", time.Since(start).Seconds())
}
