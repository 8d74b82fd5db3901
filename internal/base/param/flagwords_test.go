package param

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// flagWordsLeft are the library strings that still name a CLI flag, by
// file: hints for people whose owner has not yet moved them to the CLI.
// None is left; a library says what its advice concerns in a typed value
// the CLI words with its flags (images.ErrMemory, machine.Warning's
// Settings, field errors). The count may only fall: TestNoFlagWords fails
// on a new one, and on one fixed but still listed.
var flagWordsLeft = map[string]int{}

// TestNoFlagWords scans the string literals of every package but the
// command line (internal/cli, cmd, bench) for a CLI flag ("--name"):
// validation lives in the library in the parameters' own names, and only
// the CLI maps them to flags.
func TestNoFlagWords(t *testing.T) {
	flag := regexp.MustCompile(`(^|[^-\w])--[a-z][a-z0-9-]*`)
	root := filepath.Join("..", "..", "..")
	found := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch rel {
			case "internal/cli", "cmd", "bench", ".git", "testdata":
				return filepath.SkipDir
			}
			if strings.HasSuffix(rel, "/testdata") || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING && flag.MatchString(b.Value) {
				found[rel]++
				if found[rel] > flagWordsLeft[rel] {
					t.Errorf("%s: %s names a CLI flag: return a *param.FieldError in the setting's own name and let the CLI name its flag", rel, b.Value)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for file, n := range flagWordsLeft {
		total += found[file]
		if found[file] < n {
			t.Errorf("%s: %d strings name a flag, fewer than the %d listed: lower flagWordsLeft", file, found[file], n)
		}
	}
	t.Logf("%d library strings still name a CLI flag (28 before the vocabulary work of issue 21, 10 after its first pass, 0 after its second)", total)
}
