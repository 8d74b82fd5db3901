// Package atomicfile is mark1's safe file I/O: outputs written atomically,
// only over regular files (Write, WriteDir, Check), and inputs read only
// from regular files, within a stated size (Open, ReadFile).
//
// A reader, or a process killed half way, sees either the old output or the
// complete new one, never a part. An output path that names a device, a
// named pipe, a socket or a folder is refused, never replaced; a symbolic
// link is written through (its target is replaced, in the target's folder,
// and the link stays). A replaced file keeps its permission bits; a new one
// gets 0666 less the umask, as a shell redirection would. Temporary files
// are named ".NAME.tmp-DIGITS" beside the file they become, locked while
// they are written; ones left by killed runs are removed the next time the
// same file is written (on Unix, where files can be locked).
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processStart is when this process started (strictly, when the package was
// initialised): temporary files older than it cannot be this process's own.
// Set once, never changed.
var processStart = time.Now()

// maxLinks bounds how many symbolic links Resolve follows, as the kernel's
// own limit (40 on Linux) does.
const maxLinks = 40

// Resolve follows path through symbolic links, one at a time, to the path
// that a write should replace: the last link's target, which may not exist
// yet (a dangling link is written through and creates its target). A path
// that is not a link is returned as it is.
func Resolve(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return "", fmt.Errorf("%s: more than %d symbolic links in a row (a loop?)", path, maxLinks)
}

// kindName names a file type for messages.
func kindName(m fs.FileMode) string {
	// in this order: a character device has ModeDevice set too
	for _, k := range []struct {
		bit  fs.FileMode
		name string
	}{
		{fs.ModeDir, "a folder"},
		{fs.ModeNamedPipe, "a named pipe (FIFO)"},
		{fs.ModeSocket, "a socket"},
		{fs.ModeCharDevice, "a character device"},
		{fs.ModeDevice, "a block device"},
		{fs.ModeSymlink, "a symbolic link"},
		{fs.ModeIrregular, "an irregular file"},
	} {
		if m.Type()&k.bit != 0 {
			return k.name
		}
	}
	return "a regular file"
}

// target is where a write goes.
type target struct {
	real string      // the file to replace, links followed
	dir  string      // real's folder
	base string      // real's name
	perm fs.FileMode // the old file's permission bits
	old  bool        // whether real exists
}

// findTarget resolves path and checks that what is there may be replaced.
func findTarget(path string) (target, error) {
	real, err := Resolve(path)
	if err != nil {
		return target{}, fmt.Errorf("writing %s: %w", path, err)
	}
	t := target{real: real}
	t.dir, t.base = filepath.Split(real)
	if t.dir == "" {
		t.dir = "."
	}
	if t.base == "" || t.base == "." || t.base == ".." {
		return t, fmt.Errorf("writing %s: names a folder, not a file", path)
	}
	shown := path
	if real != path {
		shown = fmt.Sprintf("%s (a link to %s)", path, real)
	}
	fi, err := os.Stat(real)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return t, fmt.Errorf("writing %s: is %s, not a regular file; refusing to replace it", shown, kindName(fi.Mode()))
	case err == nil:
		t.perm, t.old = fi.Mode().Perm(), true
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		di, derr := os.Stat(t.dir)
		switch {
		case errors.Is(derr, fs.ErrNotExist):
			return t, fmt.Errorf("writing %s: folder %s does not exist", shown, t.dir)
		case errors.Is(derr, syscall.ENOTDIR):
			return t, fmt.Errorf("writing %s: a part of %s is not a folder", shown, t.dir)
		case derr != nil:
			return t, fmt.Errorf("writing %s: %w", shown, derr)
		case !di.IsDir():
			return t, fmt.Errorf("writing %s: %s is not a folder", shown, t.dir)
		}
	default:
		return t, fmt.Errorf("writing %s: %w", shown, err)
	}
	return t, nil
}

