package dataset

import (
	"context"
	"reflect"
	"testing"
)

// ReadLabels gives every row's class and the classes as ReadFile gives
// them, for every block size (a class first seen in a later block, LIBSVM's
// ±1 order across blocks), and a Fingerprinter given the rows one at a time
// the Set's Fingerprint.
func TestReadLabels(t *testing.T) {
	write := tempFiles(t)
	files := map[string]string{
		"csv":           "testdata/small.csv",
		"text":          "testdata/small.txt",
		"libsvm":        "testdata/small.libsvm",
		"pm1":           "testdata/pm1.libsvm",
		"-1 then 1":     write("m.libsvm", "-1 1:1\n-1 1:2\n1 2:1\n-1 1:3\n"),
		"csv -1 then 1": write("m.csv", "a,b,label\n1,0,-1\n0,2,1\n3,3,-1\n"),
		"late class":    write("l.libsvm", "7 1:1\n3 1:2\n7 2:1\n2 1:3\n3 2:2\n"),
		"0-based":       write("z.libsvm", "1 0:1 2:3\n2 5:1\n3 1:2\n"),
	}
	for name, path := range files {
		want, err := ReadFile(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, rows := range []int{1, 2, 1000} {
			got, err := ReadLabels(context.Background(), path, Options{}, rows)
			if err != nil {
				t.Fatalf("%s, blocks of %d: %v", name, rows, err)
			}
			if !reflect.DeepEqual(got.Y, want.Y) || !reflect.DeepEqual(got.Classes, want.Classes) || got.Dim != want.Dim || got.Rows() != want.Rows() || got.NonZeros() != 0 {
				t.Errorf("%s, blocks of %d: labels %v of %v (dim %d, %d values); ReadFile's %v of %v (dim %d)", name, rows, got.Y, got.Classes, got.Dim, got.NonZeros(), want.Y, want.Classes, want.Dim)
			}
		}
		f := NewFingerprinter(want.Dim, want.Classes, want.Rows())
		for i := range want.Rows() {
			idx, val := want.Row(i)
			f.Add(want.Y[i], idx, val)
		}
		if got := f.Sum(); got != want.Fingerprint() {
			t.Errorf("%s: Fingerprinter gives %s; Fingerprint %s", name, got, want.Fingerprint())
		}
	}
}
