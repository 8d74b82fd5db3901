package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// Outputs never replace inputs. Every command marks the flags whose values
// are files or folders it reads (inputs) and those it writes (outputs) when
// it registers them; parse then compares every output with every input,
// and every output with every other, before the command does any work,
// and refuses (exit 2) when two name the same file: the same path once
// made absolute and cleaned, or, for files that exist, the same file after
// links are followed (os.SameFile; a hard link too). A default value
// counts as much as a given one (fit --data model.json would otherwise
// lose its data to the default --model model.json). The one exception is
// declared where it is wanted: train --resume F --out F resumes a run in
// place (rewrites).

// Annotation keys on a command's flags.
const (
	roleKey     = "mark1-path-role"     // "in" or "out"
	rewritesKey = "mark1-path-rewrites" // on an output: inputs it may replace
)

// inputFlags marks flags of fs as paths the command reads.
func inputFlags(fs *pflag.FlagSet, names ...string) { markFlags(fs, "in", names) }

// outputFlags marks flags of fs as paths the command writes.
func outputFlags(fs *pflag.FlagSet, names ...string) { markFlags(fs, "out", names) }

func markFlags(fs *pflag.FlagSet, role string, names []string) {
	for _, n := range names {
		if err := fs.SetAnnotation(n, roleKey, []string{role}); err != nil {
			panic(fmt.Sprintf("cli: %s: marking --%s: %v", fs.Name(), n, err)) // a flag not registered: a bug
		}
	}
}

// mayRewrite lets output flag out name the same file as input flag in
// (train --resume F --out F).
func mayRewrite(fs *pflag.FlagSet, out, in string) {
	f := fs.Lookup(out)
	if f == nil || fs.Lookup(in) == nil {
		panic(fmt.Sprintf("cli: %s: mayRewrite(%s, %s): no such flag", fs.Name(), out, in))
	}
	if err := fs.SetAnnotation(out, rewritesKey, append(f.Annotations[rewritesKey], in)); err != nil {
		panic(err)
	}
}

// pathFlag is one marked flag's value.
type pathFlag struct {
	name string // the flag, without dashes
	path string
}

// checkPaths refuses, as a usage error naming both flags and the path, an
// output flag of fs that names the same file as an input flag or as
// another output flag (see the rule above).
func checkPaths(fs *pflag.FlagSet) error {
	var ins, outs []pathFlag
	fs.VisitAll(func(f *pflag.Flag) {
		role := f.Annotations[roleKey]
		if len(role) == 0 {
			return
		}
		v := f.Value.String()
		if v == "" || v == "-" {
			return
		}
		if role[0] == "out" {
			outs = append(outs, pathFlag{f.Name, v})
			return
		}
		ins = append(ins, pathFlag{f.Name, v})
		// IDX data may be given as IMAGES,LABELS: each is read.
		if _, err := os.Lstat(v); err != nil && strings.Contains(v, ",") {
			for _, p := range strings.Split(v, ",") {
				ins = append(ins, pathFlag{f.Name, p})
			}
		}
	})
	for i, o := range outs {
		rewrites := fs.Lookup(o.name).Annotations[rewritesKey]
		for _, in := range ins {
			if sameFile(o.path, in.path) && !slices.Contains(rewrites, in.name) {
				return usagef("--%s %s is also --%s: refusing to replace an input with an output (choose another --%s)", o.name, o.path, in.name, o.name)
			}
		}
		for _, o2 := range outs[i+1:] {
			if sameFile(o.path, o2.path) {
				return usagef("--%s and --%s both name %s: two outputs cannot be written to one file", o.name, o2.name, o.path)
			}
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one file: the same cleaned
// absolute path, the same existing file after links are followed, or, for
// a file not made yet, the same place once the links of the folder it
// would be made in are followed.
func sameFile(a, b string) bool {
	if abs(a) == abs(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	return resolved(a) == resolved(b)
}

// abs returns p absolute and cleaned (p itself when the working folder is
// unknown).
func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// resolved returns p absolute with every link followed: of p itself when
// it exists, else of the folder it would be made in.
func resolved(p string) string {
	p = abs(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}