// tempName returns a fresh temporary name for base: ".BASE.tmp-DIGITS".
func tempName(base string) string {
	return "." + base + ".tmp-" + strconv.FormatUint(uint64(rand.Uint32()), 10)
}

// IsTemp reports whether name is the name of a temporary file or folder
// that Write or WriteDir makes beside its target (".BASE.tmp-DIGITS").
func IsTemp(name string) bool {
	i := strings.LastIndex(name, ".tmp-")
	return strings.HasPrefix(name, ".") && i > 1 && isTempName(name, name[1:i])
}

// isTempName reports whether name is a temporary name that tempName (or
// os.CreateTemp and os.MkdirTemp with the pattern ".BASE.tmp-*", as earlier
// versions used) makes for base.
func isTempName(name, base string) bool {
	digits, ok := strings.CutPrefix(name, "."+base+".tmp-")
	if !ok || len(digits) == 0 || len(digits) > 20 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// createTemp creates a new temporary file for t, locked, with mode 0666
// less the umask (the kernel applies it).
func createTemp(t target) (*os.File, error) {
	for range 100 {
		name := filepath.Join(t.dir, tempName(t.base))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|openNoFollow, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := tryLock(f); err != nil {
			f.Close()
			os.Remove(name)
			return nil, fmt.Errorf("locking %s: %w", name, err)
		}
		return f, nil
	}
	return nil, fmt.Errorf("no free temporary name for %s in %s", t.base, t.dir)
}

// Check reports, without writing anything, whether Write(path) could
// succeed now: whatever is at path (links followed) is a regular file or
// nothing, and a temporary file can be created beside it. Call it before
// long work whose result goes to path.
func Check(path string) error {
	t, err := findTarget(path)
	if err != nil {
		return err
	}
	f, err := createTempFor(path, t)
	if err != nil {
		return err
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// createTempFor is createTemp for writing path, its error in the words of
// Write and Check.
func createTempFor(path string, t target) (*os.File, error) {
	f, err := createTemp(t)
	if err != nil {
		return nil, fmt.Errorf("writing %s: cannot create a file in folder %s: %w", path, t.dir, unwrapPath(err))
	}
	return f, nil
}

// unwrapPath drops the *PathError's own path (a temporary name that means
// nothing to the user), keeping its cause.
func unwrapPath(err error) error { return cause[*fs.PathError](err) }

// cause returns the cause of err's first error of type E (a *PathError or
// *LinkError, whose names are temporary), or err when it has none.
func cause[E error](err error) error {
	var e E
	if errors.As(err, &e) {
		return errors.Unwrap(e)
	}
	return err
}

// Write writes the bytes that fill produces to path atomically: into a
// temporary file beside the file it replaces, synced, then renamed over it.
// path, links followed, must be a regular file or not exist; its folder
// must exist. On any error the temporary file is removed and path is left
// untouched. Stale temporary files of path's name (see the package
// comment) are removed first.
func Write(path string, fill func(f *os.File) error) (err error) {
	t, err := findTarget(path)
	if err != nil {
		return err
	}
	RemoveStale(t.real)
	tmp, err := createTempFor(path, t)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
		tmp.Close() // releases the lock
	}()
	if err = fill(tmp); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if t.old {
		if err = tmp.Chmod(t.perm); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// Look again just before replacing: something other than a regular
	// file may have appeared meanwhile.
	if fi, serr := os.Lstat(t.real); serr == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("writing %s: %s became %s while writing; refusing to replace it", path, t.real, kindName(fi.Mode()))
	}
	if err = os.Rename(tmp.Name(), t.real); err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapLink(err))
	}
	syncDir(t.dir)
	return nil
}

// unwrapLink drops a *LinkError's temporary name from a rename's error.
func unwrapLink(err error) error { return cause[*os.LinkError](err) }

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// WriteBytes writes b to path atomically.
func WriteBytes(path string, b []byte) error {
	return Write(path, func(f *os.File) error {
		_, err := f.Write(b)
		return err
	})
}

// RemoveStale removes the temporary files and folders that a killed Write
// or WriteDir of path left beside it, and returns how many it removed. It
// removes an entry only if all of these hold: its name is exactly
// ".NAME.tmp-DIGITS" for path's NAME; it is a regular file or a folder (not
// a link); it was last changed before this process started; and no running
// writer holds its lock. A folder is removed only if it holds nothing but
// what WriteDir's fill may make there (see WriteDir). Errors are ignored:
// cleaning up is a courtesy, never a reason to fail a write.
func RemoveStale(path string) int {
	if !canLock {
		return 0
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	d, err := os.Open(dir)
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	removed := 0
	for _, name := range names {
		if !isTempName(name, base) {
			continue
		}
		p := filepath.Join(dir, name)
		fi, err := os.Lstat(p)
		if err != nil || !fi.ModTime().Before(processStart) || !(fi.Mode().IsRegular() || fi.IsDir()) {
			continue
		}
		if removeUnlocked(p, fi) {
			removed++
		}
	}
	return removed
}

// removeUnlocked removes p (described by fi) if it can take p's lock, that
// is if no running writer holds it.
func removeUnlocked(p string, fi fs.FileInfo) bool {
	f, err := os.OpenFile(p, os.O_RDONLY|openNoFollow|openNonBlock, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if tryLock(f) != nil {
		return false
	}
	now, err := f.Stat()
	if err != nil || !os.SameFile(now, fi) {
		return false
	}
	if fi.IsDir() {
		if !looksLikeOutput(p) {
			return false
		}
		return os.RemoveAll(p) == nil
	}
	return os.Remove(p) == nil
}

// looksLikeOutput reports whether folder p holds only what a WriteDir of
// a data set makes: folders holding regular files named like "0001.png".
func looksLikeOutput(p string) bool {
	entries, err := os.ReadDir(p)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() {
			return false
		}
		inner, err := os.ReadDir(filepath.Join(p, e.Name()))
		if err != nil {
			return false
		}
		for _, f := range inner {
			stem, ok := strings.CutSuffix(f.Name(), ".png")
			if !f.Type().IsRegular() || !ok || stem == "" || strings.Trim(stem, "0123456789") != "" {
				return false
			}
		}
	}
	return true
}

// Marker is the file that marks a folder made whole by WriteDirMarked as
// mark1's output of one kind (its content): such a folder may be made again
// in place, replacing what an earlier run wrote.
const Marker = ".mark1-output"

// systemFolder reports whether dir (cleaned, absolute) is one that no
// output may be: the root, a folder directly in it (/usr, /etc, /home,
// /tmp, …) or the user's home folder.
func systemFolder(dir string) bool {
	if filepath.Dir(dir) == dir || filepath.Dir(filepath.Dir(dir)) == filepath.Dir(dir) {
		return true
	}
	home, err := os.UserHomeDir()
	return err == nil && filepath.Clean(home) == dir
}

// CheckFolder reports, without writing anything, whether WriteDirMarked
// could make dir with marker: CheckPlace, and if dir exists, a folder that
// is empty or, when marker is not "", marked as an output of that kind.
func CheckFolder(dir, marker string) error {
	if err := CheckPlace(dir); err != nil {
		return err
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 && (marker == "" || !marked(dir, marker)) {
		what := ""
		if marker != "" {
			what = ", and mark1 did not make it as " + marker
		}
		return fmt.Errorf("%s: folder exists and is not empty%s; refusing to write into it", dir, what)
	}
	return nil
}

// CheckPlace reports, without writing anything, whether dir may be an
// output folder that files are added to: not a system folder (the root, a
// folder in it, the home folder), and either a folder (not a link to one)
// or nothing yet, in a folder that exists. Its content is the caller's to
// check.
func CheckPlace(dir string) error {
	a, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		a = r
	}
	if systemFolder(a) {
		return fmt.Errorf("%s: a system folder cannot be an output; give the name of a new folder", dir)
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		parent := filepath.Dir(filepath.Clean(dir))
		if pi, perr := os.Stat(parent); perr != nil || !pi.IsDir() {
			return fmt.Errorf("%s: folder %s does not exist", dir, parent)
		}
		return nil
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s: exists and is %s, not a folder; refusing to replace it", dir, kindName(fi.Mode()))
	}
	return nil
}

// marked reports whether folder dir holds the Marker of kind marker.
func marked(dir, marker string) bool {
	b, err := os.ReadFile(filepath.Join(dir, Marker))
	return err == nil && strings.TrimSpace(string(b)) == marker
}

// WriteDir makes the folder dir atomically: WriteDirMarked with no marker,
// so dir must be new or an empty folder.
func WriteDir(dir string, fill func(tmp string) error) error {
	return WriteDirMarked(dir, "", fill)
}

// WriteDirMarked makes the folder dir atomically: fill writes into a new
// temporary folder beside dir (mode 0777 less the umask), which is then
// renamed to dir. dir may not exist yet, or be an empty folder (which is
// replaced), or, when marker is not "", a folder that an earlier
// WriteDirMarked of the same marker made (which is replaced whole); the
// new folder holds the Marker file then. Anything else there is refused,
// as is a system folder (CheckFolder). A link is not followed: dir itself
// becomes the folder. fill should make only folders holding files named
// like "0001.png" if RemoveStale is to clean up after a killed run; other
// content is kept, never removed. On any error the temporary folder is
// removed and dir is left as it was.
func WriteDirMarked(dir, marker string, fill func(tmp string) error) (err error) {
	clean := filepath.Clean(dir)
	parent, base := filepath.Split(clean)
	if parent == "" {
		parent = "."
	}
	if base == "." || base == ".." || base == "/" || base == "" {
		return fmt.Errorf("%s: give the name of a new folder", dir)
	}
	if err := CheckFolder(clean, marker); err != nil {
		return err
	}
	replace, swap := false, false
	if fi, err := os.Lstat(clean); err == nil && fi.IsDir() {
		entries, rerr := os.ReadDir(clean)
		if rerr != nil {
			return rerr
		}
		replace, swap = true, len(entries) > 0
	}
	RemoveStale(clean)
	var tmp string
	for range 100 {
		tmp = filepath.Join(parent, tempName(base))
		if err = os.Mkdir(tmp, 0o777); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("%s: making a temporary folder beside it: %w", dir, unwrapPath(err))
	}
	lock, err := os.Open(tmp)
	if err == nil {
		err = tryLock(lock)
		defer lock.Close()
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("%s: locking the temporary folder: %w", dir, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err = fill(tmp); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if marker != "" {
		if err = os.WriteFile(filepath.Join(tmp, Marker), []byte(marker+"\n"), 0o666); err != nil {
			return fmt.Errorf("%s: %w", dir, unwrapPath(err))
		}
	}
	switch {
	case swap:
		// An earlier output of the same kind: moved aside, replaced, then
		// removed; if the new one cannot be moved in, the old one returns.
		old := filepath.Join(parent, tempName(base))
		if err = os.Rename(clean, old); err != nil {
			return fmt.Errorf("%s: moving the earlier output aside: %w", dir, unwrapLink(err))
		}
		if err = os.Rename(tmp, clean); err != nil {
			os.Rename(old, clean)
			return fmt.Errorf("%s: moving the finished folder into place: %w", dir, unwrapLink(err))
		}
		os.RemoveAll(old)
		syncDir(parent)
		return nil
	case replace:
		// Remove fails if something was put in dir meanwhile: then keep it.
		if err = os.Remove(clean); err != nil {
			return fmt.Errorf("%s: replacing the empty folder: %w", dir, unwrapPath(err))
		}
	}
	if err = os.Rename(tmp, clean); err != nil {
		return fmt.Errorf("%s: moving the finished folder into place: %w", dir, unwrapLink(err))
	}
	syncDir(parent)
	return nil
}
